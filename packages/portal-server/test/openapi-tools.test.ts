// The portal's OpenAPI description as outside tools see it: @apidevtools/swagger-parser validates it,
// Redocly's recommended rules report no error, every protected operation documents 401 and 403 with the
// error body, and real answers of every status this test provokes match the described schemas (ajv), health and monitoring
// readings and a script's statements among them.
import { lintOpenApi, protectedWithoutAuthErrors, ResponseRecorder } from '@app/kit/testing/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor, USER } from './auth/helpers.js';

describe('the portal OpenAPI description with outside tools', () => {
  let server: PortalServer;
  let doc: Record<string, any>;
  beforeAll(async () => {
    server = await portal({
      USER_EMAIL: USER.email,
      USER_PASSWORD: USER.password,
      STORAGE_PROVIDER: 'sqlite',
    });
    doc = (await server.app.inject({ url: '/api/openapi.json' })).json();
  });
  afterAll(async () => server?.close());

  it('passes swagger-parser and Redocly recommended without errors', async () => {
    const report = await lintOpenApi(doc);
    expect(report.swaggerParser).toBeUndefined();
    expect(report.redoclyErrors).toEqual([]);
  });

  it('documents 401 and 403 with the error body on every protected operation', () => {
    expect(protectedWithoutAuthErrors(doc)).toEqual([]);
    expect(doc.paths['/api/db/health'].get.security).toEqual([]);
    expect(doc.paths['/api/db/query'].post.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/v1/executions'].post.security).toEqual([{ serviceToken: [] }]);
  });

  it('real answers of every status match the described schemas', async () => {
    const recorder = new ResponseRecorder(server.app, doc);
    const call = recorder.call.bind(recorder);
    const user = { cookie: `auth-token=${await sessionFor(server, USER)}`, origin: ORIGIN };
    const admin = { cookie: `auth-token=${await sessionFor(server, ADMIN)}`, origin: ORIGIN };

    await call('GET', '/api/db/health');
    await call('GET', '/api/auth/me', user);
    await call('GET', '/api/storage/queries'); // 401
    await call('GET', '/api/admin/audit', user); // 403
    await call('GET', '/api/admin/audit', admin);
    await call('POST', '/api/db/query', user, { sql: 1 }); // 400
    await call('GET', '/api/approvals/00000000-0000-4000-8000-000000000000', user); // 404
    const saved = await call('POST', '/api/storage/queries', user, { name: 'q', sql: 'select 1' });
    await call('GET', '/api/storage/queries', user);
    await call('DELETE', `/api/storage/queries/${saved.json().query.id}`, user);
    await call('POST', '/api/v1/executions', {}, { sql: 'select 1' }); // 401
    // Readings and a script on a connection of the user's own: their described fields are what they answer.
    const lite = { connection: { id: 'duck', name: 'duck', type: 'duckdb', database: ':memory:' } };
    const health = await call('POST', '/api/db/health', user, lite);
    expect(health.json()).toMatchObject({ cacheHitRatio: 'n/a', slowQueries: [], activeSessions: [] });
    expect((await call('POST', '/api/db/monitoring', admin, lite)).statusCode).toBe(200);
    expect((await call('POST', '/api/db/profile', user, lite)).json()).toMatchObject({ engine: 'duckdb' });
    const script = await call('POST', '/api/db/multi-query', user, {
      ...lite,
      sql: 'select 1 as a; select b from nowhere',
    });
    expect(script.json().statements.map((s: { status: string }) => s.status)).toEqual(['done', 'failed']);

    expect(recorder.problems).toEqual([]);
    expect(recorder.sortedStatuses()).toEqual([200, 201, 400, 401, 403, 404]);
  });
});
