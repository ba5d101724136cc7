// Administration on SQLite and PostgreSQL: users and roles, service accounts and their tokens, global
// secrets, auth providers and the audit query.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { ADMIN_PASSWORD, asSession, asToken, createUser, login, startAuthServer } from './helpers.js';
import { STORES } from './stores.js';

describe.each(STORES)('administration on %s', (_name, storeEnv) => {
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

  it('lists, creates and re-roles users', async () => {
    const created = await call('POST', '/api/v1/admin/users', admin, {
      username: 'una',
      password: 'una-password-123',
      role: 'viewer',
      email: 'una@example.com',
    });
    expect(created.statusCode).toBe(201);
    const una = created.json();
    expect(Object.keys(una).sort()).toEqual(['created_at', 'email', 'id', 'role', 'username']);
    expect(una).toMatchObject({ username: 'una', role: 'viewer', email: 'una@example.com' });
    const dup = await call('POST', '/api/v1/admin/users', admin, {
      username: 'UNA',
      password: 'una-password-123',
      role: 'viewer',
    });
    expect(dup.statusCode).toBe(409);
    const bad = (body: Record<string, unknown>) => call('POST', '/api/v1/admin/users', admin, body);
    expect((await bad({ username: 'x', password: 'short', role: 'viewer' })).statusCode).toBe(400);
    expect((await bad({ username: 'x', password: 'long-enough-pw', role: 'root' })).statusCode).toBe(400);
    expect(
      (await bad({ username: 'u'.repeat(201), password: 'long-enough-pw', role: 'viewer' })).statusCode,
    ).toBe(400);
    expect(
      (await bad({ username: 'u'.repeat(200), password: 'long-enough-pw', role: 'viewer' })).statusCode,
    ).toBe(201);

    const list = (await call('GET', '/api/v1/admin/users?limit=2', admin)).json();
    expect(list).toMatchObject({ limit: 2, offset: 0 });
    expect(list.users).toHaveLength(2);
    expect(list.total).toBeGreaterThanOrEqual(3);
    expect(list.users[0]).not.toHaveProperty('password_hash');
    expect((await call('GET', '/api/v1/admin/users?limit=201', admin)).statusCode).toBe(400);

    const promoted = await call('PUT', `/api/v1/admin/users/${una.id}/role`, admin, { role: 'maintainer' });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toEqual({ ...una, role: 'maintainer' });
    expect(
      (await call('PUT', `/api/v1/admin/users/${randomUUID()}/role`, admin, { role: 'viewer' })).statusCode,
    ).toBe(404);
    expect(
      (await call('PUT', `/api/v1/admin/users/${una.id}/role`, admin, { role: 'owner' })).statusCode,
    ).toBe(400);
  });

  it('keeps at least one administrator', async () => {
    const users = (await call('GET', '/api/v1/admin/users?limit=200', admin)).json().users;
    const admins = users.filter((u: { role: string }) => u.role === 'admin');
    // Demote every other administrator first, then the last one is refused.
    for (const u of admins.filter((a: { username: string }) => a.username !== 'admin'))
      await call('PUT', `/api/v1/admin/users/${u.id}/role`, admin, { role: 'viewer' });
    const me = (await call('GET', '/api/v1/me', admin)).json();
    const last = await call('PUT', `/api/v1/admin/users/${me.id}/role`, admin, { role: 'viewer' });
    expect(last.statusCode).toBe(409);
  });

  it('manages service accounts and their tokens', async () => {
    const created = await call('POST', '/api/v1/admin/service-accounts', admin, {
      name: 'deployer',
      role: 'viewer',
    });
    expect(created.statusCode).toBe(201);
    const sa = created.json();
    expect(Object.keys(sa).sort()).toEqual(['created_at', 'id', 'name', 'role']);
    expect(
      (await call('POST', '/api/v1/admin/service-accounts', admin, { name: 'Deployer', role: 'admin' }))
        .statusCode,
    ).toBe(409);
    expect(
      (await call('POST', '/api/v1/admin/service-accounts', admin, { name: 'n'.repeat(201), role: 'admin' }))
        .statusCode,
    ).toBe(400);
    const listed = (await call('GET', '/api/v1/admin/service-accounts', admin)).json();
    expect(listed.service_accounts.map((s: { name: string }) => s.name)).toContain('deployer');
    expect(listed).toMatchObject({ limit: 50, offset: 0 });

    const minted = await call('POST', `/api/v1/admin/service-accounts/${sa.id}/tokens`, admin, {
      name: 'ci',
    });
    expect(minted.statusCode).toBe(201);
    const token = minted.json();
    expect(token.secret).toMatch(/^cisa_[A-Za-z0-9_-]{43}$/);
    expect(token.secret.startsWith(token.prefix)).toBe(true);
    const me = await call('GET', '/api/v1/me', asToken(token.secret));
    expect(me.json()).toMatchObject({ id: sa.id, username: 'deployer', role: 'viewer' });
    expect((await call('GET', '/api/v1/admin/users', asToken(token.secret))).statusCode).toBe(403);
    // A service account cannot mint its own tokens.
    expect(
      (await call('POST', '/api/v1/account/api-tokens', asToken(token.secret), { name: 'x' })).statusCode,
    ).toBe(400);

    const tokens = (await call('GET', `/api/v1/admin/service-accounts/${sa.id}/tokens`, admin)).json().tokens;
    expect(tokens).toHaveLength(1);
    expect(tokens[0]).not.toHaveProperty('secret');
    expect(tokens[0].last_used_at).not.toBeNull();
    expect(
      (await call('POST', `/api/v1/admin/service-accounts/${randomUUID()}/tokens`, admin, { name: 'x' }))
        .statusCode,
    ).toBe(404);
    const revoke = await call('DELETE', `/api/v1/admin/service-accounts/${sa.id}/tokens/${token.id}`, admin);
    expect(revoke.statusCode).toBe(204);
    expect((await call('GET', '/api/v1/me', asToken(token.secret))).statusCode).toBe(401);
    expect(
      (await call('DELETE', `/api/v1/admin/service-accounts/${sa.id}/tokens/${token.id}`, admin)).statusCode,
    ).toBe(404);
  });

  it('seals global secrets and never returns their values', async () => {
    const first = await call('POST', '/api/v1/admin/secrets', admin, {
      name: 'REGISTRY_PASSWORD',
      value: 's3cr3t-value',
    });
    expect(first.statusCode).toBe(201);
    expect(Object.keys(first.json()).sort()).toEqual(['created_at', 'name', 'updated_at']);
    const again = await call('POST', '/api/v1/admin/secrets', admin, {
      name: 'REGISTRY_PASSWORD',
      value: 'other',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().created_at).toBe(first.json().created_at);
    const list = await call('GET', '/api/v1/admin/secrets', admin);
    expect(list.json()).toEqual({ secrets: [again.json()] });
    expect(list.body).not.toContain('other');
    expect(
      (await call('POST', '/api/v1/admin/secrets', admin, { name: '1BAD', value: 'x' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/api/v1/admin/secrets', admin, { name: 'N'.repeat(201), value: 'x' })).statusCode,
    ).toBe(400);
    expect((await call('DELETE', '/api/v1/admin/secrets/REGISTRY_PASSWORD', admin)).statusCode).toBe(204);
    expect((await call('DELETE', '/api/v1/admin/secrets/REGISTRY_PASSWORD', admin)).statusCode).toBe(404);
  });

  it('adds, lists, reloads and deletes auth providers without returning the client secret', async () => {
    const body = {
      name: 'corp',
      display: 'Corporate SSO',
      issuer: 'https://sso.example.com/realms/ci',
      client_id: 'ci',
      client_secret: 'provider-client-secret',
      role_claim: 'groups',
      role_map: { admin: ['ci-admins'], maintainer: ['ci-devs'] },
    };
    const created = await call('POST', '/api/v1/admin/auth/providers', admin, body);
    expect(created.statusCode).toBe(201);
    const p = created.json();
    expect(p).toMatchObject({
      name: 'corp',
      has_client_secret: true,
      source: 'database',
      default_role: 'viewer',
    });
    expect(p.scopes).toContain('openid');
    expect(created.body).not.toContain('provider-client-secret');
    expect((await call('POST', '/api/v1/admin/auth/providers', admin, body)).statusCode).toBe(409);
    expect(
      (
        await call('POST', '/api/v1/admin/auth/providers', admin, {
          ...body,
          name: 'x',
          issuer: 'http://sso.example.com',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', '/api/v1/admin/auth/providers', admin, { ...body, name: 'local' })).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/v1/admin/auth/providers', admin, {
          ...body,
          name: 'y',
          role_map: { root: ['x'] },
        })
      ).statusCode,
    ).toBe(400);

    const listed = await call('GET', '/api/v1/admin/auth/providers', admin);
    expect(listed.json().providers.map((x: { name: string }) => x.name)).toEqual(['corp']);
    expect(listed.body).not.toContain('provider-client-secret');
    const pub = (await call('GET', '/auth/providers')).json();
    expect(pub).toEqual({
      providers: [
        { name: 'local', display: 'Username and password' },
        { name: 'corp', display: 'Corporate SSO' },
      ],
    });
    const reloaded = await call('POST', '/api/v1/admin/auth/providers/reload', admin);
    expect(reloaded.statusCode).toBe(200);
    expect(reloaded.json().providers).toHaveLength(1);
    expect((await call('DELETE', `/api/v1/admin/auth/providers/${p.id}`, admin)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/v1/admin/auth/providers/${p.id}`, admin)).statusCode).toBe(404);
    expect((await call('GET', '/auth/providers')).json().providers).toHaveLength(1);
  });

  it('records every state-changing request and answers the audit query', async () => {
    // A server of its own, so the log holds exactly what this test did.
    const own = await startAuthServer(await storeEnv());
    try {
      const send = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
        own.app.inject({
          method: method as 'GET',
          url,
          headers,
          ...(payload !== undefined ? { payload: payload as object } : {}),
        });
      const root = asSession(await login(own, 'admin', ADMIN_PASSWORD));
      const user = await createUser(own, root, 'audra', 'maintainer');
      const audra = asSession(await login(own, 'audra', user.password));
      await send('PUT', '/api/v1/account/preferences', audra, { preferences: { a: 1 } });
      await send('POST', '/api/v1/admin/secrets', audra, { name: 'NOPE', value: 'audra-secret-value' });
      await send('POST', '/auth/login/local', {}, { username: 'audra', password: 'wrong-password-x' });
      await send('GET', '/api/v1/me', audra);

      const q = (query: string) => send('GET', `/api/v1/admin/audit?${query}`, root);
      const all = await q('');
      expect(all.statusCode).toBe(200);
      const body = all.json();
      expect(Object.keys(body).sort()).toEqual(['entries', 'limit', 'offset', 'total']);
      const actions = body.entries.map((e: { action: string; actor: string }) => `${e.actor} ${e.action}`);
      expect(actions).toEqual([
        'anonymous auth.login',
        'audra POST /api/v1/admin/secrets',
        'audra PUT /api/v1/account/preferences',
        'audra auth.login',
        'admin POST /api/v1/admin/users',
        'admin auth.login',
      ]);
      expect(body).toMatchObject({ total: 6, limit: 50, offset: 0 });
      const [failedLogin, forbidden, prefs, , createdUser] = body.entries;
      expect(Object.keys(prefs).sort()).toEqual(['action', 'actor', 'at', 'details', 'id', 'target']);
      expect(failedLogin.details).toMatchObject({ status: 401, outcome: 'failure' });
      expect(failedLogin.target).toBe('user:audra');
      expect(forbidden.details).toMatchObject({ status: 403, outcome: 'failure', via: 'session' });
      expect(createdUser.target).toBe(`user:${user.id}`);
      expect(createdUser.details).toMatchObject({
        status: 201,
        fields: { username: 'audra', role: 'maintainer' },
      });
      expect(all.body).not.toContain('audra-secret-value');
      expect(all.body).not.toContain(user.password);
      expect(all.body).not.toContain('wrong-password-x');
      const ats = body.entries.map((e: { at: string }) => Date.parse(e.at));
      expect([...ats].sort((a, b) => b - a)).toEqual(ats);

      const byActor = (await q('actor=audra')).json();
      expect(byActor.entries).toHaveLength(3);
      expect(byActor.total).toBe(3);
      const byAction = (await q(`action=${encodeURIComponent('PUT /api/v1/account/preferences')}`)).json();
      expect(byAction.entries.map((e: { actor: string }) => e.actor)).toEqual(['audra']);
      const paged = (await q('limit=2&offset=1')).json();
      expect(paged).toMatchObject({ total: 6, limit: 2, offset: 1 });
      expect(paged.entries.map((e: { id: string }) => e.id)).toEqual([
        body.entries[1].id,
        body.entries[2].id,
      ]);
      // `since` keeps entries at or after the instant, whatever the timezone it is written in.
      const pivot = body.entries[2].at as string;
      const shifted = new Date(Date.parse(pivot) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
      const sinceRes = (await q(`since=${encodeURIComponent(shifted)}`)).json();
      const expected = body.entries
        .filter((e: { at: string }) => e.at >= pivot)
        .map((e: { id: string }) => e.id);
      expect(sinceRes.entries.map((e: { id: string }) => e.id)).toEqual(expected);
      expect(sinceRes.total).toBe(expected.length);
      const future = (await q(`since=${encodeURIComponent('2999-01-01T00:00:00+02:00')}`)).json();
      expect(future).toMatchObject({ entries: [], total: 0 });

      expect((await q('since=yesterday')).statusCode).toBe(400);
      expect((await q('since=2024-01-01')).statusCode).toBe(400);
      expect((await q('limit=0')).statusCode).toBe(400);
      expect((await q('limit=201')).statusCode).toBe(400);
      expect((await q('offset=-1')).statusCode).toBe(400);
    } finally {
      await own.close();
    }
  });
});
