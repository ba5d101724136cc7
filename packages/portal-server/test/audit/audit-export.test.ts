// POST /api/audit/export: a browser-built export recorded as a `data_export` audit event with the session's
// user as actor; 400 for a bad body, 401 without a session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';

let server: PortalServer;
let cookie: string;

beforeAll(async () => {
  server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
  cookie = `auth-token=${await sessionFor(server, USER)}`;
});
afterAll(() => server?.close());

const post = (payload: unknown, withCookie = true) =>
  server.app.inject({
    method: 'POST',
    url: '/api/audit/export',
    payload: payload as object,
    headers: { origin: ORIGIN, ...(withCookie ? { cookie } : {}) },
  });

describe('browser export audit', () => {
  it('records a data_export event and answers {success: true}', async () => {
    const r = await post({ connectionId: 'warehouse', format: 'csv', rows: 42, actor: 'someone-else' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ success: true });
    const page = await server.audit.query({ type: 'data_export', limit: 10, offset: 0 });
    expect(page.events[0]).toMatchObject({
      type: 'data_export',
      actor: USER.email,
      connection: 'warehouse',
      result: 'success',
      format: 'csv',
      rows: 42,
      source: 'browser',
    });
    expect((await post({ connectionId: 'w', format: 'sql-ddl', rows: 0 })).statusCode).toBe(200);
  });

  it('answers 400 for a bad body and records nothing', async () => {
    const before = (await server.audit.query({ type: 'data_export', limit: 1, offset: 0 })).total;
    const bad = [
      {},
      { connectionId: 'w', format: 'xlsx', rows: 1 },
      { connectionId: 'w', format: 'csv', rows: -1 },
      { connectionId: 'w', format: 'csv', rows: 1.5 },
      { connectionId: 'w', format: 'csv', rows: '3' },
      { connectionId: '', format: 'json', rows: 1 },
      { format: 'json', rows: 1 },
      [1, 2],
    ];
    for (const body of bad) {
      const r = await post(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
    }
    expect((await server.audit.query({ type: 'data_export', limit: 1, offset: 0 })).total).toBe(before);
  });

  it('answers 401 without a session', async () => {
    const r = await post({ connectionId: 'w', format: 'csv', rows: 1 }, false);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ code: 'UNAUTHORIZED', statusCode: 401 });
  });
});
