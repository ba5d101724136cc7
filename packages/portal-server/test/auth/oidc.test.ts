// OIDC single sign-on end to end against a real `oidc-provider` on 127.0.0.1: PKCE S256, state, nonce and
// prompt=login on the way out; role mapping from a nested claim; tampered state refused; logout's
// end-session URL; discovery cached for five minutes.
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcClient, oidcOptions } from '../../src/auth/oidc.js';
import { createPortalServer, loadPortalSettings, type PortalServer } from '../../src/index.js';
import { JWT_SECRET } from './helpers.js';
import { Browser, CLIENT, startProvider, type TestProvider } from './oidc-harness.js';

interface Rig {
  provider: TestProvider;
  portal: PortalServer;
  origin: string;
}

async function rig(options: { rolesInIdToken: boolean }): Promise<Rig> {
  const provider = await startProvider(options);
  const portal = await createPortalServer(
    loadPortalSettings({
      PORTAL_DATA_DIR: tempDir('portal-oidc-'),
      HOST: '127.0.0.1',
      PORT: '0',
      JWT_SECRET,
      ADMIN_PASSWORD: 'local-admin-password',
      PUBLIC_AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_ROLE_CLAIM: 'realm_access.roles',
      OIDC_ADMIN_ROLES: 'admin, dba',
    }),
    { logger: false },
  );
  const origin = `http://127.0.0.1:${await portal.listen()}`;
  await provider.configure(origin);
  return { provider, portal, origin };
}

/** Runs the browser from the portal's OIDC login to the portal's callback answer. */
async function signIn(r: Rig, account: string, browser = new Browser()) {
  r.provider.loginAs(account);
  const flow = await browser.follow(`${r.origin}/api/auth/oidc/login`, (next) => next.origin === r.origin);
  const callback = flow.next!;
  expect(callback.pathname).toBe('/api/auth/oidc/callback');
  const answer = await browser.request(callback.href);
  return { browser, flow, callback, answer };
}

describe('OIDC sign-in against oidc-provider (roles in the ID token)', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig({ rolesInIdToken: true });
  });
  afterAll(async () => {
    await r.portal.close();
    await r.provider.close();
  });

  it('redirects to the provider with PKCE S256, state, nonce and prompt=login, and sets oidc-state', async () => {
    const browser = new Browser();
    const res = await browser.request(`${r.origin}/api/auth/oidc/login`);
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(url.origin).toBe(r.provider.issuer);
    const q = url.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(CLIENT.id);
    expect(q.get('redirect_uri')).toBe(`${r.origin}/api/auth/oidc/callback`);
    expect(q.get('scope')).toBe('openid profile email');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')).toBeTruthy();
    expect(q.get('nonce')).toBeTruthy();
    expect(q.get('prompt')).toBe('login');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('oidc-state='))!;
    expect(cookie).toBeDefined();
    const attrs = cookie.toLowerCase();
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('max-age=300');
    // The code verifier never travels to the provider in the clear, only its S256 challenge.
    expect(url.href).not.toContain(browser.cookie(r.origin, 'oidc-state')!);
  });

  it('maps a nested array claim (case-insensitively) to admin and lands on /admin', async () => {
    const { answer, browser } = await signIn(r, 'alice');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/admin');
    const setCookies = answer.headers.getSetCookie();
    const session = setCookies.find((c) => c.startsWith('auth-token='))!;
    expect(session.toLowerCase()).toContain('httponly');
    expect(session.toLowerCase()).toContain('samesite=lax');
    expect(session.toLowerCase()).toContain('max-age=86400');
    expect(setCookies.some((c) => /^oidc-state=;/.test(c))).toBe(true);
    const me = await browser.request(`${r.origin}/api/auth/me`);
    expect(await me.json()).toEqual({ authenticated: true, user: { role: 'admin', username: 'alice' } });
    const page = await browser.request(`${r.origin}/admin`);
    expect(page.status).toBe(200);
  });

  it('gives user to an account without an admin role and lands on /', async () => {
    const { answer, browser } = await signIn(r, 'bob');
    expect(answer.headers.get('location')).toBe('/');
    const me = await browser.request(`${r.origin}/api/auth/me`);
    expect(await me.json()).toEqual({ authenticated: true, user: { role: 'user', username: 'bob' } });
  });

  it('refuses a tampered state parameter with /login?error=invalid_state and no session', async () => {
    r.provider.loginAs('alice');
    const browser = new Browser();
    const flow = await browser.follow(`${r.origin}/api/auth/oidc/login`, (next) => next.origin === r.origin);
    const tampered = new URL(flow.next!.href);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    const res = await browser.request(tampered.href);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?error=invalid_state');
    expect(
      res.headers.getSetCookie().some((c) => c.startsWith('auth-token=') && !c.startsWith('auth-token=;')),
    ).toBe(false);
    expect((await browser.request(`${r.origin}/api/auth/me`)).status).toBe(401);
    // Both outcomes of OIDC sign-in are audit events.
    const events = (await r.portal.audit.query({ type: 'sign_in', limit: 100, offset: 0 })).events;
    expect(events).toContainEqual(
      expect.objectContaining({ actor: 'alice', result: 'success', method: 'oidc', role: 'admin' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ result: 'failure', method: 'oidc', reason: 'invalid_state' }),
    );
  });

  it('refuses a tampered or missing oidc-state cookie', async () => {
    r.provider.loginAs('alice');
    const browser = new Browser();
    const flow = await browser.follow(`${r.origin}/api/auth/oidc/login`, (next) => next.origin === r.origin);
    const value = browser.cookie(r.origin, 'oidc-state')!;
    const [h, p, s] = value.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.redirectUri = 'http://evil.example/cb';
    browser.setCookie(
      r.origin,
      'oidc-state',
      `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`,
    );
    const res = await browser.request(flow.next!.href);
    expect(res.headers.get('location')).toBe('/login?error=invalid_state');

    const fresh = new Browser();
    const plain = await fresh.request(flow.next!.href);
    expect(plain.headers.get('location')).toBe('/login?error=invalid_state');
  });

  it('reports a provider refusal as /login?error=access_denied', async () => {
    const browser = new Browser();
    const res = await browser.request(`${r.origin}/api/auth/oidc/login`);
    const state = new URL(res.headers.get('location')!).searchParams.get('state')!;
    const back = await browser.request(
      `${r.origin}/api/auth/oidc/callback?error=access_denied&state=${encodeURIComponent(state)}`,
    );
    expect(back.headers.get('location')).toBe('/login?error=access_denied');
  });

  it('cannot replay a callback: the code and the state are single-use', async () => {
    const { callback, browser } = await signIn(r, 'alice');
    const again = await browser.request(callback.href);
    expect(again.headers.get('location')).toMatch(/^\/login\?error=/);
  });

  it('logout clears the session and returns the provider end-session URL', async () => {
    const { browser } = await signIn(r, 'alice');
    const res = await browser.request(`${r.origin}/api/auth/logout`, {
      method: 'POST',
      headers: { origin: r.origin },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; redirectUrl: string };
    expect(body.success).toBe(true);
    const url = new URL(body.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${r.provider.issuer}/session/end`);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${r.origin}/login`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.id);
    expect((await browser.request(`${r.origin}/api/auth/me`)).status).toBe(401);
    // The provider accepts it (its sign-out confirmation page, not an error).
    const confirm = await browser.request(body.redirectUrl);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('logout');
  });

  it('fetched the discovery document once for all of the above (cached five minutes)', () => {
    expect(r.provider.discoveryCount()).toBe(1);
  });
});

