// The portal's /metrics passes `promtool check metrics` (Prometheus's own linter) after it served requests.
import { promtoolCheckMetrics } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../src/index.js';
import { ADMIN, portal, sessionFor } from './auth/helpers.js';

describe('portal metrics exposition', () => {
  let server: PortalServer;
  beforeAll(async () => {
    server = await portal();
  });
  afterAll(async () => server?.close());

  it('passes promtool check metrics', async () => {
    await sessionFor(server, ADMIN);
    await server.app.inject({ url: '/api/db/health' });
    await server.app.inject({ url: '/api/storage/queries' });
    const scrape = await server.app.inject({ url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toContain('nodejs_active_handles');
    const result = promtoolCheckMetrics(scrape.body);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });
});
