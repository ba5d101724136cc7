// The OIDC authorization-code flow with PKCE (S256), state and nonce. The per-login values travel in a
// short-lived cookie sealed (encrypted and authenticated) with a key derived from the server's secret key,
// so no server-side state is needed between the redirect and the callback, and a tampered or replayed-elsewhere
// state is refused.
import { HttpError, type SecretBox } from '@app/kit';
import * as oidc from 'openid-client';
import {
  findUserBySubject,
  findUserByUsername,
  insertUser,
  type UserRow,
  updateUserProfile,
} from '../../store/auth-users.js';
import type { StoreDb } from '../../store/database.js';
import type { Role } from '../roles.js';
import { type ProviderEntry, type ProviderRegistry, ProviderUnavailableError } from './registry.js';
import { mapRole } from './roles.js';

export const LOGIN_TTL_MS = 10 * 60 * 1000;

interface LoginState {
  /** provider name */
  p: string;
  s: string;
  n: string;
  v: string;
  /** where to send the browser afterwards */
  t: string;
  /** expiry, ms since epoch */
  e: number;
}

/** Only paths on this deployment are accepted as targets (no open redirect). */
export function safeTarget(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  // Control characters could split headers or confuse the browser's URL parser.
  for (const ch of raw) if (ch.charCodeAt(0) < 0x20 || ch === '\u007f') return '/';
  return raw;
}

export interface FlowDeps {
  db: StoreDb;
  registry: ProviderRegistry;
  /** Box for the login cookie (its own derived key). */
  cookieBox: SecretBox;
  publicUrl: string;
}

export const callbackUrl = (publicUrl: string, provider: string) =>
  `${publicUrl}/auth/callback/${encodeURIComponent(provider)}`;

async function configurationOf(deps: FlowDeps, entry: ProviderEntry): Promise<oidc.Configuration> {
  try {
    return await deps.registry.configuration(entry);
  } catch (err) {
    if (err instanceof ProviderUnavailableError) throw new HttpError(503, err.message);
    throw err;
  }
}

/** The authorization URL to redirect to and the sealed cookie value to set. */
export async function startLogin(
  deps: FlowDeps,
  entry: ProviderEntry,
  target: string,
): Promise<{ url: string; cookie: string }> {
  const config = await configurationOf(deps, entry);
  const state: LoginState = {
    p: entry.name,
    s: oidc.randomState(),
    n: oidc.randomNonce(),
    v: oidc.randomPKCECodeVerifier(),
    t: target,
    e: Date.now() + LOGIN_TTL_MS,
  };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(deps.publicUrl, entry.name),
    scope: entry.scopes.join(' '),
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(state.v),
    code_challenge_method: 'S256',
    state: state.s,
    nonce: state.n,
  });
  return { url: url.href, cookie: deps.cookieBox.seal(JSON.stringify(state), 'oidc-login') };
}

function openState(deps: FlowDeps, sealed: string | undefined, provider: string): LoginState {
  const again = `start again at /auth/login/${provider}`;
  if (!sealed) throw new HttpError(400, `Sign-in state is missing (cookies blocked or expired); ${again}`);
  let state: LoginState;
  try {
    state = JSON.parse(deps.cookieBox.open(sealed, 'oidc-login')) as LoginState;
  } catch {
    throw new HttpError(400, `Sign-in state is invalid; ${again}`);
  }
  if (state.p !== provider) throw new HttpError(400, `Sign-in was started for another provider; ${again}`);
  if (!(state.e > Date.now())) throw new HttpError(400, `Sign-in took too long; ${again}`);
  return state;
}

function usernameCandidates(claims: Record<string, unknown>, provider: string, sub: string): string[] {
  const base = [claims.preferred_username, claims.email, claims.name]
    .find((v): v is string => typeof v === 'string' && v.trim().length > 0)
    ?.trim()
    .slice(0, 150);
  const fallback = `${provider}-${sub}`.slice(0, 200);
  return base ? [base, `${base}@${provider}`.slice(0, 200), fallback] : [fallback];
}

async function findOrCreateUser(
  deps: FlowDeps,
  entry: ProviderEntry,
  claims: Record<string, unknown>,
  role: Role,
): Promise<UserRow> {
  const sub = String(claims.sub);
  const email = typeof claims.email === 'string' && claims.email.length <= 320 ? claims.email : null;
  const existing = await findUserBySubject(deps.db, entry.name, sub);
  if (existing) {
    // With a role claim configured the provider stays the source of truth; otherwise admins manage roles.
    const nextRole = entry.role_claim ? role : existing.role;
    if (nextRole !== existing.role || (email && email !== existing.email)) {
      await updateUserProfile(deps.db, existing.id, { role: nextRole, email: email ?? existing.email });
      return { ...existing, role: nextRole, email: email ?? existing.email };
    }
    return existing;
  }
  for (const username of usernameCandidates(claims, entry.name, sub)) {
    if (await findUserByUsername(deps.db, username)) continue;
    try {
      return await insertUser(deps.db, { username, email, role, provider: entry.name, subject: sub });
    } catch (err) {
      // Lost a race for the same subject: the other request created the user.
      const raced = await findUserBySubject(deps.db, entry.name, sub);
      if (raced) return raced;
      throw err;
    }
  }
  throw new HttpError(409, 'No free username for this identity; ask an administrator');
}

/** Completes the callback: verified claims, mapped role, the user (created on first login), the target. */
export async function finishLogin(
  deps: FlowDeps,
  entry: ProviderEntry,
  query: Record<string, unknown>,
  sealed: string | undefined,
): Promise<{ user: UserRow; target: string }> {
  const state = openState(deps, sealed, entry.name);
  if (typeof query.error === 'string') {
    const text =
      typeof query.error_description === 'string' ? `: ${query.error_description.slice(0, 200)}` : '';
    throw new HttpError(
      401,
      `The identity provider refused the sign-in (${query.error.slice(0, 100)}${text})`,
    );
  }
  if (query.state !== state.s) throw new HttpError(400, 'Sign-in state does not match; start again');
  const config = await configurationOf(deps, entry);
  const current = new URL(callbackUrl(deps.publicUrl, entry.name));
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string') current.searchParams.set(k, v);
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: state.v,
      expectedState: state.s,
      expectedNonce: state.n,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() ?? {}) };
    const needsUserinfo = entry.role_claim && !(entry.role_claim.split('.')[0] in claims);
    if ((needsUserinfo || claims.email === undefined) && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      claims = { ...info, ...claims };
    }
  } catch (err) {
    throw new HttpError(401, `Sign-in with "${entry.name}" failed: ${(err as Error).message}`);
  }
  const role = mapRole(claims, entry.role_claim, entry.role_map, entry.default_role);
  if (!role) throw new HttpError(403, `Your account at "${entry.name}" is not allowed to use this server`);
  const user = await findOrCreateUser(deps, entry, claims, role);
  return { user, target: state.t };
}