describe('OIDC role from userinfo when the ID token lacks it', () => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig({ rolesInIdToken: false });
  });
  afterAll(async () => {
    await r.portal.close();
    await r.provider.close();
  });

  it('still maps the nested role claim to admin', async () => {
    const { answer, browser } = await signIn(r, 'alice');
    expect(answer.headers.get('location')).toBe('/admin');
    const me = await browser.request(`${r.origin}/api/auth/me`);
    expect(((await me.json()) as { user: unknown }).user).toEqual({ role: 'admin', username: 'alice' });
  });
});

describe('OIDC discovery cache (fixed clock)', () => {
  it('refetches after five minutes, not before', async () => {
    const provider = await startProvider({ rolesInIdToken: true });
    await provider.configure('http://127.0.0.1:1');
    let now = Date.UTC(2030, 0, 1);
    const settings = loadPortalSettings({
      PUBLIC_AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
    });
    const client = new OidcClient(oidcOptions(settings)!, JWT_SECRET, () => now);
    await client.configuration();
    now += 5 * 60 * 1000 - 1;
    await client.configuration();
    expect(provider.discoveryCount()).toBe(1);
    now += 1;
    await client.configuration();
    expect(provider.discoveryCount()).toBe(2);
    await provider.close();
  });

  it('refuses OIDC mode without its settings, and plain http off loopback', () => {
    expect(() => oidcOptions(loadPortalSettings({ PUBLIC_AUTH_PROVIDER: 'oidc' }))).toThrow(
      /OIDC_ISSUER[\s\S]*OIDC_CLIENT_ID[\s\S]*OIDC_CLIENT_SECRET/,
    );
    const http = {
      PUBLIC_AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: 'http://idp.example.com',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 's',
    };
    expect(() => oidcOptions(loadPortalSettings(http))).toThrow(/OIDC_ISSUER: plain http/);
    expect(oidcOptions(loadPortalSettings({ ...http, OIDC_ALLOW_INSECURE_HTTP: 'true' }))?.insecureHttp).toBe(
      true,
    );
  });

  it('sends local mode SSO attempts back to /login with oidc_not_enabled', async () => {
    const portal = await createPortalServer(
      loadPortalSettings({ PORTAL_DATA_DIR: tempDir('portal-oidc-'), JWT_SECRET, ADMIN_PASSWORD: 'x' }),
      { logger: false },
    );
    const res = await portal.app.inject({ url: '/api/auth/oidc/login' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?error=oidc_not_enabled');
    await portal.close();
  });
});
