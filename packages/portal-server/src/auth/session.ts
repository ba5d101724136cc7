// The signed session: an HS256 JWT (`jose`) in the `auth-token` cookie carrying `role` and `username`, its
// cookie attributes, the secure-flag decision, and the list of sessions ended by logout (in this process, or
// in the server storage when one is configured: see session-state.ts).
import { randomUUID } from 'node:crypto';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { jwtVerify, SignJWT } from 'jose';
import type { PortalSettings } from '../config.js';
import { MemorySessionState, type SessionStateStore } from './session-state.js';

export type Role = 'admin' | 'user';
export type AuthMethod = 'local' | 'oidc';

export interface Session {
  role: Role;
  username: string;
  /** How the session was opened. */
  method: AuthMethod;
  /** Token id, used to end the session at logout. */
  jti: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

export const SESSION_COOKIE = 'auth-token';
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
const ISSUER = 'database-portal';
const AUDIENCE = 'database-portal:session';

export function isRole(v: unknown): v is Role {
  return v === 'admin' || v === 'user';
}

export class SessionService {
  private readonly key: Uint8Array;
  /** Logged-out token ids; a logged-out token stays refused until it would have expired. */
  private state: SessionStateStore;

  constructor(
    jwtSecret: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = new TextEncoder().encode(jwtSecret);
    this.state = new MemorySessionState(now);
  }

  /** Keeps logouts in the server storage from now on (called once the store is open). */
  useState(state: SessionStateStore): void {
    this.state = state;
  }

  async issue(input: { role: Role; username: string; method: AuthMethod }): Promise<string> {
    const iat = Math.floor(this.now() / 1000);
    return new SignJWT({ role: input.role, username: input.username, auth_method: input.method })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(input.username)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + SESSION_TTL_SECONDS)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The session a token stands for, or null when it is missing, forged, expired or logged out. */
  async verify(token: string | undefined): Promise<Session | null> {
    if (!token || token.length > 4096) return null;
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(this.now()),
        requiredClaims: ['exp', 'jti'],
      });
      const { role, username, auth_method: method, jti, exp } = payload;
      if (!isRole(role) || typeof username !== 'string' || !username || typeof jti !== 'string') return null;
      if (await this.state.isRevoked(jti)) return null;
      return { role, username, method: method === 'oidc' ? 'oidc' : 'local', jti, exp: exp as number };
    } catch {
      return null;
    }
  }

  /** Ends a session before its expiry, for every replica sharing the state (see docs/portal-auth.md). */
  async revoke(session: Session): Promise<void> {
    await this.state.revoke(session.jti, session.exp * 1000);
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(h) || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Whether cookies carry `Secure`, in the spec's order: `AUTH_COOKIE_SECURE` when set; off outside production;
 * off for a loopback host over plain HTTP; otherwise on (a production deployment is expected behind HTTPS —
 * set `AUTH_COOKIE_SECURE=off` explicitly for a plain-HTTP production host).
 */
export function decideSecureCookie(
  settings: Pick<PortalSettings, 'authCookieSecure' | 'nodeEnv'>,
  request: FastifyRequest,
): boolean {
  if (settings.authCookieSecure !== undefined) return settings.authCookieSecure;
  if (settings.nodeEnv !== 'production') return false;
  if (request.protocol === 'http' && isLoopbackHost(request.hostname)) return false;
  return true;
}

export function sessionCookieOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', maxAge: SESSION_TTL_SECONDS, secure };
}
