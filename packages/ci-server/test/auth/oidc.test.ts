// OIDC end to end against a real in-process OpenID provider: redirect with PKCE/state/nonce, callback,
// session cookie, first-login user creation, role mapping from a claim (also on later logins), providers
// from CI_CONFIG and from the admin API, and refusal of tampered state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { CiServer } from '../../src/index.js';
import { ADMIN_PASSWORD, asSession, login, PUBLIC_URL, sessionCookie, startAuthServer } from './helpers.js';
import { startIdp, type TestIdp } from './oidc-idp.js';

describe('OIDC sign-in', () => {
  let idp: TestIdp;
  let server: CiServer;

  beforeAll(async () => {
    idp = await startIdp([
      {
        client_id: 'ci',
        client_secret: 'ci-client-secret',
        redirect_uris: [`${PUBLIC_URL}/auth/callback/corp`],
      },
      {
        client_id: 'ci-db',
        client_secret: 'db-client-secret',
        redirect_uris: [`${PUBLIC_URL}/auth/callback/stored`],
      },
    ]);
    idp.accounts.set('alice', { username: 'alice', email: 'alice@corp.test', groups: ['staff', 'ci-devs'] });
    idp.accounts.set('bob', { username: 'bob', email: 'bob@corp.test', groups: ['ci-admins'] });
    idp.accounts.set('carol', { username: 'carol', email: 'carol@corp.test', groups: [] });
    const config = join(tempDir('ci-oidc-'), 'ci.yaml');
    writeFileSync(
      config,
      stringify({
        auth: {
          oidc_providers: [
            {
              name: 'corp',
              display: 'Corp SSO',
              issuer: idp.issuer,
              client_id: 'ci',
              client_secret: 'ci-client-secret',
              scopes: ['openid', 'profile', 'email', 'groups'],
              role_claim: 'groups',
              role_map: { admin: ['ci-admins'], maintainer: ['ci-devs'] },
              default_role: 'viewer',
            },
          ],
        },
      }),
    );
    server = await startAuthServer({ CI_CONFIG: config });
  });
  afterAll(async () => {
    await server?.close();
    await idp?.stop();
  });

  /** Starts a login at the control plane; returns the IdP URL and the login cookie. */
  async function begin(provider: string, next = '/projects/demo') {
    const res = await server.app.inject({
      method: 'GET',
      url: `/auth/login/${provider}?next=${encodeURIComponent(next)}`,
    });
    expect(res.statusCode).toBe(302);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('svc_oidc_login='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    return { location: String(res.headers.location), loginCookie: cookie.split(';')[0] };
  }

  async function callback(url: URL, loginCookie?: string) {
    return server.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: loginCookie ? { cookie: loginCookie } : {},
    });
  }

  async function signIn(account: string, provider = 'corp') {
    const { location, loginCookie } = await begin(provider);
    const back = await idp.signIn(location, account);
    const res = await callback(back, loginCookie);
    expect(res.statusCode, res.body).toBe(302);
    const cookie = sessionCookie(res.headers['set-cookie'])!;
    return { res, cookie };
  }

  it('lists the provider', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/auth/providers' });
    expect(res.json().providers).toEqual([
      { name: 'local', display: 'Username and password' },
      { name: 'corp', display: 'Corp SSO' },
    ]);
  });

  it('redirects with PKCE S256, state and nonce', async () => {
    const { location } = await begin('corp');
    const url = new URL(location);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('client_id')).toBe('ci');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/callback/corp`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('scope')).toBe('openid profile email groups');
    // `oidc` means the first configured provider.
    expect(new URL((await begin('oidc')).location).origin).toBe(idp.issuer);
  });

  it('creates the user on first login, maps the role and sets the session cookie', async () => {
    const { res, cookie } = await signIn('alice');
    expect(res.headers.location).toBe('/projects/demo');
    const raw = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('svc_session='))!;
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/Path=\//);
    const me = await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ username: 'alice', email: 'alice@corp.test', role: 'maintainer' });
    const bob = await signIn('bob');
    const bobMe = await server.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { cookie: bob.cookie },
    });
    expect(bobMe.json()).toMatchObject({ username: 'bob', role: 'admin' });
    const carol = await signIn('carol');
    const carolMe = await server.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { cookie: carol.cookie },
    });
    expect(carolMe.json()).toMatchObject({ username: 'carol', role: 'viewer' });
    // An OIDC user has no local password.
    const pw = await server.app.inject({
      method: 'POST',
      url: '/api/v1/me/password',
      headers: asSession(carol.cookie),
      payload: { current_password: 'x', new_password: 'a-new-password-1' },
    });
    expect(pw.statusCode).toBe(400);
  });

  it('keeps one user per subject and follows role changes at the provider', async () => {
    const first = await signIn('alice');
    const id = (
      await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: first.cookie } })
    ).json().id;
    idp.accounts.get('alice')!.groups = ['ci-admins'];
    const again = await signIn('alice');
    const me = (
      await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie: again.cookie } })
    ).json();
    expect(me).toMatchObject({ id, role: 'admin' });
    idp.accounts.get('alice')!.groups = ['ci-devs'];
  });

  it('refuses a tampered state, a missing or forged login cookie, and another provider’s cookie', async () => {
    const { location, loginCookie } = await begin('corp');
    const back = await idp.signIn(location, 'carol');
    const tampered = new URL(back);
    tampered.searchParams.set('state', `${back.searchParams.get('state')}x`);
    const res = await callback(tampered, loginCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/state/i);
    expect(sessionCookie(res.headers['set-cookie'])).toBeUndefined();

    expect((await callback(back)).statusCode).toBe(400);
    const [name, value] = loginCookie.split('=');
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith('A') ? 'B' : 'A'}${value.slice(-1)}`;
    expect((await callback(back, forged)).statusCode).toBe(400);
    const elsewhere = new URL(back);
    elsewhere.pathname = '/auth/callback/nowhere';
    expect((await callback(elsewhere, loginCookie)).statusCode).toBe(404);
  });

  it('reports the provider’s refusal and never redirects off-site', async () => {
    const { loginCookie } = await begin('corp');
    const denied = await server.app.inject({
      method: 'GET',
      url: '/auth/callback/corp?error=access_denied&state=x',
      headers: { cookie: loginCookie },
    });
    expect(denied.statusCode).toBe(401);
    const { location, loginCookie: c2 } = await begin('corp', 'https://evil.example/steal');
    const back = await idp.signIn(location, 'carol');
    const res = await callback(back, c2);
    expect(res.headers.location).toBe('/');
  });

  it('signs in through a provider added by the admin API (client secret sealed at rest)', async () => {
    const admin = asSession(await login(server, 'admin', ADMIN_PASSWORD));
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/admin/auth/providers',
      headers: admin,
      payload: {
        name: 'stored',
        display: 'Stored IdP',
        issuer: idp.issuer,
        client_id: 'ci-db',
        client_secret: 'db-client-secret',
        scopes: 'openid profile email groups',
        role_claim: 'groups',
        role_map: { maintainer: ['staff'] },
      },
    });
    expect(created.statusCode).toBe(201);
    const row = await server.database.db
      .selectFrom('auth_providers')
      .selectAll()
      .where('name', '=', 'stored')
      .executeTakeFirstOrThrow();
    expect(row.client_secret_sealed).not.toContain('db-client-secret');
    idp.accounts.set('dave', { username: 'alice', email: 'dave@corp.test', groups: ['staff'] });
    const { cookie } = await signIn('dave', 'stored');
    const me = (await server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).json();
    // "alice" is taken by the user of the other provider: the new one is told apart by its provider.
    expect(me).toMatchObject({ username: 'alice@stored', role: 'maintainer' });

    const audit = await server.app.inject({
      method: 'GET',
      url: `/api/v1/admin/audit?action=auth.oidc_login&actor=${encodeURIComponent('alice@stored')}`,
      headers: admin,
    });
    expect(audit.json().entries[0]).toMatchObject({
      target: 'provider:stored',
      details: { outcome: 'success', role: 'maintainer' },
    });
  });
});
