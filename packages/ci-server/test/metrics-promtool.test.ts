// The CI's /metrics passes `promtool check metrics` (Prometheus's own linter) once the service's own metrics
// have values: a project applied, a run triggered and canceled, requests of several statuses served.
import { promtoolCheckMetrics } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../src/index.js';
import { applyAndGetPipelines, BUILD_PIPELINE, client, startApiServer } from './api-helpers.js';

describe('CI metrics exposition', () => {
  let server: CiServer;
  beforeAll(async () => {
    server = await startApiServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('passes promtool check metrics', async () => {
    const api = client(server);
    const pipelines = await applyAndGetPipelines(api, 'shop', [BUILD_PIPELINE]);
    const run = await api.post(`/api/v1/pipelines/${pipelines.build}/trigger`);
    expect(run.status).toBe(201);
    await api.post(`/api/v1/runs/${run.body.run_id}/cancel`);
    await api.get('/api/v1/runs/not-a-uuid');
    const scrape = await server.app.inject({ url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toContain('nodejs_active_handles');
    const result = promtoolCheckMetrics(scrape.body);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });
});
