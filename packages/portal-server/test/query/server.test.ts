// The database routes inside the real portal: signed-in sessions, managed datasources from PORTAL_DATASOURCES
// (server definition and policy win over the client's descriptor), the audit log, and the unavailable case.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor } from '../auth/helpers.js';

let server: PortalServer;
let cookie: string;

beforeAll(async () => {
  const dir = tempDir('portal-managed-');
  const file = join(dir, 'datasources.yaml');
  writeFileSync(
    file,
    [
      'datasources:',
      '  - id: warehouse',
      '    name: Warehouse',
      '    type: duckdb',
      `    database: ${join(dir, 'warehouse.duckdb')}`,
      '    roles: [admin, user]',
      '    policy:',
      '      maxRows: 3',
      '  - id: secret-db',
      '    name: Secret',
      '    type: postgres',
      '    host: 127.0.0.1',
      `    password: ${'$'}{MISSING_PORTAL_TEST_PASSWORD}`,
      '    roles: [admin]',
      '',
    ].join('\n'),
  );
  server = await portal({ PORTAL_DATASOURCES: file });
  cookie = `auth-token=${await sessionFor(server, ADMIN)}`;
});
afterAll(() => server?.close());

const post = (url: string, payload: unknown, withCookie = true) =>
  server.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { origin: ORIGIN, ...(withCookie ? { cookie } : {}) },
  });

describe('database routes in the portal', () => {
  it('runs on a managed datasource with the server definition and its maxRows', async () => {
    const create = await post('/api/db/query', {
      connectionId: 'warehouse',
      sql: 'CREATE TABLE t AS SELECT range AS n FROM range(10)',
    });
    expect(create.statusCode, create.body).toBe(200);
    // The client's descriptor fields are ignored for a managed id.
    const r = await post('/api/db/query', {
      connection: { id: 'warehouse', type: 'sqlite', database: '/etc/passwd' },
      sql: 'SELECT n FROM t ORDER BY n',
      options: { limit: 100 },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
    expect(r.json().pagination).toMatchObject({ limit: 3, hasMore: true });
    const page = await server.audit.query({ type: 'query_execution', limit: 10, offset: 0 });
    expect(page.events[0]).toMatchObject({
      type: 'query_execution',
      actor: expect.any(String),
      connection: 'warehouse',
      result: 'success',
    });
  });

  it('answers 503 for a managed datasource that is unavailable, never the client descriptor', async () => {
    const r = await post('/api/db/query', {
      connection: { id: 'secret-db', type: 'duckdb', database: ':memory:' },
      sql: 'SELECT 1',
    });
    expect(r.statusCode).toBe(503);
    expect(r.json().code).toBe('DATASOURCE_UNAVAILABLE');
  });

  it('needs a session on every database route; the health reading answers 401 JSON', async () => {
    for (const url of [
      '/api/db/query',
      '/api/db/health',
      '/api/db/export',
      '/api/db/objects/list',
      '/api/db/multi-query',
    ]) {
      const r = await post(url, { connectionId: 'warehouse', sql: 'SELECT 1', format: 'csv' }, false);
      expect(r.statusCode, url).toBe(401);
      expect(r.json().error).toBeTypeOf('string');
    }
  });

  it('answers the health reading of an embedded datasource', async () => {
    const r = await post('/api/db/health', { connectionId: 'warehouse' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ cacheHitRatio: 'n/a', slowQueries: [], activeSessions: [] });
  });
});
