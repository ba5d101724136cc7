// OIDC role mapping (pure, table-driven): dot paths, arrays, case-insensitive exact matches.
import { describe, expect, it } from 'vitest';
import { mapOidcRole, parseAdminRoles, readClaim } from '../../src/auth/role-claim.js';

const claims = {
  sub: 'u1',
  role: 'Admin',
  groups: ['staff', 'DBA'],
  realm_access: { roles: ['offline_access', 'Admin'] },
  resource_access: { portal: { roles: ['user'] } },
  'https://example.com/roles': ['admin'],
  nested: { role: 'administrator', list: [1, null, { role: 'admin' }] },
};

describe('mapOidcRole', () => {
  it.each([
    ['no claim configured', undefined, ['admin'], 'user'],
    ['string, case-insensitive', 'role', ['admin'], 'admin'],
    ['array any-match', 'groups', ['dba'], 'admin'],
    ['nested array (Keycloak realm roles)', 'realm_access.roles', ['admin'], 'admin'],
    ['deeper nesting, no match', 'resource_access.portal.roles', ['admin'], 'user'],
    ['claim name containing dots (Auth0 namespaced)', 'https://example.com/roles', ['admin'], 'admin'],
    ['exact, not substring', 'nested.role', ['admin'], 'user'],
    ['non-string elements are ignored', 'nested.list', ['admin'], 'user'],
    ['missing path', 'realm_access.missing.roles', ['admin'], 'user'],
    ['path through an array is not walked', 'groups.0', ['staff'], 'user'],
    ['one of several admin roles', 'groups', ['owner', 'staff'], 'admin'],
    ['empty admin list', 'role', [], 'user'],
  ] as const)('%s', (_name, path, admins, role) => {
    expect(mapOidcRole(claims, path, [...admins])).toBe(role);
  });

  it('parses OIDC_ADMIN_ROLES into trimmed lower-case names', () => {
    expect(parseAdminRoles(' Admin, DBA ,,ops ')).toEqual(['admin', 'dba', 'ops']);
  });

  it('does not read inherited properties', () => {
    expect(readClaim({}, 'constructor')).toBeUndefined();
    expect(readClaim({ a: {} }, 'a.toString')).toBeUndefined();
  });
});
