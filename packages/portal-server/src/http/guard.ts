// The request guard: security headers on every response, the same-origin check for cookie-authenticated
// state changes, the session requirement for every route but the spec's exceptions (JSON 401 for API calls,
// a redirect to /login for pages), the helpers handlers use to verify the session again (the guard is not the
// authorization boundary), and the rate-limit hook for database-reaching routes.

import { errorBody, forbidden, unauthorized } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { RateLimiter } from '../auth/rate-limit.js';
import { SESSION_COOKIE, type Session } from '../auth/session.js';
import { pathOf } from './roles.js';

export type { Role, Session } from '../auth/session.js';

// ---- verifying the session in handlers -------------------------------------------------------------------

const verified = new WeakMap<FastifyRequest, Promise<Session | null>>();

/**
 * The verified session of the request's `auth-token` cookie, or null. Verified once per request: the guard,
 * the rate limit and the handler's own check share the answer (the JWT check and the store's revocation
 * lookup are not repeated three times).
 */
export function readSession(request: FastifyRequest): Promise<Session | null> {
  let session = verified.get(request);
  if (!session) {
    session = request.server.portalAuth.sessions.verify(request.cookies?.[SESSION_COOKIE]);
    verified.set(request, session);
  }
  return session;
}

/** Re-verifies the session; throws 401 `{error:'Authentication required', code:'UNAUTHORIZED'}` without one. */
export async function requireSession(request: FastifyRequest): Promise<Principal> {
  const session = await readSession(request);
  if (!session) throw unauthorized();
  return { role: session.role, username: session.username };
}

/** Like requireSession, and 403 `{error:'Admin access required', code:'FORBIDDEN'}` for a non-admin. */
export async function requireAdmin(request: FastifyRequest): Promise<Principal> {
  const user = await requireSession(request);
  if (user.role !== 'admin') throw forbidden('Admin access required');
  return user;
}

// ---- which routes are open ---------------------------------------------------------------------------------

const STATIC_FILE = /\.(?:js|mjs|css|map|png|svg|ico|jpe?g|gif|webp|avif|woff2?|ttf|otf|txt|webmanifest)$/i;

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Whether `method path` is served without a session: the spec's exceptions, routes authenticated by other
 * means (service tokens under /api/v1 and /mcp, the drive credential, signed chat callbacks), the scrape
 * route, the login page and static assets.
 */
export function isOpenRoute(method: string, path: string): boolean {
  const read = method === 'GET' || method === 'HEAD';
  if (under(path, '/api/auth')) return true;
  if (path === '/api/db/health') return read || method === 'POST';
  if (path === '/api/storage/config' || path === '/api/openapi.json') return read;
  if (path === '/api/agent/drive' || path === '/api/chat/interactions') return method === 'POST';
  if (under(path, '/api/v1') || under(path, '/mcp')) return true;
  if (path === '/metrics') return read;
  // The spec fixes the audit routes' answer without a session (403 with their own body), so their handler
  // checks the session itself.
  if (path === '/api/admin/audit') return read || method === 'POST';
  if (path === '/api/admin/fleet-health') return method === 'POST'; // exact 401 body: src/http/fleet-health.ts
  if (under(path, '/api')) return false;
  if (!read) return false;
  return path === '/login' || under(path, '/assets') || STATIC_FILE.test(path);
}

// ---- origin check ------------------------------------------------------------------------------------------

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hostOf(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `host[:port]` with a default port dropped, so `localhost:80` and `http://localhost` compare equal. */
function normalHost(host: string): string {
  return host.toLowerCase().replace(/:(?:80|443)$/, '');
}

/**
 * Whether the request's `Origin` (or, without one, `Referer`) names this deployment: the request's own host,
 * or the origin of `PUBLIC_URL` when set. A browser cannot forge either header for a cross-site request.
 */
export function isSameOrigin(request: FastifyRequest, publicUrl?: string): boolean {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = typeof origin === 'string' ? origin : typeof referer === 'string' ? referer : undefined;
  if (!claimed || claimed === 'null') return false;
  const host = hostOf(claimed);
  if (!host) return false;
  if (publicUrl && new URL(claimed).origin === new URL(publicUrl).origin) return true;
  return normalHost(host) === normalHost(request.host);
}

// ---- security headers --------------------------------------------------------------------------------------

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // The editor (Monaco) injects style elements and runs its workers from blob: URLs.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  'cross-origin-opener-policy': 'same-origin',
};

// ---- registration ------------------------------------------------------------------------------------------

function refuse(reply: FastifyReply, status: number, message: string, code: string) {
  return reply.code(status).send(errorBody('portal', status, message, code));
}

/** Adds the guard's hooks. Call after the cookie plugin and the role filter, before any route. */
export function registerGuard(app: FastifyInstance): void {
  const { settings } = app.portalAuth;

  // On every response, documents and API answers alike (headers a JSON reply ignores are harmless).
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    return payload;
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request.url);
    const method = request.method;
    const cookie = request.cookies?.[SESSION_COOKIE];

    // Cross-site request forgery: a cookie-carrying state change must come from our own pages. Bearer-token
    // callers send no cookie and are exempt; login is checked whenever the browser names an origin.
    if (STATE_CHANGING.has(method)) {
      const isLogin = path === '/api/auth/login';
      if (
        (cookie !== undefined || (isLogin && request.headers.origin !== undefined)) &&
        !isSameOrigin(request, settings.publicUrl)
      ) {
        const message = 'Cross-origin request refused: Origin does not match this deployment';
        if (isLogin) return reply.code(403).send({ success: false, message });
        return refuse(reply, 403, message, 'ORIGIN_MISMATCH');
      }
    }

    if (isOpenRoute(method, path)) return;
    if (await readSession(request)) return;
    const isPage = (method === 'GET' || method === 'HEAD') && !under(path, '/api');
    if (isPage) return reply.redirect('/login', 302);
    return refuse(reply, 401, 'Authentication required', 'UNAUTHORIZED');
  });
}

/**
 * A preHandler that counts requests against `limiter` under `key(request)` and answers 429 in the portal
 * error shape (with `Retry-After`) beyond the budget.
 */
export function rateLimitHook(
  pick: (app: FastifyInstance) => RateLimiter,
  key: (request: FastifyRequest) => string | Promise<string>,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const decision = pick(request.server).take(await key(request));
    if (decision.allowed) return;
    return reply
      .code(429)
      .header('retry-after', String(decision.retryAfterSeconds))
      .send(
        errorBody(
          'portal',
          429,
          `Too many requests; try again in ${decision.retryAfterSeconds} seconds`,
          'RATE_LIMITED',
        ),
      );
  };
}

/**
 * Rate limit for routes that reach a database: per signed-in person, else per client address (service-token
 * routes may build their own with `rateLimitHook` keyed by the token's name). Use as `{ preHandler:
 * databaseRateLimit }`.
 */
export const databaseRateLimit = rateLimitHook(
  (app) => app.portalAuth.limits.database,
  async (request) => {
    const session = await readSession(request);
    return session ? `user:${session.username}` : `ip:${request.ip}`;
  },
);
