// Sign-in, sign-out, sessions, password change, preferences and personal API tokens, on SQLite and
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import {
  ADMIN_PASSWORD,
  asSession,
  asToken,
  createToken,
  createUser,
  login,
  ORIGIN,
  PUBLIC_URL,
  sessionCookie,
  startAuthServer,
} from './helpers.js';
import { STORES } from './stores.js';

describe.each(STORES)('account flows on %s', (_name, storeEnv) => {
  let server: CiServer;
  let admin: Record<string, string>;

  beforeAll(async () => {
    server = await startAuthServer(await storeEnv());
    admin = asSession(await login(server, 'admin', ADMIN_PASSWORD));
  });
  afterAll(() => server?.close());

  const call = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
    server.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  it('signs in with a session cookie and answers /api/v1/me', async () => {
    const res = await call('POST', '/auth/login/local', {}, { username: 'admin', password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: 'admin', role: 'admin', email: null });
    const raw = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('svc_session='))!;
    expect(raw).toMatch(/; Path=\//);
    expect(raw).toMatch(/; HttpOnly/);
    expect(raw).toMatch(/; SameSite=Lax/);
    expect(raw).toMatch(/; Max-Age=\d+/);
    expect(raw).not.toMatch(/Secure/);
    const me = await call('GET', '/api/v1/me', { cookie: sessionCookie(raw)! });
    expect(me.statusCode).toBe(200);
    expect(Object.keys(me.json()).sort()).toEqual(['created_at', 'email', 'id', 'role', 'username']);
  });

  it('refuses a wrong password, an unknown user and a malformed body', async () => {
    const wrong = await call(
      'POST',
      '/auth/login/local',
      {},
      { username: 'admin', password: 'nope-nope-nope' },
    );
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: expect.any(String) });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const unknown = await call(
      'POST',
      '/auth/login/local',
      {},
      { username: 'ghost', password: 'whatever-123' },
    );
    expect(unknown.statusCode).toBe(401);
    expect((await call('POST', '/auth/login/local', {}, { username: 'admin' })).statusCode).toBe(400);
    expect((await call('GET', '/api/v1/me')).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/me', { cookie: 'svc_session=forged' })).statusCode).toBe(401);
  });

  it('logs out: 204, cookie dropped, session gone on the server', async () => {
    const cookie = await login(server, 'admin', ADMIN_PASSWORD);
    const out = await call('POST', '/auth/logout', asSession(cookie));
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/svc_session=; .*Max-Age=0/);
    expect((await call('GET', '/api/v1/me', { cookie })).statusCode).toBe(401);
    expect((await call('POST', '/auth/logout')).statusCode).toBe(204);
  });

  it('changes a password: current required, at least 12 characters, other sessions ended', async () => {
    const user = await createUser(server, admin, 'pat', 'viewer', 'first-password-1');
    const here = asSession(await login(server, 'pat', user.password));
    const elsewhere = asSession(await login(server, 'pat', user.password));
    const change = (body: unknown) => call('POST', '/api/v1/me/password', here, body);
    expect(
      (await change({ current_password: 'wrong-password-1', new_password: 'second-password-2' })).statusCode,
    ).toBe(401);
    expect((await change({ current_password: user.password, new_password: 'too-short' })).statusCode).toBe(
      400,
    );
    expect((await change({ new_password: 'second-password-2' })).statusCode).toBe(400);
    expect(
      (await call('POST', '/api/v1/me/password', {}, { current_password: 'a', new_password: 'b' }))
        .statusCode,
    ).toBe(401);
    expect(
      (await change({ current_password: user.password, new_password: 'second-password-2' })).statusCode,
    ).toBe(204);
    expect((await call('GET', '/api/v1/me', here)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/me', elsewhere)).statusCode).toBe(401);
    const old = await call('POST', '/auth/login/local', {}, { username: 'pat', password: user.password });
    expect(old.statusCode).toBe(401);
    await login(server, 'pat', 'second-password-2');
  });

  it('keeps preferences per user', async () => {
    const empty = await call('GET', '/api/v1/account/preferences', admin);
    expect(empty.json()).toEqual({ preferences: {}, updated_at: null });
    const put = await call('PUT', '/api/v1/account/preferences', admin, {
      preferences: { theme: 'dark', n: 3 },
    });
    expect(put.statusCode).toBe(204);
    const got = (await call('GET', '/api/v1/account/preferences', admin)).json();
    expect(got.preferences).toEqual({ theme: 'dark', n: 3 });
    expect(new Date(got.updated_at).toISOString()).toBe(got.updated_at);
    expect((await call('PUT', '/api/v1/account/preferences', admin, { preferences: 'x' })).statusCode).toBe(
      400,
    );
    expect((await call('PUT', '/api/v1/account/preferences', admin, {})).statusCode).toBe(400);
  });

  it('creates, lists, uses and revokes API tokens', async () => {
    const user = await createUser(server, admin, 'tia', 'maintainer');
    const session = asSession(await login(server, 'tia', user.password));
    const created = await call('POST', '/api/v1/account/api-tokens', session, { name: 'deploy script' });
    expect(created.statusCode).toBe(201);
    const token = created.json();
    expect(Object.keys(token).sort()).toEqual(
      ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'prefix', 'secret'].sort(),
    );
    expect(token.secret).toMatch(/^ci_[A-Za-z0-9_-]{43}$/);
    expect(token.secret.startsWith(token.prefix)).toBe(true);
    expect(token.prefix.length).toBeLessThan(16);
    expect(token).toMatchObject({ name: 'deploy script', expires_at: null, last_used_at: null });

    const me = await call('GET', '/api/v1/me', asToken(token.secret));
    expect(me.json()).toMatchObject({ username: 'tia', role: 'maintainer' });
    const listed = (await call('GET', '/api/v1/account/api-tokens', session)).json().tokens;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(listed[0].id).toBe(token.id);
    expect(new Date(listed[0].last_used_at).toISOString()).toBe(listed[0].last_used_at);

    // Tokens are not subject to the cookie's origin check.
    const viaToken = await call('PUT', '/api/v1/account/preferences', asToken(token.secret), {
      preferences: {},
    });
    expect(viaToken.statusCode).toBe(204);

    expect((await call('DELETE', `/api/v1/account/api-tokens/${token.id}`, admin)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/account/api-tokens/${token.id}`, session)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/account/api-tokens/${token.id}`, session)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/v1/account/api-tokens/not-a-uuid', session)).statusCode).toBe(400);
    const revoked = await call('GET', '/api/v1/me', asToken(token.secret));
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toMatch(/revoked/);
    expect((await call('GET', '/api/v1/account/api-tokens', session)).json().tokens).toEqual([]);
    expect((await call('GET', '/api/v1/me', asToken(`ci_${'A'.repeat(43)}`))).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/me', { authorization: 'Basic abc' })).statusCode).toBe(401);
  });

  it('validates and enforces token expiry', async () => {
    const soon = new Date(Date.now() + 3_600_000).toISOString().replace('Z', '+00:00');
    const token = await createToken(server, admin, 'short-lived', soon);
    expect(Date.parse(token.expires_at ?? '')).toBe(Date.parse(soon));
    expect((await call('GET', '/api/v1/me', asToken(token.secret))).statusCode).toBe(200);
    await server.database.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', token.id)
      .execute();
    const expired = await call('GET', '/api/v1/me', asToken(token.secret));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toMatch(/expired/);
    const bad = (expires_at: unknown) =>
      call('POST', '/api/v1/account/api-tokens', admin, { name: 'x', expires_at });
    expect((await bad('2020-01-01T00:00:00Z')).statusCode).toBe(400);
    expect((await bad('tomorrow')).statusCode).toBe(400);
    expect((await bad('2999-01-01T00:00:00')).statusCode).toBe(400);
    expect(
      (await call('POST', '/api/v1/account/api-tokens', admin, { name: 'n'.repeat(201) })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/api/v1/account/api-tokens', admin, { name: 'n'.repeat(200) })).statusCode,
    ).toBe(201);
  });

  it('gives a token its issuer’s current role', async () => {
    const boss = await createUser(server, admin, 'boss', 'admin');
    const token = await createToken(server, asSession(await login(server, 'boss', boss.password)), 'ops');
    expect((await call('GET', '/api/v1/admin/users', asToken(token.secret))).statusCode).toBe(200);
    const demote = await call('PUT', `/api/v1/admin/users/${boss.id}/role`, admin, { role: 'viewer' });
    expect(demote.statusCode).toBe(200);
    expect(demote.json()).toMatchObject({ id: boss.id, role: 'viewer' });
    expect((await call('GET', '/api/v1/admin/users', asToken(token.secret))).statusCode).toBe(403);
    expect((await call('GET', '/api/v1/me', asToken(token.secret))).json().role).toBe('viewer');
  });

  it('refuses cookie-authenticated writes from another origin', async () => {
    const cookie = admin.cookie;
    const put = (headers: Record<string, string>) =>
      call('PUT', '/api/v1/account/preferences', { cookie, ...headers }, { preferences: {} });
    expect((await put({})).statusCode).toBe(403);
    expect((await put({ origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await put({ origin: 'null' })).statusCode).toBe(403);
    expect((await put({ referer: `${PUBLIC_URL}/settings` })).statusCode).toBe(204);
    expect((await put(ORIGIN)).statusCode).toBe(204);
    // The host the request reached counts as this deployment too (e.g. reached by IP).
    expect((await put({ host: '10.0.0.5:8153', origin: 'http://10.0.0.5:8153' })).statusCode).toBe(204);
    // Reads are not checked.
    expect((await call('GET', '/api/v1/me', { cookie })).statusCode).toBe(200);
    // A foreign page cannot sign someone in either.
    const foreign = await call(
      'POST',
      '/auth/login/local',
      { origin: 'https://evil.example' },
      { username: 'admin', password: ADMIN_PASSWORD },
    );
    expect(foreign.statusCode).toBe(403);
  });
});
