// A connection saved on the server runs with its stored (sealed) password: the browser never holds it, and
// only its owner can use it.
import { createMariadbDatabase } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';

describe('queries on a saved server-side connection', () => {
  let server: PortalServer;
  let target: URL;
  beforeAll(async () => {
    target = new URL(await createMariadbDatabase(inject('services').mariadbUrl));
    server = await portal({
      STORAGE_PROVIDER: 'sqlite',
      USER_EMAIL: USER.email,
      USER_PASSWORD: USER.password,
    });
  });
  afterAll(() => server?.close());

  it('uses the stored password for its owner only', async () => {
    const user = await sessionFor(server, USER);
    const admin = await sessionFor(server, ADMIN);
    const descriptor = {
      id: 'my-maria',
      name: 'mine',
      type: 'mysql',
      host: target.hostname,
      port: Number(target.port),
      user: decodeURIComponent(target.username),
      database: target.pathname.slice(1),
    };
    const saved = await server.app.inject({
      method: 'PUT',
      url: '/api/storage/connections/my-maria',
      headers: { origin: ORIGIN },
      cookies: { 'auth-token': user },
      payload: { ...descriptor, password: decodeURIComponent(target.password) },
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.body).not.toContain(decodeURIComponent(target.password));

    const query = (token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/db/query',
        headers: { origin: ORIGIN },
        cookies: { 'auth-token': token },
        payload: { connection: descriptor, sql: 'SELECT 41 + 1 AS answer' },
      });
    const mine = await query(user);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().rows).toEqual([{ answer: 42 }]);
    // Another person sending the same id gets no stored password: the engine refuses the login.
    const other = await query(admin);
    expect(other.statusCode).not.toBe(200);
  });
});
