// The audit routes through the real server and its guard: the spec's exact 403 for no session and for a
// non-admin, and a working query for an administrator.
import { describe, expect, it } from 'vitest';
import { ADMIN, ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';

const DENIED = { error: 'Unauthorized. Admin access required.' };

describe('audit routes behind the guard', () => {
  it('answer exactly 403 without a session and for a non-admin, and 200 for an admin', async () => {
    const server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
    try {
      for (const method of ['GET', 'POST'] as const) {
        const anon = await server.app.inject({
          method,
          url: '/api/admin/audit',
          headers: { origin: ORIGIN },
          payload: method === 'POST' ? { type: 'x' } : undefined,
        });
        expect(anon.statusCode).toBe(403);
        expect(anon.json()).toEqual(DENIED);
      }
      const user = await sessionFor(server, USER);
      const asUser = await server.app.inject({
        method: 'GET',
        url: '/api/admin/audit',
        cookies: { 'auth-token': user },
      });
      expect(asUser.statusCode).toBe(403);
      expect(asUser.json()).toEqual(DENIED);
      const admin = await sessionFor(server, ADMIN);
      const ok = await server.app.inject({
        method: 'GET',
        url: '/api/admin/audit?limit=5',
        cookies: { 'auth-token': admin },
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ limit: 5, offset: 0 });
      expect(Array.isArray(ok.json().events)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
