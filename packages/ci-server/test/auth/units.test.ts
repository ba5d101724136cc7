// Table-driven tests of the pure pieces: role mapping from claims, provider definitions, safe redirect
// targets, audit field filtering, RFC 3339 parsing, the sign-in limiter's window, password hashing.
import { describe, expect, it } from 'vitest';
import { actionOf, safeFields } from '../../src/auth/audit.js';
import { safeTarget } from '../../src/auth/oidc/flow.js';
import { parseProviderDefinition } from '../../src/auth/oidc/provider-config.js';
import { claimAt, mapRole } from '../../src/auth/oidc/roles.js';
import { hashPassword, verifyPassword } from '../../src/auth/passwords.js';
import { LoginLimiter } from '../../src/auth/rate-limit.js';
import { looksLikeToken, mintToken } from '../../src/auth/tokens.js';
import { parseRfc3339 } from '../../src/auth/views.js';

describe('role mapping', () => {
  const map = { admin: ['ci-admins'], maintainer: ['ci-devs', 'ops'] };
  it.each([
    [{ groups: ['ci-devs'] }, 'groups', 'maintainer'],
    [{ groups: ['ci-devs', 'ci-admins'] }, 'groups', 'admin'],
    [{ groups: [] }, 'groups', 'viewer'],
    [{}, 'groups', 'viewer'],
    [{ realm_access: { roles: ['ops'] } }, 'realm_access.roles', 'maintainer'],
    [{ 'https://ci.example/roles': ['ci-admins'] }, 'https://ci.example/roles', 'admin'],
    [{ role: 'ci-admins' }, 'role', 'admin'],
    [{ groups: 'staff ops' }, 'groups', 'maintainer'],
    [{ groups: ['ci-admins'] }, null, 'viewer'],
  ] as const)('%j via %s → %s', (claims, claim, role) => {
    expect(mapRole(claims as Record<string, unknown>, claim, map, 'viewer')).toBe(role);
  });

  it('refuses when nothing matches and the default is none', () => {
    expect(mapRole({ groups: ['x'] }, 'groups', map, 'none')).toBeUndefined();
    expect(mapRole({ groups: ['ops'] }, 'groups', map, 'none')).toBe('maintainer');
  });

  it('walks dot paths only through objects', () => {
    expect(claimAt({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
    expect(claimAt({ a: [{ b: 1 }] }, 'a.0.b')).toBeUndefined();
    expect(claimAt({ a: 'x' }, 'a.b')).toBeUndefined();
  });
});

describe('provider definitions', () => {
  const base = { name: 'corp', issuer: 'https://sso.example.com', client_id: 'ci' };
  it('normalises a minimal definition', () => {
    const parsed = parseProviderDefinition(base);
    expect(parsed).toEqual({
      ok: true,
      value: {
        ...base,
        display: 'corp',
        scopes: ['openid', 'profile', 'email'],
        role_claim: null,
        role_map: {},
        default_role: 'viewer',
      },
    });
    const withScopes = parseProviderDefinition({ ...base, scopes: 'profile groups' });
    expect(withScopes.ok && withScopes.value.scopes).toEqual(['openid', 'profile', 'groups']);
  });

  it.each([
    [{ ...base, name: 'Bad Name' }, /name must be/],
    [{ ...base, name: 'oidc' }, /reserved/],
    [{ ...base, issuer: 'http://sso.example.com' }, /https/],
    [{ ...base, issuer: 'not a url' }, /absolute URL/],
    [{ ...base, client_id: undefined }, /client_id is required/],
    [{ ...base, role_map: { owner: ['x'] } }, /not a role/],
    [{ ...base, role_map: { admin: 'x' } }, null],
    [{ ...base, default_role: 'root' }, /default_role/],
    [{ ...base, issuer: 'http://127.0.0.1:9000' }, null],
    ['nope', /object/],
  ])('%j', (input, problem) => {
    const parsed = parseProviderDefinition(input);
    if (problem === null) expect(parsed.ok).toBe(true);
    else expect(parsed.ok ? '' : parsed.problems.join('; ')).toMatch(problem);
  });
});

describe('redirect targets after sign-in', () => {
  it.each([
    ['/projects/x?tab=runs', '/projects/x?tab=runs'],
    ['https://evil.example/', '/'],
    ['//evil.example/', '/'],
    ['/\\evil.example', '/'],
    ['relative', '/'],
    [undefined, '/'],
    ['/a\nb', '/'],
  ])('%s → %s', (input, expected) => expect(safeTarget(input)).toBe(expected));
});

describe('audit details', () => {
  it('keeps scalar fields whose names do not suggest secrets', () => {
    expect(
      safeFields({
        name: 'x',
        role: 'admin',
        password: 'p',
        new_password: 'p',
        value: 'v',
        client_secret: 's',
        yaml: 'big',
        nested: { a: 1 },
        n: 3,
      }),
    ).toEqual({ name: 'x', role: 'admin', n: 3 });
    expect(safeFields({ value: 'v' })).toBeUndefined();
    expect(safeFields('text')).toBeUndefined();
    expect(String(safeFields({ name: 'y'.repeat(500) })!.name).length).toBe(201);
  });

  it('writes actions as route patterns', () => {
    expect(actionOf('PUT', '/api/v1/admin/users/:id/role')).toBe('PUT /api/v1/admin/users/{id}/role');
  });
});

describe('RFC 3339', () => {
  it.each([
    ['2025-01-02T03:04:05Z', '2025-01-02T03:04:05.000Z'],
    ['2025-01-02T03:04:05.123+02:00', '2025-01-02T01:04:05.123Z'],
    ['2025-01-02 03:04:05z', '2025-01-02T03:04:05.000Z'],
    ['2025-01-02T03:04:05', undefined],
    ['2025-01-02', undefined],
    ['2025-13-02T03:04:05Z', undefined],
    ['soon', undefined],
  ])('%s → %s', (input, expected) => expect(parseRfc3339(input)).toBe(expected));
});

describe('sign-in limiter', () => {
  it('counts failures per user and per address within a window', () => {
    let now = 0;
    const limiter = new LoginLimiter({ perUser: 2, perAddress: 3, windowMs: 1000, now: () => now });
    limiter.recordFailure('Ann', 'a1');
    expect(limiter.retryAfter('ann', 'a2')).toBe(0);
    limiter.recordFailure('ann', 'a1');
    expect(limiter.retryAfter('ANN', 'a2')).toBe(1);
    limiter.recordFailure('bob', 'a1');
    expect(limiter.retryAfter('carl', 'a1')).toBe(1);
    expect(limiter.retryAfter('carl', 'a3')).toBe(0);
    now = 1000;
    expect(limiter.retryAfter('ann', 'a1')).toBe(0);
    limiter.recordFailure('dora', 'a9');
    limiter.recordSuccess('dora');
    limiter.recordFailure('dora', 'a9');
    expect(limiter.retryAfter('dora', 'a8')).toBe(0);
  });

  it('keeps memory bounded', () => {
    const limiter = new LoginLimiter({ perUser: 1, perAddress: 100, windowMs: 60_000, maxKeys: 10 });
    for (let i = 0; i < 100; i++) limiter.recordFailure(`u${i}`, 'a');
    expect(limiter.retryAfter('u99', 'b')).toBeGreaterThan(0);
    expect(limiter.retryAfter('u0', 'b')).toBe(0);
  });
});

describe('secrets at rest', () => {
  it('hashes passwords with scrypt and verifies them', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery!', hash)).toBe(false);
    expect(await verifyPassword('x', 'md5$abc')).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
  });

  it('mints tokens with their prefixes and 32 random bytes', () => {
    const user = mintToken('user');
    const sa = mintToken('service_account');
    expect(user.secret).toMatch(/^ci_[A-Za-z0-9_-]{43}$/);
    expect(sa.secret).toMatch(/^cisa_[A-Za-z0-9_-]{43}$/);
    expect(user.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(user.prefix).toBe(user.secret.slice(0, 11));
    expect(looksLikeToken(user.secret) && looksLikeToken(sa.secret)).toBe(true);
    expect(looksLikeToken('ci_short')).toBe(false);
  });
});
