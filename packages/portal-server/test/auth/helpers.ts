// Shared helpers of the authentication tests: a portal on a temporary data directory with known credentials,
// signing in, and reading cookies from responses.
import { tempDir } from '@app/kit/testing';
import type { LightMyRequestResponse } from 'fastify';
import { createPortalServer, loadPortalSettings, type PortalServer } from '../../src/index.js';

export const ADMIN = { email: 'admin@example.test', password: 'admin-password-123' };
export const USER = { email: 'user@example.test', password: 'user-password-456' };
export const JWT_SECRET = 'a-test-jwt-secret-that-is-long-enough-0123456789';
export const ORIGIN = 'http://localhost:80';

export async function portal(env: Record<string, string> = {}): Promise<PortalServer> {
  return createPortalServer(
    loadPortalSettings({
      PORTAL_DATA_DIR: tempDir('portal-auth-'),
      PORT: '0',
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    }),
    { logger: false },
  );
}

export function setCookie(res: LightMyRequestResponse, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return all.find((c) => c.startsWith(`${name}=`));
}

export function cookieValue(res: LightMyRequestResponse, name: string): string | undefined {
  const c = setCookie(res, name);
  return c ? c.slice(name.length + 1).split(';')[0] : undefined;
}

export async function login(
  server: PortalServer,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return server.app.inject({ method: 'POST', url: '/api/auth/login', payload: body, headers });
}

/** Signs in and returns the `auth-token` value. */
export async function sessionFor(server: PortalServer, who: { email: string; password: string }) {
  const res = await login(server, who);
  const token = cookieValue(res, 'auth-token');
  if (res.statusCode !== 200 || !token) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return token;
}
