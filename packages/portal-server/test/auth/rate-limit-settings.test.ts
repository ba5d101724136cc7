// Every rate budget of the portal is a setting (PORTAL_RATE_*, requests per minute): login per email and per
// address, database routes per person, the service-token surfaces per token, AI per person. Beyond a budget
// the answer is 429 RATE_LIMITED with Retry-After; a bad value stops the start naming the variable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPortalSettings, type PortalServer } from '../../src/index.js';
import { ADMIN, login, ORIGIN, portal, sessionFor } from './helpers.js';

const limited = (res: { statusCode: number; headers: Record<string, unknown>; json(): any }) => {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
};

describe('configurable rate limits', () => {
  let server: PortalServer;
  beforeAll(async () => {
    server = await portal({
      STORAGE_PROVIDER: 'sqlite',
      PORTAL_RATE_LOGIN_PER_EMAIL: '12',
      PORTAL_RATE_LOGIN_PER_ADDRESS: '500',
      PORTAL_RATE_DATABASE_PER_USER: '3',
      PORTAL_RATE_DATABASE_PER_TOKEN: '2',
      PORTAL_RATE_AI_PER_USER: '7',
    });
  });
  afterAll(async () => server?.close());

  it('reads each budget from its variable', () => {
    const limits = server.app.portalAuth.limits;
    expect(limits.loginPerEmail.max).toBe(12);
    expect(limits.loginPerAddress.max).toBe(500);
    expect(limits.database.max).toBe(3);
    expect(limits.serviceToken.max).toBe(2);
    expect(limits.ai.max).toBe(7);
    expect(limits.agent.max).toBe(7);
  });

  it('answers 429 with Retry-After past the database budget of a person', async () => {
    const cookie = { cookie: `auth-token=${await sessionFor(server, ADMIN)}`, origin: ORIGIN };
    const query = () =>
      server.app.inject({
        method: 'POST',
        url: '/api/db/query',
        headers: cookie,
        payload: { sql: 'select 1' },
      });
    for (let i = 0; i < 3; i++) expect((await query()).statusCode).not.toBe(429);
    limited(await query());
  });

  it('answers 429 past the per-token budget of a service token', async () => {
    const admin = { cookie: `auth-token=${await sessionFor(server, ADMIN)}`, origin: ORIGIN };
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/admin/service-tokens',
      headers: admin,
      payload: { name: 'busy-bot', role: 'user' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const auth = { authorization: `Bearer ${created.json().secret}` };
    const read = () =>
      server.app.inject({ url: '/api/v1/executions/00000000-0000-4000-8000-000000000000', headers: auth });
    for (let i = 0; i < 2; i++) expect((await read()).statusCode).toBe(404);
    limited(await read());
  });

  it('answers 429 past the login budget of an email', async () => {
    for (let i = 0; i < 12; i++)
      expect((await login(server, { email: 'nobody@example.test', password: 'wrong' })).statusCode).not.toBe(
        429,
      );
    limited(await login(server, { email: 'nobody@example.test', password: 'wrong' }));
  });

  it('refuses a budget that is not a positive integer, naming the variable', () => {
    expect(() => loadPortalSettings({ JWT_SECRET: 'x'.repeat(40), PORTAL_RATE_AI_PER_USER: '0' })).toThrow(
      /PORTAL_RATE_AI_PER_USER/,
    );
  });
});
