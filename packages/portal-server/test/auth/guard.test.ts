// The request guard: JSON 401 for API calls vs redirect for pages, the open routes, handlers re-verifying
// the session, the same-origin check on state changes, security headers and the database rate limit.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/auth/rate-limit.js';
import { databaseRateLimit, isOpenRoute, requireAdmin, requireSession } from '../../src/http/guard.js';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, portal, sessionFor, USER } from './helpers.js';

const UNAUTHORIZED = { error: 'Authentication required', code: 'UNAUTHORIZED', statusCode: 401 };

let server: PortalServer;
let adminToken: string;
let userToken: string;

async function start(env: Record<string, string> = {}) {
  server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password, ...env });
  // Stand-ins for routes other issues build: one reaching a database, one admin-only, one bot route.
  server.app.post('/api/test/query', { preHandler: databaseRateLimit }, async (request) => ({
    by: await requireSession(request),
  }));
  server.app.get('/api/test/admin', async (request) => ({ by: await requireAdmin(request) }));
  server.app.post('/api/v1/__probe', async () => ({ ok: true }));
  adminToken = await sessionFor(server, ADMIN);
  userToken = await sessionFor(server, USER);
}

beforeEach(() => start());
afterEach(() => server.close());

describe('session requirement', () => {
  it('answers API calls without a session with the JSON 401 shape, known route or not', async () => {
    for (const [method, url] of [
      ['GET', '/api/test/admin'],
      ['GET', '/api/connections/managed'],
      ['GET', '/api/no/such/route'],
    ] as const) {
      const res = await server.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
    }
  });

  it('answers a state change without a session with 401 JSON', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/api/test/query', payload: {} });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });

  it('redirects pages to /login, keeps /login and static assets open', async () => {
    for (const url of ['/', '/admin', '/connections/42']) {
      const res = await server.app.inject({ url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/login');
    }
    const loginPage = await server.app.inject({ url: '/login' });
    expect(loginPage.statusCode).toBe(200);
    expect(loginPage.headers['content-type']).toMatch(/^text\/html/);
    // The web app's index.html (or, when it is not built, the notice saying how to build it).
    expect(loginPage.body).toContain('<title>Database Portal</title>');
    expect((await server.app.inject({ url: '/assets/app.js' })).statusCode).toBe(404);
  });

  it('leaves the spec exceptions open', async () => {
    expect((await server.app.inject({ url: '/api/db/health' })).statusCode).toBe(200);
    expect((await server.app.inject({ url: '/api/storage/config' })).statusCode).toBe(200);
    expect((await server.app.inject({ url: '/metrics' })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'POST', url: '/api/v1/__probe' })).statusCode).toBe(200);
    for (const url of ['/api/agent/drive', '/api/chat/interactions', '/mcp']) {
      const res = await server.app.inject({ method: 'POST', url, payload: {} });
      // A handler may refuse on its own terms (the chat route's signature check is a 401 INVALID_SIGNATURE);
      // what matters is that the session guard did not.
      expect(res.json().code, url).not.toBe('UNAUTHORIZED');
    }
    // POST /api/db/health answers its own 401 JSON (spec): the guard lets it through to the handler.
    expect(isOpenRoute('POST', '/api/db/health')).toBe(true);
  });

  it('lets a session through and lets handlers verify it again', async () => {
    const page = await server.app.inject({ url: '/admin', cookies: { 'auth-token': adminToken } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const res = await server.app.inject({
      url: '/api/test/admin',
      cookies: { 'auth-token': adminToken },
    });
    expect(res.json()).toEqual({ by: { role: 'admin', username: ADMIN.email } });
  });

  it('requireAdmin refuses a user with 403; the user landing page is /', async () => {
    const res = await server.app.inject({ url: '/api/test/admin', cookies: { 'auth-token': userToken } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
    const adminPage = await server.app.inject({ url: '/admin', cookies: { 'auth-token': userToken } });
    expect(adminPage.headers.location).toBe('/');
  });

  it('refuses a token signed with another secret', async () => {
    const other = await portal({ JWT_SECRET: 'another-secret-that-is-also-long-enough-xyz' });
    const foreign = await sessionFor(other, ADMIN);
    await other.close();
    const res = await server.app.inject({ url: '/api/test/admin', cookies: { 'auth-token': foreign } });
    expect(res.statusCode).toBe(401);
  });
});

describe('isOpenRoute', () => {
  it.each([
    ['POST', '/api/auth/login', true],
    ['GET', '/api/auth/oidc/callback', true],
    ['GET', '/api/db/health', true],
    ['POST', '/api/db/health', true],
    ['GET', '/api/storage/config', true],
    ['POST', '/api/storage/config', false],
    ['POST', '/api/agent/drive', true],
    ['GET', '/api/agent/drive', false],
    ['POST', '/api/chat/interactions', true],
    ['POST', '/api/v1/executions', true],
    ['POST', '/mcp', true],
    ['GET', '/metrics', true],
    ['POST', '/api/db/query', false],
    ['GET', '/api/db/health/extra', false],
    ['GET', '/api/authx', false],
    ['GET', '/api/app.js', false],
    ['GET', '/login', true],
    ['POST', '/login', false],
    ['GET', '/assets/index-abc.css', true],
    ['GET', '/favicon.ico', true],
    ['GET', '/', false],
    ['GET', '/admin', false],
  ] as const)('%s %s → %s', (method, path, open) => {
    expect(isOpenRoute(method, path)).toBe(open);
  });
});

describe('origin check', () => {
  const post = (headers: Record<string, string>, cookie = true) =>
    server.app.inject({
      method: 'POST',
      url: '/api/test/query',
      payload: {},
      headers,
      ...(cookie ? { cookies: { 'auth-token': adminToken } } : {}),
    });

  it('accepts a cookie-authenticated state change from its own origin (Origin or Referer)', async () => {
    expect((await post({ origin: 'http://localhost' })).statusCode).toBe(200);
    expect((await post({ origin: 'http://localhost:80' })).statusCode).toBe(200);
    expect((await post({ referer: 'http://localhost/queries?x=1' })).statusCode).toBe(200);
    expect(
      (await post({ host: 'portal.example.com:3000', origin: 'http://portal.example.com:3000' })).statusCode,
    ).toBe(200);
  });

  it('refuses a foreign, null or missing origin with 403', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://evil.example' },
      { origin: 'http://localhost:8080' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      {},
    ]) {
      const res = await post(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ code: 'ORIGIN_MISMATCH', statusCode: 403 });
    }
  });

  it('exempts requests without the cookie (bearer-token callers)', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/__probe',
      headers: { authorization: 'Bearer pst_x' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('checks login when the browser names an origin', async () => {
    const foreign = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: ADMIN,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ success: false, message: expect.any(String) });
    const own = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: ADMIN,
      headers: { origin: 'http://localhost' },
    });
    expect(own.statusCode).toBe(200);
  });

  it('accepts the PUBLIC_URL origin when set', async () => {
    await server.close();
    await start({ PUBLIC_URL: 'https://portal.example.com' });
    const res = await post({ host: '10.0.0.5:3000', origin: 'https://portal.example.com' });
    expect(res.statusCode).toBe(200);
    expect((await post({ host: '10.0.0.5:3000', origin: 'http://portal.example.com' })).statusCode).toBe(403);
  });
});

