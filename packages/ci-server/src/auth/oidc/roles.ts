// Mapping an identity provider's claims to a CI role: the claim is found by a dot path (`realm_access.roles`,
// `groups`), its value (a string or a list) is matched against the provider's role map, and the highest
// matching role wins; nothing matching gives the provider's default role (or refusal when that is `none`).
import { ROLES, type Role } from '../roles.js';

export type RoleMap = Partial<Record<Role, string[]>>;
export type DefaultRole = Role | 'none';

/** The value at a dot path; a key containing dots can also be matched whole (`https://x.io/roles`). */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let cur: unknown = claims;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function claimValues(value: unknown): string[] {
  if (typeof value === 'string')
    return value
      .split(/[\s,]+/)
      .filter(Boolean)
      .concat(value);
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value))
    return value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
  return [];
}

/** The role for these claims, or undefined when the user may not sign in. */
export function mapRole(
  claims: Record<string, unknown>,
  roleClaim: string | null | undefined,
  roleMap: RoleMap,
  defaultRole: DefaultRole,
): Role | undefined {
  if (roleClaim) {
    const values = new Set(claimValues(claimAt(claims, roleClaim)));
    for (const role of [...ROLES].reverse()) {
      if ((roleMap[role] ?? []).some((v) => values.has(v))) return role;
    }
  }
  return defaultRole === 'none' ? undefined : defaultRole;
}
