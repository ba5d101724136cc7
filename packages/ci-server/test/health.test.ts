import { startPostgres } from '@app/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestCiServer } from './helpers.js';

describe('CI health routes', () => {
  it('answers liveness, version and metrics on SQLite', async () => {
    const server = await startTestCiServer();
    try {
      const health = await server.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.headers['content-type']).toMatch(/^text\/plain/);
      const ready = await server.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      const version = await server.app.inject({ method: 'GET', url: '/version' });
      const body = version.json();
      expect(Object.keys(body).sort()).toEqual(['build_date', 'commit', 'version']);
      expect(body.version).toBe('0.2.0');
      expect(new Date(body.build_date).toISOString()).toBe(body.build_date);
      const metrics = await server.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toContain('process_cpu_user_seconds_total');
      expect(metrics.body).toContain('nodejs_eventloop_lag_seconds');
    } finally {
      await server.close();
    }
  });

  describe('readiness against a PostgreSQL that goes away', () => {
    let pg: Awaited<ReturnType<typeof startPostgres>>;
    afterAll(async () => pg?.stop());

    it('is 503 with the error while the database is gone and 200 when it is back', async () => {
      pg = await startPostgres();
      const server = await startTestCiServer({ CI_DATABASE_URL: pg.url });
      try {
        expect((await server.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
        await pg.pause();
        const down = await server.app.inject({ method: 'GET', url: '/readyz' });
        expect(down.statusCode).toBe(503);
        expect(down.headers['content-type']).toMatch(/^text\/plain/);
        expect(down.body).toMatch(/database unreachable: .+/);
        expect((await server.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
        await pg.resume();
        const up = await server.app.inject({ method: 'GET', url: '/readyz' });
        expect(up.statusCode).toBe(200);
      } finally {
        await server.close();
      }
    });

    it('is 503 when the server starts before its database and 200 once it is migrated', async () => {
      const later = await startPostgres();
      await later.pause();
      const server = await startTestCiServer({ CI_DATABASE_URL: later.url });
      try {
        expect((await server.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
        await later.resume();
        const up = await server.app.inject({ method: 'GET', url: '/readyz' });
        expect(up.statusCode).toBe(200);
      } finally {
        await server.close();
        await later.stop();
      }
    });
  });
});
