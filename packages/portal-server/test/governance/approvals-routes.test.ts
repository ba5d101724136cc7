// The approval routes of decisions.md over HTTP: GET /api/approvals (?scope=mine), GET /api/approvals/{id}
// (requester or reviewer, else 404), POST /api/approvals/{id}/decision with every status the spec names
// (400, 401, 403, 404, 409, 503), and the record shape (no storage bookkeeping).
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalService } from '../../src/governance/approvals.js';
import { registerApprovalRoutes } from '../../src/http/approvals.js';
import { ApprovalRepository } from '../../src/storage/approvals.js';
import type { PortalStore } from '../../src/storage/store.js';
import { as, fakeSessions, testApp } from '../audit/fake-session.js';
import { clock, directoryFor, managedDs, sqliteStore } from './policy-harness.js';

const MANAGED = [
  managedDs(
    'prod',
    { type: 'postgres' },
    { approvalsRequired: 2, approverRoles: ['lead', 'ops@example.com'] },
  ),
  managedDs('dev', { type: 'postgres' }, {}),
];

describe('approval routes', () => {
  let store: PortalStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function app(withStore = true) {
    store = withStore ? await sqliteStore() : undefined;
    const c = clock();
    const approvals = new ApprovalService({
      repository: store ? new ApprovalRepository(store.db, () => c.now) : undefined,
      ttlHours: 24,
      directory: directoryFor(MANAGED),
      now: () => c.now,
    });
    const a = testApp();
    registerApprovalRoutes(a, { sessions: fakeSessions, approvals });
    await a.ready();
    const ask = (ds: string, requester: string, statement = 'DELETE FROM t WHERE id = 1') =>
      approvals.request({
        datasource: { id: ds, name: ds },
        requester,
        statement,
        route: 'query',
        guardrail: 'delete',
      });
    const decide = (id: string, who: string, payload: unknown) =>
      a.inject({
        method: 'POST',
        url: `/api/approvals/${id}/decision`,
        headers: as(who),
        payload: payload as object,
      });
    return { a, ask, decide, c };
  }

  it('needs a session (401) and then server storage (503)', async () => {
    const { a } = await app(false);
    expect((await a.inject({ method: 'GET', url: '/api/approvals' })).statusCode).toBe(401);
    const res = await a.inject({ method: 'GET', url: '/api/approvals', headers: as('user:bob') });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'STORAGE_UNAVAILABLE', statusCode: 503 });
    const d = await a.inject({
      method: 'POST',
      url: '/api/approvals/x/decision',
      headers: as('admin:root'),
      payload: { decision: 'approve' },
    });
    expect(d.statusCode).toBe(503);
  });

  it('lists for reviewers, scope=mine for requesters, reads one for requester or reviewer only', async () => {
    const { a, ask, c } = await app();
    const mine = await ask('prod', 'alice');
    c.advanceMinutes(1);
    const other = await ask('dev', 'bob');
    const list = (who: string, q = '') =>
      a.inject({ method: 'GET', url: `/api/approvals${q}`, headers: as(who) }).then((r) => r.json());
    expect((await list('admin:root')).approvals.map((x: { id: string }) => x.id)).toEqual([
      mine.id,
      other.id,
    ]);
    // `ops@example.com` is named on prod only; alice reviews nothing.
    expect((await list('user:ops@example.com')).approvals.map((x: { id: string }) => x.id)).toEqual([
      mine.id,
    ]);
    expect((await list('user:alice')).approvals).toEqual([]);
    const own = await list('user:alice', '?scope=mine');
    expect(own.approvals).toHaveLength(1);
    expect(own.approvals[0]).toMatchObject({
      id: mine.id,
      datasourceId: 'prod',
      datasourceName: 'prod',
      requester: 'alice',
      statement: 'DELETE FROM t WHERE id = 1',
      route: 'query',
      status: 'pending',
      guardrail: 'delete',
      requestedAt: expect.any(String),
    });
    expect(own.approvals[0].version).toBeUndefined();
    const bad = await a.inject({ method: 'GET', url: '/api/approvals?limit=0', headers: as('user:alice') });
    expect(bad.statusCode).toBe(400);

    const read = (id: string, who: string) =>
      a.inject({ method: 'GET', url: `/api/approvals/${id}`, headers: as(who) });
    expect((await read(mine.id, 'user:alice')).json()).toMatchObject({ id: mine.id });
    expect((await read(mine.id, 'user:ops@example.com')).statusCode).toBe(200);
    expect((await read(mine.id, 'user:lead')).statusCode).toBe(200); // a user name in approverRoles
    expect((await read(mine.id, 'user:carol')).statusCode).toBe(404);
    expect((await read(mine.id, 'user:bob')).statusCode).toBe(404);
    expect((await read('unknown', 'admin:root')).statusCode).toBe(404);
  });

  it('decides: 400 malformed, 403 non-reviewer and self, 404 unknown, 409 twice and decided', async () => {
    const { ask, decide } = await app();
    const a = await ask('prod', 'alice');
    expect((await decide(a.id, 'admin:root', { decision: 'maybe' })).statusCode).toBe(400);
    expect((await decide(a.id, 'admin:root', { decision: 'approve', windowMinutes: 500 })).statusCode).toBe(
      400,
    );
    expect((await decide(a.id, 'admin:root', { decision: 'approve', windowMinutes: '5' })).statusCode).toBe(
      400,
    );
    expect((await decide(a.id, 'admin:root', { decision: 'approve', note: 5 })).statusCode).toBe(400);
    expect((await decide('nope', 'admin:root', { decision: 'approve' })).statusCode).toBe(404);
    expect((await decide(a.id, 'user:bob', { decision: 'approve' })).statusCode).toBe(403);
    const b = await ask('prod', 'ops@example.com');
    const self = await decide(b.id, 'user:ops@example.com', { decision: 'approve' });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toMatch(/own request/);

    const first = await decide(a.id, 'user:ops@example.com', { decision: 'approve', note: 'looks fine' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'pending', approvals: [{ reviewer: 'ops@example.com' }] });
    const again = await decide(a.id, 'user:ops@example.com', { decision: 'approve' });
    expect(again.statusCode).toBe(409);
    const second = await decide(a.id, 'admin:root', { decision: 'approve', windowMinutes: 60 });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({
      status: 'approved',
      reviewer: 'root',
      windowUntil: expect.any(String),
    });
    const late = await decide(a.id, 'admin:root2', { decision: 'reject' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'CONFLICT', approval: { status: 'approved' } });
  });
});
