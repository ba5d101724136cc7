// Local login, the session cookie's attributes, /api/auth/me, logout and the login rate limit, driven
// through the real server with app.inject.
import { afterEach, describe, expect, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, cookieValue, login, portal, sessionFor, setCookie, USER } from './helpers.js';

let server: PortalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('POST /api/auth/login', () => {
  it('signs the administrator in and sets the auth-token cookie with the spec attributes', async () => {
    server = await portal();
    const res = await login(server, ADMIN);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, role: 'admin' });
    const cookie = setCookie(res, 'auth-token')!;
    expect(cookie).toBeDefined();
    const attrs = cookie
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('max-age=86400');
    expect(attrs).toContain('path=/');
    // Outside production the cookie is not Secure.
    expect(attrs).not.toContain('secure');
    // The value is a compact JWT carrying role and username.
    const token = cookieValue(res, 'auth-token')!;
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({ role: 'admin', username: ADMIN.email, sub: ADMIN.email });
    expect(payload.exp - payload.iat).toBe(86400);
    const me = await server.app.inject({ url: '/api/auth/me', cookies: { 'auth-token': token } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ authenticated: true, user: { role: 'admin', username: ADMIN.email } });
  });

  it('compares the email case-insensitively', async () => {
    server = await portal();
    const res = await login(server, { email: ADMIN.email.toUpperCase(), password: ADMIN.password });
    expect(res.statusCode).toBe(200);
  });

  it('answers every failure with the same 401 body and no cookie', async () => {
    server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
    const attempts = [
      { email: ADMIN.email, password: 'wrong' },
      { email: 'nobody@example.test', password: ADMIN.password },
      { email: USER.email, password: ADMIN.password },
      { email: ADMIN.email, password: '' },
    ];
    const bodies = new Set<string>();
    for (const attempt of attempts) {
      const res = await login(server, attempt);
      expect(res.statusCode).toBe(401);
      expect(setCookie(res, 'auth-token')).toBeUndefined();
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0])).toEqual({ success: false, message: 'Invalid email or password' });
  });

  it('has a user account only when USER_PASSWORD is set', async () => {
    server = await portal({ USER_EMAIL: USER.email });
    expect((await login(server, { email: USER.email, password: '' })).statusCode).toBe(401);
    await server.close();
    server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
    const res = await login(server, USER);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, role: 'user' });
  });

  it.each([
    ['malformed JSON', 'application/json', '{"email": '],
    ['plain text', 'text/plain', 'email=a&password=b'],
    ['a JSON array', 'application/json', '[1,2]'],
    ['an empty body', 'application/json', ''],
  ])('answers 400 {success:false, message} for %s', async (_name, type, payload) => {
    server = await portal();
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': type },
      payload,
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toEqual({ success: false, message: expect.any(String) });
  });

  it('records every sign-in, success and failure, as an audit event without the password', async () => {
    server = await portal({ STORAGE_PROVIDER: 'sqlite' });
    expect((await login(server, ADMIN)).statusCode).toBe(200);
    expect((await login(server, { ...ADMIN, password: 'wrong-password-xyz' })).statusCode).toBe(401);
    expect((await login(server, { email: 'Nobody@Example.test', password: 'guess-123' })).statusCode).toBe(
      401,
    );
    const page = await server.audit.query({ type: 'sign_in', limit: 10, offset: 0 });
    const events = (page.events as Array<Record<string, unknown>>).reverse();
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({
      type: 'sign_in',
      actor: ADMIN.email,
      result: 'success',
      method: 'local',
      role: 'admin',
    });
    expect(events[1]).toMatchObject({ actor: ADMIN.email, result: 'failure', reason: 'invalid_credentials' });
    expect(events[2]).toMatchObject({ actor: 'nobody@example.test', result: 'failure' });
    const text = JSON.stringify(events);
    expect(text).not.toContain(ADMIN.password);
    expect(text).not.toContain('wrong-password-xyz');
    expect(text).not.toContain('guess-123');
    // The admin audit route lists them, filterable by result.
    const cookie = await sessionFor(server, ADMIN);
    const failures = await server.app.inject({
      method: 'GET',
      url: '/api/admin/audit?type=sign_in&result=failure',
      cookies: { 'auth-token': cookie },
    });
    expect(failures.json().total).toBe(2);
  });

  it('answers 400 when email or password is missing', async () => {
    server = await portal();
    const res = await login(server, { email: ADMIN.email });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'email and password are required strings' });
  });

  it('refuses the eleventh attempt in a minute for one address and email with 429 in the error shape', async () => {
    server = await portal();
    for (let i = 0; i < 10; i++) {
      expect((await login(server, { email: ADMIN.email, password: `wrong-${i}` })).statusCode).toBe(401);
    }
    const res = await login(server, ADMIN);
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ error: expect.any(String), code: 'RATE_LIMITED', statusCode: 429 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another email from the same address still has its own budget.
    expect((await login(server, { email: 'other@example.test', password: 'x' })).statusCode).toBe(401);
  });

  it('does not count successful sign-ins against the budget', async () => {
    server = await portal();
    for (let i = 0; i < 15; i++) expect((await login(server, ADMIN)).statusCode).toBe(200);
  });
});

describe('session cookie Secure flag', () => {
  const cases: Array<[string, Record<string, string>, string, boolean]> = [
    ['AUTH_COOKIE_SECURE=on wins outside production', { AUTH_COOKIE_SECURE: 'on' }, 'localhost', true],
    [
      'AUTH_COOKIE_SECURE=0 wins in production',
      { AUTH_COOKIE_SECURE: '0', NODE_ENV: 'production' },
      'x.io',
      false,
    ],
    ['off outside production', {}, 'portal.example.com', false],
    ['off for loopback over http in production', { NODE_ENV: 'production' }, '127.0.0.1:3000', false],
    ['off for localhost over http in production', { NODE_ENV: 'production' }, 'localhost:3000', false],
    ['on for a public host in production', { NODE_ENV: 'production' }, 'portal.example.com', true],
  ];
  it.each(cases)('%s', async (_name, env, host, secure) => {
    server = await portal(env);
    const res = await login(server, ADMIN, { host });
    expect(res.statusCode).toBe(200);
    const attrs = setCookie(res, 'auth-token')!.toLowerCase();
    expect(/;\s*secure(;|$)/.test(attrs)).toBe(secure);
  });
});

describe('GET /api/auth/me and POST /api/auth/logout', () => {
  it('answers 401 {authenticated:false} without a session or with a forged one', async () => {
    server = await portal();
    const none = await server.app.inject({ url: '/api/auth/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ authenticated: false });
    const token = await sessionFor(server, ADMIN);
    const [h, p] = token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(p, 'base64url').toString()),
        role: 'admin',
        username: 'eve',
      }),
    ).toString('base64url');
    const forged = await server.app.inject({
      url: '/api/auth/me',
      cookies: { 'auth-token': `${h}.${forgedPayload}.${token.split('.')[2]}` },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('logout clears the cookie, answers {success:true} and ends the session', async () => {
    server = await portal();
    const token = await sessionFor(server, ADMIN);
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      cookies: { 'auth-token': token },
      headers: { origin: 'http://localhost' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const cleared = setCookie(res, 'auth-token')!;
    expect(cleared).toMatch(/^auth-token=;/);
    expect(cleared.toLowerCase()).toContain('max-age=0');
    const me = await server.app.inject({ url: '/api/auth/me', cookies: { 'auth-token': token } });
    expect(me.statusCode).toBe(401);
  });
});

describe('logout body handling', () => {
  it('accepts an empty JSON body', async () => {
    server = await portal();
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });
});
