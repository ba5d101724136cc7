import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/audit/audit-log.js';
import { registerAuditRoutes } from '../../src/http/audit.js';
import type { PortalStore } from '../../src/storage/store.js';
import { openStore } from '../storage/helpers.js';
import { as, fakeSessions, testApp } from './fake-session.js';

const FORBIDDEN = { error: 'Unauthorized. Admin access required.' };
const stores: PortalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

async function setup(kind: 'buffer' | 'sqlite' | 'postgres' = 'buffer') {
  let store: PortalStore | undefined;
  if (kind !== 'buffer') {
    store = (await openStore(kind)).store;
    stores.push(store);
  }
  const audit = new AuditLog({ store: store?.audit, write: () => {} });
  const app = testApp();
  registerAuditRoutes(app, { sessions: fakeSessions, audit });
  return { app, audit };
}

async function seed(audit: AuditLog) {
  const rows = [
    {
      type: 'query_execution',
      actor: 'alice',
      connection: 'prod',
      result: 'success',
      at: '2030-01-01T00:00:01.000Z',
      ticket: 'OPS-1',
    },
    {
      type: 'query_execution',
      actor: 'bob',
      connection: 'prod',
      result: 'failure',
      at: '2030-01-01T00:00:02.000Z',
    },
    {
      type: 'data_export',
      actor: 'alice',
      connection: 'reports',
      result: 'success',
      at: '2030-01-01T00:00:03.000Z',
    },
    {
      type: 'permission_denied',
      actor: 'bob',
      connection: 'prod',
      result: 'failure',
      at: '2030-01-01T00:00:04.000Z',
    },
    {
      type: 'service_token',
      actor: 'root',
      connection: null,
      result: 'success',
      at: '2030-01-01T00:00:05.000Z',
    },
  ] as const;
  for (const r of rows) await audit.record({ ...r });
}

describe('admin audit routes: access', () => {
  it.each([
    ['GET', undefined],
    ['GET', as('user:bob')],
    ['POST', undefined],
    ['POST', as('user:bob')],
  ])('%s answers exactly 403 {error} to %j', async (method, headers) => {
    const { app } = await setup();
    const res = await app.inject({
      method: method as 'GET',
      url: '/api/admin/audit',
      headers,
      ...(method === 'POST' ? { payload: { type: 'x' } } : {}),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });

  it('answers the 403 before reading a body that is not JSON', async () => {
    const { app } = await setup();
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/audit',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(FORBIDDEN);
  });
});

describe.each(['buffer', 'sqlite', 'postgres'] as const)('GET /api/admin/audit (%s)', (kind) => {
  const source = kind === 'buffer' ? 'buffer' : 'store';
  const get = async (app: Awaited<ReturnType<typeof setup>>['app'], query: string) =>
    app.inject({ method: 'GET', url: `/api/admin/audit${query}`, headers: as('admin:root') });

  it('filters, pages newest first and names its source', async () => {
    const { app, audit } = await setup(kind);
    await seed(audit);
    const all = (await get(app, '')).json();
    expect(all).toMatchObject({ total: 5, limit: 100, offset: 0, source });
    expect(all.events.map((e: { type: string }) => e.type)).toEqual([
      'service_token',
      'permission_denied',
      'data_export',
      'query_execution',
      'query_execution',
    ]);
    const page = (await get(app, '?limit=2&offset=1')).json();
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 1, source });
    expect(page.events.map((e: { at: string }) => e.at)).toEqual([
      '2030-01-01T00:00:04.000Z',
      '2030-01-01T00:00:03.000Z',
    ]);

    const ats = async (query: string) =>
      (await get(app, query)).json().events.map((e: { at: string }) => e.at.slice(17, 19));
    expect(await ats('?type=query_execution')).toEqual(['02', '01']);
    expect(await ats('?actor=bob')).toEqual(['04', '02']);
    expect(await ats('?connection=prod&result=failure')).toEqual(['04', '02']);
    expect(await ats('?result=success')).toEqual(['05', '03', '01']);
    // from and to are inclusive.
    expect(await ats('?from=2030-01-01T00:00:02Z&to=2030-01-01T00:00:04.000Z')).toEqual(['04', '03', '02']);
    expect(await ats('?from=2030-01-01T01:00:03%2B01:00')).toEqual(['05', '04', '03']);
    const filtered = (await get(app, '?actor=alice&limit=1')).json();
    expect(filtered).toMatchObject({ total: 2, limit: 1 });
    expect(filtered.events[0]).toMatchObject({ type: 'data_export', connection: 'reports' });
    expect((await get(app, '?limit=500')).json().limit).toBe(500);
  });

  it.each([
    ['?limit=abc', 'limit must be an integer from 1 to 500'],
    ['?limit=501', 'limit must be an integer from 1 to 500'],
    ['?limit=0', 'limit must be an integer from 1 to 500'],
    ['?limit=1e999', 'limit must be an integer from 1 to 500'],
    ['?limit=1.5', 'limit must be an integer from 1 to 500'],
    ['?limit=0x10', 'limit must be an integer from 1 to 500'],
    ['?limit=-0', 'limit must be an integer from 1 to 500'],
    ['?limit=Infinity', 'limit must be an integer from 1 to 500'],
    ['?offset=NaN', 'offset must be a non-negative integer'],
    ['?offset=1e999', 'offset must be a non-negative integer'],
    ['?offset=12345678901234567890', 'offset must be a non-negative integer'],
    ['?offset=-1', 'offset must be a non-negative integer'],
    ['?result=maybe', 'result must be success or failure'],
    ['?from=last-week', 'from must be an ISO-8601 instant such as 2030-01-31T18:00:00Z'],
    ['?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z', 'from must not be after to'],
    ['?type=a&type=b', 'type may be given once'],
  ])('answers 400 to %s', async (query, error) => {
    const { app } = await setup(kind);
    const res = await get(app, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error, code: 'BAD_REQUEST', statusCode: 400 });
  });
});

