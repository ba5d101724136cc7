// Helpers of the auth tests: a control plane with a known administrator and public URL, sign-in that
// returns the session cookie, and shortcuts to create users and tokens through the API.
import type { CiServer } from '../../src/index.js';
import { startTestCiServer } from '../helpers.js';

export const PUBLIC_URL = 'http://ci.test:8153';
export const ORIGIN = { origin: PUBLIC_URL };
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export async function startAuthServer(env: Record<string, string> = {}): Promise<CiServer> {
  return startTestCiServer({
    CI_ADMIN_USERNAME: 'admin',
    CI_ADMIN_PASSWORD: ADMIN_PASSWORD,
    CI_PUBLIC_URL: PUBLIC_URL,
    ...env,
  });
}

/** The `svc_session=…` pair from a response's Set-Cookie headers. */
export function sessionCookie(setCookie: string | string[] | undefined): string | undefined {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const found = list.find((c) => c.startsWith('svc_session=') && !c.startsWith('svc_session=;'));
  return found?.split(';')[0];
}

export async function login(server: CiServer, username: string, password: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/auth/login/local',
    payload: { username, password },
  });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  const cookie = sessionCookie(res.headers['set-cookie']);
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

export function asSession(cookie: string): Record<string, string> {
  return { cookie, ...ORIGIN };
}

export function asToken(secret: string): Record<string, string> {
  return { authorization: `Bearer ${secret}` };
}

export async function createUser(
  server: CiServer,
  admin: Record<string, string>,
  username: string,
  role: string,
  password = `${username}-password-123`,
): Promise<{ id: string; password: string }> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/admin/users',
    headers: admin,
    payload: { username, password, role },
  });
  if (res.statusCode !== 201) throw new Error(`create user ${username}: ${res.statusCode} ${res.body}`);
  return { id: res.json().id, password };
}

export async function createToken(
  server: CiServer,
  headers: Record<string, string>,
  name: string,
  expiresAt: string | null = null,
): Promise<{ id: string; secret: string; expires_at: string | null }> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/account/api-tokens',
    headers,
    payload: { name, expires_at: expiresAt },
  });
  if (res.statusCode !== 201) throw new Error(`create token ${name}: ${res.statusCode} ${res.body}`);
  return res.json();
}
