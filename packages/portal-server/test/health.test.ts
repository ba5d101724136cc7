import { tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { createPortalServer, loadPortalSettings } from '../src/index.js';

async function portal(env: Record<string, string> = {}) {
  return createPortalServer(loadPortalSettings({ PORTAL_DATA_DIR: tempDir('portal-'), PORT: '0', ...env }), {
    logger: false,
  });
}

describe('portal probes', () => {
  it('GET /api/db/health answers status, timestamp and service', async () => {
    const server = await portal();
    const res = await server.app.inject({ method: 'GET', url: '/api/db/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ok');
    expect(body.service).toBeTypeOf('string');
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
    await server.close();
  });

  it.each([
    ['local', false],
    ['sqlite', true],
  ])('GET /api/storage/config reports %s storage', async (provider, serverMode) => {
    const server = await portal({ STORAGE_PROVIDER: provider });
    const res = await server.app.inject({ method: 'GET', url: '/api/storage/config' });
    expect(res.json()).toEqual({ provider, serverMode });
    await server.close();
  });

  it('refuses an unknown storage provider naming the variable', () => {
    expect(() => loadPortalSettings({ STORAGE_PROVIDER: 'mongo' })).toThrow(
      /STORAGE_PROVIDER .*expected one of local, sqlite, postgres/,
    );
  });
});
