// The real authorizer: identifies the caller from `Authorization: Bearer <token>` or the `svc_session`
// cookie, then applies the route's declared access — anonymous → 401, role too low → 403. A token's role is
// its issuer's current role (looked up on every request), so demoting a user demotes their tokens.
// Cookie-authenticated state-changing requests must come from this deployment's own origin (CSRF defence).
import { HttpError, hashToken, unauthorized } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import { findTokenByHash, markTokenUsed } from '../store/auth-tokens.js';
import type { StoreDb } from '../store/database.js';
import { isStateChanging, readCookie, SESSION_COOKIE, sameOrigin } from './cookies.js';
import { type Access, type Authorizer, type Principal, ROLES, type Role, roleAtLeast } from './roles.js';
import type { SessionStore } from './sessions.js';
import { looksLikeToken } from './tokens.js';

/** `last_used_at` is written at most this often per token. */
const MARK_USED_EVERY_MS = 60 * 1000;

export interface IdentifyDeps {
  db: StoreDb;
  sessions: SessionStore;
}

const isRole = (r: string | null): r is Role => r !== null && (ROLES as readonly string[]).includes(r);

async function fromBearer(deps: IdentifyDeps, header: string): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must be "Bearer <API token>"');
  const text = match[1];
  if (!looksLikeToken(text)) throw unauthorized('Invalid API token');
  const row = await findTokenByHash(deps.db, hashToken(text));
  if (!row) throw unauthorized('Invalid API token');
  if (row.revoked_at) throw unauthorized('This API token has been revoked');
  const now = Date.now();
  if (row.expires_at && Date.parse(row.expires_at) <= now) throw unauthorized('This API token has expired');
  if (!isRole(row.issuer_role) || !row.issuer_name) throw unauthorized('Invalid API token');
  if (!row.last_used_at || now - Date.parse(row.last_used_at) >= MARK_USED_EVERY_MS)
    await markTokenUsed(deps.db, row.id, new Date(now).toISOString());
  return row.user_id
    ? { kind: 'token', id: row.user_id, username: row.issuer_name, role: row.issuer_role, tokenId: row.id }
    : {
        kind: 'service_account',
        id: row.service_account_id!,
        username: row.issuer_name,
        role: row.issuer_role,
        tokenId: row.id,
      };
}

/**
 * Who is calling: a principal, or undefined for an anonymous request. A presented but bad token is a 401
 * (never silently anonymous); a stale session cookie is simply ignored.
 */
export async function identify(deps: IdentifyDeps, request: FastifyRequest): Promise<Principal | undefined> {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.length > 0) return fromBearer(deps, header);
  const cookie = readCookie(request, SESSION_COOKIE);
  if (!cookie) return undefined;
  const session = await deps.sessions.resolve(cookie);
  if (!session || !isRole(session.role)) return undefined;
  return {
    kind: 'user',
    id: session.userId,
    username: session.username,
    role: session.role,
    viaCookie: true,
  };
}

export interface AuthorizerDeps extends IdentifyDeps {
  /** Origin of CI_PUBLIC_URL. */
  publicOrigin: string;
  /** Resolves once the store is migrated and bootstrapped (503 otherwise). */
  ready: () => Promise<void>;
}

export function createAuthorizer(deps: AuthorizerDeps): Authorizer {
  return async (request, _reply, access: Access) => {
    await deps.ready();
    const principal = await identify(deps, request);
    if (!principal) {
      throw unauthorized('Authentication required: sign in, or send "Authorization: Bearer <API token>"');
    }
    request.principal = principal;
    if (principal.viaCookie && isStateChanging(request.method) && !sameOrigin(request, deps.publicOrigin)) {
      throw new HttpError(
        403,
        'Cross-origin request refused: a request authenticated by the session cookie must come from this server (Origin or Referer)',
      );
    }
    if (access !== 'authenticated' && access !== 'public' && !roleAtLeast(principal.role, access)) {
      throw new HttpError(403, `This needs the ${access} role; you have ${principal.role}`);
    }
  };
}
