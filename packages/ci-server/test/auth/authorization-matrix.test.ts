// The authorisation matrix, generated from the server's own route table: every registered route is called
// by every kind of caller and must answer exactly what its declared access implies — 401 for anonymous,
// revoked and expired credentials, 403 for a role below the minimum, and otherwise neither (the handler runs
// and answers 400/404 for the well-formed but unknown identifiers used here). Public routes answer every
// caller alike. A new route is covered automatically; one under /api/v1 without a declared access fails the
// build.
import { randomUUID } from 'node:crypto';
import { createApp } from '@app/kit';
import { afterAll, describe, expect, it } from 'vitest';
import { recordRouteTable, routeTable } from '../../src/auth/index.js';
import {
  MissingAccessError,
  ROLES,
  type Role,
  registerAccessControl,
  roleAtLeast,
} from '../../src/http/access.js';
import {
  ADMIN_PASSWORD,
  asSession,
  asToken,
  createToken,
  createUser,
  login,
  startAuthServer,
} from './helpers.js';

type Caller = { name: string; headers: Record<string, string>; role: Role | 'anonymous' | 'invalid' };

const server = await startAuthServer();
afterAll(() => server.close());

const admin = asSession(await login(server, 'admin', ADMIN_PASSWORD));
const callers: Caller[] = [{ name: 'anonymous', headers: {}, role: 'anonymous' }];
for (const role of ROLES) {
  const user = await createUser(server, admin, `matrix-${role}`, role);
  const session = asSession(await login(server, `matrix-${role}`, user.password));
  callers.push({ name: `${role} session`, headers: session, role });
  const token = await createToken(server, session, `${role} token`);
  callers.push({ name: `${role} token`, headers: asToken(token.secret), role });
  const sa = await server.app.inject({
    method: 'POST',
    url: '/api/v1/admin/service-accounts',
    headers: admin,
    payload: { name: `matrix-sa-${role}`, role },
  });
  const saToken = await server.app.inject({
    method: 'POST',
    url: `/api/v1/admin/service-accounts/${sa.json().id}/tokens`,
    headers: admin,
    payload: { name: 'matrix' },
  });
  callers.push({ name: `${role} service-account token`, headers: asToken(saToken.json().secret), role });
}
{
  const holder = asSession(await login(server, 'matrix-admin', 'matrix-admin-password-123'));
  const revoked = await createToken(server, holder, 'revoked');
  const del = await server.app.inject({
    method: 'DELETE',
    url: `/api/v1/account/api-tokens/${revoked.id}`,
    headers: holder,
  });
  expect(del.statusCode).toBe(204);
  callers.push({ name: 'revoked admin token', headers: asToken(revoked.secret), role: 'invalid' });
  const expired = await createToken(
    server,
    holder,
    'expired',
    new Date(Date.now() + 3_600_000).toISOString(),
  );
  // Expiry is in the past from now on (set in the store rather than waiting for it).
  await server.database.db
    .updateTable('api_tokens')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', expired.id)
    .execute();
  callers.push({ name: 'expired admin token', headers: asToken(expired.secret), role: 'invalid' });
}

/** A well-formed value nobody has: the handler must answer 404/400 rather than reveal anything. */
function fill(url: string): string {
  return url
    .replace(/:slug/g, 'no-such-project')
    .replace(/:name/g, 'NO_SUCH_NAME')
    .replace(/:provider/g, 'no-such-provider')
    .replace(/:scm/g, 'github')
    .replace(/:[A-Za-z]+/g, () => randomUUID())
    .replace(/\*/g, 'nothing');
}

// Logging out ends the session used for it, so it runs last.
const routes = routeTable(server.app).sort(
  (a, b) => Number(a.url === '/auth/logout') - Number(b.url === '/auth/logout'),
);

describe('authorisation matrix', () => {
  it('covers the whole API and every route under /api/v1 declares its access', () => {
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.filter((r) => r.url.startsWith('/api/v1') && r.access === undefined);
    expect(undeclared).toEqual([]);
    expect(callers).toHaveLength(12);
  });

  for (const route of routes) {
    const access = route.access ?? 'public';
    it(`${route.method} ${route.url} (${access})`, async () => {
      const url = fill(route.url);
      const results: Record<string, number> = {};
      for (const caller of callers) {
        const res = await server.app.inject({
          method: route.method as 'GET',
          url,
          headers: caller.headers,
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
        });
        results[caller.name] = res.statusCode;
        if (res.statusCode === 401 || res.statusCode === 403) expect(res.json()).toHaveProperty('error');
      }
      const expected: Record<string, number | string> = {};
      for (const caller of callers) {
        const got = results[caller.name];
        if (access === 'public') expected[caller.name] = results.anonymous;
        else if (caller.role === 'anonymous' || caller.role === 'invalid') expected[caller.name] = 401;
        else if (access !== 'authenticated' && !roleAtLeast(caller.role, access)) expected[caller.name] = 403;
        else expected[caller.name] = got === 401 || got === 403 ? 'not 401/403' : got;
      }
      expect(results).toEqual(expected);
    });
  }
});

describe('a route without declared access', () => {
  it('is refused when added to the real server', async () => {
    const fresh = await startAuthServer();
    try {
      expect(() => fresh.app.get('/api/v1/forgotten', async () => 'oops')).toThrow(MissingAccessError);
    } finally {
      await fresh.close();
    }
  });

  it('makes a server that registers it in a plugin fail to build', async () => {
    const app = createApp({ service: 'test', errorShape: 'ci', logger: false });
    registerAccessControl(app, () => async () => {});
    recordRouteTable(app);
    app.register(async (scope) => {
      scope.post('/api/v1/things/:id/forgotten', async () => 'oops');
    });
    await expect(app.ready()).rejects.toThrow(/declares no access/);
  });
});

describe('with CI_AUTH_ENABLED=false', () => {
  it('opens every route to anonymous callers', async () => {
    const open = await startAuthServer({ CI_AUTH_ENABLED: 'false' });
    try {
      for (const route of routeTable(open.app)) {
        const res = await open.app.inject({
          method: route.method as 'GET',
          url: fill(route.url),
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
        });
        expect([401, 403], `${route.method} ${route.url}`).not.toContain(res.statusCode);
      }
      const me = await open.app.inject({ method: 'GET', url: '/api/v1/me' });
      expect(me.json()).toMatchObject({ username: 'anonymous', role: 'admin' });
    } finally {
      await open.close();
    }
  });
});
