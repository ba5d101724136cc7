// OIDC role mapping (pure): read the claim named by OIDC_ROLE_CLAIM (dot notation for nested claims) and map
// it to `admin` when it matches one of OIDC_ADMIN_ROLES — any element of an array, or a string — compared
// case-insensitively and exactly; anything else, or no claim configured, gives `user`.
import type { Role } from './session.js';

/** Splits OIDC_ADMIN_ROLES (`admin, DBA`) into lower-cased names. */
export function parseAdminRoles(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
}

/**
 * The value at `path`. A claim whose own name contains dots (e.g. `https://example.com/roles`, as Auth0
 * namespaces them) is found first under its full name; otherwise the path walks nested objects.
 */
export function readClaim(claims: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let cur: unknown = claims;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, part)) {
      return undefined;
    }
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function mapOidcRole(
  claims: Record<string, unknown>,
  roleClaim: string | undefined,
  adminRoles: readonly string[],
): Role {
  if (!roleClaim) return 'user';
  const value = readClaim(claims, roleClaim);
  const admin = new Set(adminRoles.map((r) => r.toLowerCase()));
  const matches = (v: unknown) => typeof v === 'string' && admin.has(v.toLowerCase());
  if (Array.isArray(value)) return value.some(matches) ? 'admin' : 'user';
  return matches(value) ? 'admin' : 'user';
}
