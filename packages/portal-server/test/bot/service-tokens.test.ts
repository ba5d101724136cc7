// Service tokens (admin): the 201 `{token, secret}` shape with a `pst_` secret shown once, only its hash at
// rest, listing without secrets, revocation, the default role, validation, audit `service_token`, who may
// call the routes, and 503 without server storage.

import { hashToken } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';
import { sqliteDatasources } from './fixtures.js';
import { type BotHarness, botPortal } from './harness.js';

let h: BotHarness;
beforeAll(async () => {
  h = await botPortal({ datasources: sqliteDatasources });
});
afterAll(async () => {
  await h?.close();
});

const admin = () => ({ cookie: `auth-token=${h.adminCookie}`, origin: ORIGIN });
const create = (payload: unknown, headers = admin()) =>
  h.server.app.inject({
    method: 'POST',
    url: '/api/admin/service-tokens',
    headers,
    payload: payload as object,
  });

describe('POST /api/admin/service-tokens', () => {
  it('answers 201 {token, secret}; the secret starts pst_ and only its hash is stored', async () => {
    const res = await create({
      name: 'deploy-bot',
      role: 'admin',
      groups: ['ops', 'ops'],
      datasources: ['prod', 'reports'],
      requireApproval: true,
      trustedApprovals: true,
    });
    expect(res.statusCode).toBe(201);
    const { token, secret } = res.json();
    expect(secret).toMatch(/^pst_[A-Za-z0-9_-]{40,}$/);
    expect(token).toMatchObject({
      name: 'deploy-bot',
      role: 'admin',
      groups: ['ops'],
      datasources: ['prod', 'reports'],
      requireApproval: true,
      trustedApprovals: true,
    });
    expect(typeof token.id).toBe('string');
    expect(Date.parse(token.created_at)).not.toBeNaN();
    const row = await h.server
      .store!.db.selectFrom('service_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    const audit = await h.auditOf('service_token');
    const created = audit.find((e) => e.tokenId === token.id);
    expect(created).toMatchObject({ actor: ADMIN.email, action: 'create', name: 'deploy-bot' });
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('defaults: role user, no groups, every datasource (null), no approvals flags', async () => {
    const res = await create({ name: 'plain' });
    expect(res.statusCode).toBe(201);
    expect(res.json().token).toMatchObject({
      role: 'user',
      groups: [],
      datasources: null,
      requireApproval: false,
      trustedApprovals: false,
    });
  });

  it('refuses malformed bodies (400) and a name already in use (409)', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(201) },
      { name: 'a', role: 'owner' },
      { name: 'a', groups: 'ops' },
      { name: 'a', datasources: ['Not An Id'] },
      { name: 'a', requireApproval: 'yes' },
      [],
    ]) {
      expect((await create(body)).statusCode).toBe(400);
    }
    expect((await create({ name: 'twin' })).statusCode).toBe(201);
    expect((await create({ name: 'TWIN' })).statusCode).toBe(409);
  });

  it('is for administrators only', async () => {
    const user = { cookie: `auth-token=${h.userCookie}`, origin: ORIGIN };
    expect((await create({ name: 'u' }, user)).statusCode).toBe(403);
    expect((await create({ name: 'u' }, { cookie: '', origin: ORIGIN })).statusCode).toBe(401);
    const list = await h.server.app.inject({
      method: 'GET',
      url: '/api/admin/service-tokens',
      headers: user,
    });
    expect(list.statusCode).toBe(403);
  });
});

describe('GET and DELETE /api/admin/service-tokens', () => {
  it('lists live tokens without secrets; a revoked token leaves the list and stops working', async () => {
    const { token, secret } = (await create({ name: 'temp-bot' })).json();
    const list = await h.server.app.inject({
      method: 'GET',
      url: '/api/admin/service-tokens',
      headers: admin(),
    });
    expect(list.statusCode).toBe(200);
    const names = list.json().tokens.map((t: { name: string }) => t.name);
    expect(names).toContain('temp-bot');
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain('token_hash');
    const del = await h.server.app.inject({
      method: 'DELETE',
      url: `/api/admin/service-tokens/${token.id}`,
      headers: admin(),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ success: true });
    const again = await h.server.app.inject({
      method: 'DELETE',
      url: `/api/admin/service-tokens/${token.id}`,
      headers: admin(),
    });
    expect(again.statusCode).toBe(404);
    const after = await h.server.app.inject({
      method: 'GET',
      url: '/api/admin/service-tokens',
      headers: admin(),
    });
    expect(after.json().tokens.map((t: { name: string }) => t.name)).not.toContain('temp-bot');
    const use = await h.server.app.inject({
      method: 'GET',
      url: '/api/v1/executions/x',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(use.statusCode).toBe(401);
    const audit = await h.auditOf('service_token');
    expect(audit.some((e) => e.tokenId === token.id && e.action === 'revoke')).toBe(true);
  });
});

describe('without server storage', () => {
  it('service tokens and the bot API answer 503', async () => {
    const server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
    try {
      const cookie = await sessionFor(server, ADMIN);
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/admin/service-tokens',
        headers: { cookie: `auth-token=${cookie}`, origin: ORIGIN },
        payload: { name: 'x' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('STORAGE_UNAVAILABLE');
      const bot = await server.app.inject({
        method: 'POST',
        url: '/api/v1/executions',
        headers: { authorization: 'Bearer pst_x' },
        payload: {},
      });
      expect(bot.statusCode).toBe(503);
    } finally {
      await server.close();
    }
  });
});
