import { afterEach, describe, expect, it } from 'vitest';
import { registerStorageRoutes } from '../../src/http/storage-routes.js';
import type { PortalStore } from '../../src/storage/store.js';
import { as, fakeSessions, testApp } from '../audit/fake-session.js';
import { openStore } from './helpers.js';

const stores: PortalStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

async function app(withStore = true) {
  let store: PortalStore | undefined;
  if (withStore) {
    store = (await openStore('sqlite')).store;
    stores.push(store);
  }
  const a = testApp();
  registerStorageRoutes(a, { sessions: fakeSessions, store, isManaged: (id) => id === 'prod' });
  return { a, store };
}

describe('storage routes', () => {
  it('need a session, then server storage (503 STORAGE_UNAVAILABLE when local)', async () => {
    const { a } = await app(false);
    const anon = await a.inject({ method: 'GET', url: '/api/storage/connections' });
    expect(anon.statusCode).toBe(401);
    for (const url of ['/api/storage/connections', '/api/storage/queries', '/api/storage/history']) {
      const res = await a.inject({ method: 'GET', url, headers: as('user:bob') });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'STORAGE_UNAVAILABLE',
        statusCode: 503,
        error: expect.stringContaining('STORAGE_PROVIDER'),
      });
    }
  });

  it('saves connections per user and never sends credentials back', async () => {
    const { a, store } = await app();
    const put = (id: string, payload: object, who = 'user:bob') =>
      a.inject({ method: 'PUT', url: `/api/storage/connections/${id}`, headers: as(who), payload });
    const created = await put('c1', { name: 'Orders', type: 'postgres', host: 'h', password: 'pw-secret-9' });
    expect(created.statusCode).toBe(201);
    expect(created.json().connection).toMatchObject({
      id: 'c1',
      name: 'Orders',
      host: 'h',
      storedSecrets: ['password'],
    });
    expect(created.body).not.toContain('pw-secret-9');
    expect((await put('c1', { name: 'Orders 2', type: 'postgres', host: 'h' })).statusCode).toBe(200);
    expect(await store!.connections.getWithSecrets('bob', 'c1')).toMatchObject({
      name: 'Orders 2',
      password: 'pw-secret-9',
    });

    const list = await a.inject({ method: 'GET', url: '/api/storage/connections', headers: as('user:bob') });
    expect(list.json().connections.map((c: { id: string }) => c.id)).toEqual(['c1']);
    expect(list.body).not.toContain('pw-secret-9');
    expect(
      (await a.inject({ method: 'GET', url: '/api/storage/connections', headers: as('user:eve') })).json(),
    ).toEqual({ connections: [] });

    expect((await put('prod', { name: 'Mine', type: 'postgres' })).statusCode).toBe(409);
    expect((await put('c2', { name: 'X', type: 'nosuch' })).statusCode).toBe(400);
    expect((await put('c2', { id: 'c3', name: 'X', type: 'mysql' })).statusCode).toBe(400);

    const del = (who: string) =>
      a.inject({ method: 'DELETE', url: '/api/storage/connections/c1', headers: as(who) });
    expect((await del('user:eve')).statusCode).toBe(404);
    expect((await del('user:bob')).json()).toEqual({ success: true });
  });

  it('keeps saved queries and history', async () => {
    const { a } = await app();
    const created = await a.inject({
      method: 'POST',
      url: '/api/storage/queries',
      headers: as('user:bob'),
      payload: { name: 'Top', sql: 'select 1', tags: ['x'] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().query.id;
    const updated = await a.inject({
      method: 'PUT',
      url: `/api/storage/queries/${id}`,
      headers: as('user:bob'),
      payload: { name: 'Top 2', sql: 'select 2' },
    });
    expect(updated.json().query).toMatchObject({ id, name: 'Top 2', sql: 'select 2' });
    const other = await a.inject({
      method: 'PUT',
      url: `/api/storage/queries/${id}`,
      headers: as('user:eve'),
      payload: { name: 'a', sql: 'b' },
    });
    expect(other.statusCode).toBe(404);
    const page = await a.inject({
      method: 'GET',
      url: '/api/storage/queries?limit=5',
      headers: as('user:bob'),
    });
    expect(page.json()).toMatchObject({ total: 1, limit: 5, offset: 0, queries: [{ id }] });
    expect(
      (await a.inject({ method: 'GET', url: '/api/storage/queries?limit=0', headers: as('user:bob') }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await a.inject({
          method: 'POST',
          url: '/api/storage/queries',
          headers: as('user:bob'),
          payload: { sql: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await a.inject({ method: 'DELETE', url: `/api/storage/queries/${id}`, headers: as('user:bob') })
      ).json(),
    ).toEqual({ success: true });

    for (const status of ['success', 'failure']) {
      const res = await a.inject({
        method: 'POST',
        url: '/api/storage/history',
        headers: as('user:bob'),
        payload: { connectionId: 'c1', sql: `select '${status}'`, status, rowCount: 1, durationMs: 3 },
      });
      expect(res.statusCode).toBe(201);
    }
    const history = await a.inject({
      method: 'GET',
      url: '/api/storage/history?connectionId=c1',
      headers: as('user:bob'),
    });
    expect(history.json()).toMatchObject({
      total: 2,
      entries: [{ status: 'failure' }, { status: 'success' }],
    });
    expect(
      (await a.inject({ method: 'DELETE', url: '/api/storage/history', headers: as('user:bob') })).json(),
    ).toEqual({ deleted: 2 });
  });
});
