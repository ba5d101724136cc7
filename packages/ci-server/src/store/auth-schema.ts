// Row types of the authentication tables (migration 0003_auth): users, sessions, API tokens, service
// accounts, preferences, OIDC providers, the audit log and global secrets. Timestamps are RFC 3339 strings
// (UTC, milliseconds) so that they compare as text identically on SQLite and PostgreSQL.
import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username: usernames are unique regardless of case. */
  username_key: string;
  email: string | null;
  role: string;
  /** scrypt hash (see auth/passwords.ts); null for users who sign in through an identity provider. */
  password_hash: string | null;
  /** `local` or the name of the identity provider that created the user. */
  provider: string;
  /** The provider's `sub` claim; null for local users. */
  subject: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserSessionsTable {
  /** SHA-256 of the cookie value; the value itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface ServiceAccountsTable {
  id: string;
  name: string;
  name_key: string;
  role: string;
  created_at: string;
  created_by: string | null;
}

export interface ApiTokensTable {
  id: string;
  name: string;
  /** First characters of the token text, for recognising a token in lists. */
  prefix: string;
  /** SHA-256 of the whole token text. */
  token_hash: string;
  user_id: string | null;
  service_account_id: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface UserPreferencesTable {
  /** User id, service-account id, or `anonymous` while authentication is disabled. */
  owner_id: string;
  preferences: string;
  updated_at: string;
}

export interface AuthProvidersTable {
  id: string;
  name: string;
  display: string;
  issuer: string;
  client_id: string;
  /** Client secret sealed with the server's secret box; null for public clients. */
  client_secret_sealed: string | null;
  /** JSON array of scope strings. */
  scopes: string;
  role_claim: string | null;
  /** JSON object `{admin?: string[], maintainer?: string[], viewer?: string[]}`. */
  role_map: string;
  default_role: string;
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  /** Insertion order: newest first is `seq` descending (timestamps can tie within a millisecond). */
  seq: Generated<number>;
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  status: number;
  /** JSON object without secrets. */
  details: string;
}

export interface GlobalSecretsTable {
  name: string;
  /** Value sealed with the server's secret box (associated data binds it to its name). */
  value_sealed: string;
  created_at: string;
  updated_at: string;
}

/** The current time as stored: RFC 3339 UTC with milliseconds. */
export function nowIso(): string {
  return new Date().toISOString();
}