describe('POST /api/admin/audit', () => {
  it('appends to the buffer with the actor taken from the session', async () => {
    const { app } = await setup();
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/audit',
      headers: as('admin:root'),
      payload: {
        type: 'data_export',
        actor: 'somebody-else',
        connection: 'prod',
        rows: 12,
        token: 'secret-value',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      event: {
        type: 'data_export',
        actor: 'root',
        user: { username: 'root', role: 'admin' },
        origin: 'client',
        token: '[redacted]',
      },
    });
    const list = (
      await app.inject({ method: 'GET', url: '/api/admin/audit', headers: as('admin:root') })
    ).json();
    expect(list).toMatchObject({
      total: 1,
      source: 'buffer',
      events: [{ type: 'data_export', actor: 'root', rows: 12 }],
    });
    expect(JSON.stringify(list)).not.toContain('secret-value');
  });

  it('goes to the buffer even with server storage (readable with source=buffer)', async () => {
    const { app } = await setup('sqlite');
    await app.inject({
      method: 'POST',
      url: '/api/admin/audit',
      headers: as('admin:root'),
      payload: { type: 'ui_event' },
    });
    const store = (
      await app.inject({ method: 'GET', url: '/api/admin/audit', headers: as('admin:root') })
    ).json();
    expect(store).toMatchObject({ total: 0, source: 'store' });
    const buffer = (
      await app.inject({ method: 'GET', url: '/api/admin/audit?source=buffer', headers: as('admin:root') })
    ).json();
    expect(buffer).toMatchObject({
      total: 1,
      source: 'buffer',
      events: [{ type: 'ui_event', actor: 'root' }],
    });
  });

  it.each([
    [[1, 2], 'The body must be a JSON object describing the event'],
    [{}, 'type is required: 1 to 100 letters, digits, _ . : or -'],
    [{ type: 'has space' }, 'type is required: 1 to 100 letters, digits, _ . : or -'],
    [{ type: 'x', result: 'meh' }, 'result must be success or failure'],
    [{ type: 'x', connection: 5 }, 'connection must be a string'],
  ])('answers 400 to %j', async (payload, error) => {
    const { app } = await setup();
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/audit',
      headers: as('admin:root'),
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error, code: 'BAD_REQUEST', statusCode: 400 });
  });
});
