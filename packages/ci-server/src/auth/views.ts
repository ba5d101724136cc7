// Wire shapes of the auth resources (spec decisions: User, APIToken, service account) and small input
// helpers shared by the account and admin routes.
import { badRequest } from '@app/kit';
import { Type } from 'typebox';
import type { ServiceAccountRow } from '../store/auth-service-accounts.js';
import type { TokenRow } from '../store/auth-tokens.js';
import type { UserRow } from '../store/auth-users.js';

export interface UserView {
  id: string;
  username: string;
  email: string | null;
  role: string;
  created_at: string;
}

export function userView(row: UserRow): UserView {
  return { id: row.id, username: row.username, email: row.email, role: row.role, created_at: row.created_at };
}

export interface TokenView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export function tokenView(row: TokenRow): TokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
  };
}

export function serviceAccountView(row: ServiceAccountRow) {
  return { id: row.id, name: row.name, role: row.role, created_at: row.created_at };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp with a timezone into canonical UTC form, or undefined when it is not one. */
export function parseRfc3339(text: string): string | undefined {
  if (!RFC3339.test(text)) return undefined;
  const ms = Date.parse(text.replace(' ', 'T'));
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** `expires_at` of a new token: null, or a future RFC 3339 timestamp. */
export function parseExpiry(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const iso = parseRfc3339(value);
  if (!iso) throw badRequest('expires_at must be an RFC 3339 timestamp with a timezone, or null');
  if (Date.parse(iso) <= Date.now()) throw badRequest('expires_at must be in the future');
  return iso;
}

/** Response schemas: serialising through them also guarantees no stored field (hashes) leaks out. */
export const UserSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  email: Type.Union([Type.Null(), Type.String()]),
  role: Type.String(),
  created_at: Type.String(),
});

export const TokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: Type.String(),
  expires_at: Type.Union([Type.Null(), Type.String()]),
  last_used_at: Type.Union([Type.Null(), Type.String()]),
});

export const TokenWithSecretSchema = Type.Object({
  ...TokenSchema.properties,
  secret: Type.String(),
});

export const ServiceAccountSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: Type.String(),
  created_at: Type.String(),
});

export const RoleSchema = Type.Union([
  Type.Literal('viewer'),
  Type.Literal('maintainer'),
  Type.Literal('admin'),
]);

/** Names of tokens, users, service accounts: 1..200 characters (spec decisions). */
export const NameSchema = Type.String({ minLength: 1, maxLength: 200 });

export const NewTokenSchema = Type.Object({
  name: NameSchema,
  expires_at: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
});

export const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const PagingQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
};
