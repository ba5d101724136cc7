// The session cookie and the short-lived OIDC login cookie: reading one cookie from the header, writing
// Set-Cookie with the flags the deployment needs, and the same-origin check for cookie-authenticated writes.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'svc_session';
export const LOGIN_COOKIE = 'svc_oidc_login';

export interface CookieFlags {
  /** Set when CI_PUBLIC_URL is https. */
  secure: boolean;
}

/** The value of cookie `name` from the request, or undefined. Values we issue are base64url/dotted. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return value.length > 0 && value.length <= 4096 ? value : undefined;
    }
  }
  return undefined;
}

export function serializeCookie(
  name: string,
  value: string,
  flags: CookieFlags,
  options: { maxAgeSeconds?: number; path?: string } = {},
): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, options.maxAgeSeconds)}`);
  if (options.maxAgeSeconds === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (flags.secure) parts.push('Secure');
  return parts.join('; ');
}

/** Adds a Set-Cookie header without dropping ones already set on the reply. */
export function appendSetCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

function originOf(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

/**
 * The request's Origin (or, failing that, Referer's origin) when present. `null` origins (sandboxed frames,
 * privacy redirects) count as absent-but-claimed, i.e. not matching.
 */
export function requestOrigin(request: FastifyRequest): string | null | undefined {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin.length > 0) return originOf(origin) ?? null;
  const referer = request.headers.referer;
  if (typeof referer === 'string' && referer.length > 0) return originOf(referer) ?? null;
  return undefined;
}

/** Origins a browser page of this deployment can have: CI_PUBLIC_URL's, and the host the request reached. */
export function allowedOrigins(request: FastifyRequest, publicOrigin: string): string[] {
  const list = [publicOrigin];
  const host = request.headers.host;
  const here = host ? originOf(`${request.protocol}://${host}`) : undefined;
  if (here) list.push(here);
  return list;
}

/** True when the request carries an Origin/Referer of this deployment. */
export function sameOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = requestOrigin(request);
  if (!origin) return false;
  return allowedOrigins(request, publicOrigin).includes(origin);
}