describe('security headers', () => {
  const expected = {
    'content-security-policy': expect.stringContaining("default-src 'self'"),
    'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': expect.any(String),
    'permissions-policy': expect.any(String),
    'cross-origin-opener-policy': 'same-origin',
  };

  it('are on document responses', async () => {
    const page = await server.app.inject({ url: '/login' });
    expect(page.headers).toMatchObject(expected);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const home = await server.app.inject({ url: '/', cookies: { 'auth-token': userToken } });
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.headers).toMatchObject(expected);
  });

  it('are on redirects, API answers and errors too', async () => {
    for (const url of ['/', '/api/db/health', '/api/no/such']) {
      expect((await server.app.inject({ url })).headers).toMatchObject(expected);
    }
  });
});

describe('database rate limit', () => {
  it('answers 429 in the portal error shape beyond the budget, per person', async () => {
    server.app.portalAuth.limits.database = new RateLimiter({ max: 2, windowMs: 60_000 });
    const call = (token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/test/query',
        payload: {},
        cookies: { 'auth-token': token },
        headers: { origin: 'http://localhost' },
      });
    expect((await call(adminToken)).statusCode).toBe(200);
    expect((await call(adminToken)).statusCode).toBe(200);
    const limited = await call(adminToken);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      statusCode: 429,
      error: expect.any(String),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call(userToken)).statusCode).toBe(200);
  });
});
