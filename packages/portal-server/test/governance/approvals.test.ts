// The approval state table on both stores (SQLite and PostgreSQL): one and two distinct reviewers, no
// self-approval, reviewers from approverRoles (roles, names, emails, chat ids) or administrators, the window
// (1..240 minutes, default 15) in which the exact approved text by its requester may run, expiry after
// APPROVAL_TTL_HOURS, 409 for decided or repeated decisions, 503 without storage, concurrent deciders.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ApprovalDirectory,
  ApprovalService,
  type DecisionEvent,
} from '../../src/governance/approvals.js';
import { ApprovalRepository } from '../../src/storage/approvals.js';
import type { PortalStore } from '../../src/storage/store.js';
import { openStore } from '../storage/helpers.js';
import { clock } from './policy-harness.js';

const DIRECTORY: ApprovalDirectory = {
  get: (id) =>
    ({
      one: { id: 'one', name: 'One', approvalsRequired: 1 as const, approverRoles: [] },
      two: {
        id: 'two',
        name: 'Two',
        approvalsRequired: 2 as const,
        approverRoles: ['lead@example.com', 'user', 'chat:U123'],
      },
      named: { id: 'named', name: 'Named', approvalsRequired: 1 as const, approverRoles: ['Carol'] },
    })[id],
  list() {
    return ['one', 'two', 'named'].map((id) => this.get(id)!);
  },
};

const ALICE = { username: 'alice', role: 'user' as const };
const BOB = { username: 'bob', role: 'user' as const };
const CAROL = { username: 'carol', role: 'user' as const };
const ROOT = { username: 'root', role: 'admin' as const };
const ROOT2 = { username: 'root2', role: 'admin' as const };
const LEAD = { username: 'Lead@Example.com', role: 'user' as const };
const CHAT = { username: 'chat:U123' };

describe.each(['sqlite', 'postgres'] as const)('ApprovalService on %s', (kind) => {
  let store: PortalStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  async function service(ttlHours = 24) {
    store = (await openStore(kind)).store;
    const c = clock();
    const events: Array<Record<string, unknown>> = [];
    const svc = new ApprovalService({
      repository: new ApprovalRepository(store.db, () => c.now),
      ttlHours,
      directory: DIRECTORY,
      audit: { record: (e) => void events.push(e) },
      now: () => c.now,
    });
    const decided: DecisionEvent[] = [];
    svc.onDecided((e) => void decided.push(e));
    const ask = (ds: string, requester = 'alice', statement = 'DELETE FROM t WHERE id = 1') =>
      svc.request({
        datasource: { id: ds, name: ds },
        requester,
        statement,
        route: 'query',
        guardrail: 'delete',
      });
    return { svc, c, events, decided, ask };
  }

  it('one reviewer: approve sets the window; the exact text by its requester runs until it closes', async () => {
    const { svc, c, ask, decided } = await service();
    const a = await ask('one');
    expect(a).toMatchObject({
      status: 'pending',
      requester: 'alice',
      guardrail: 'delete',
      datasourceName: 'one',
    });
    const done = await svc.decide({
      id: a.id,
      reviewer: ROOT,
      decision: 'approve',
      windowMinutes: 30,
      note: 'ok',
    });
    expect(done).toMatchObject({ status: 'approved', reviewer: 'root', note: 'ok' });
    expect(done.windowUntil).toBe(new Date(c.now.getTime() + 30 * 60_000).toISOString());
    expect(decided).toMatchObject([{ decision: 'approve', final: true }]);
    const q = {
      datasourceId: 'one',
      requester: 'alice',
      statement: 'DELETE FROM t WHERE id = 1',
      route: 'query',
    };
    expect((await svc.findOpenWindow(q))?.id).toBe(a.id);
    expect(await svc.findOpenWindow({ ...q, requester: 'bob' })).toBeUndefined();
    // A window belongs to its route (and so to its principal kind: `bot` is token-only).
    expect(await svc.findOpenWindow({ ...q, route: 'bot' })).toBeUndefined();
    expect(await svc.findOpenWindow({ ...q, route: 'multi-query' })).toBeUndefined();
    expect(await svc.findOpenWindow({ ...q, statement: 'DELETE FROM t WHERE id = 1 ' })).toBeUndefined();
    c.advanceMinutes(30);
    expect((await svc.findOpenWindow(q))?.id).toBe(a.id);
    c.advanceMinutes(1);
    expect(await svc.findOpenWindow(q)).toBeUndefined();
  });

  it('the default window is 15 minutes; windows outside 1..240 are 400', async () => {
    const { svc, c, ask } = await service();
    const a = await ask('one');
    for (const windowMinutes of [0, 241, 1.5]) {
      await expect(
        svc.decide({ id: a.id, reviewer: ROOT, decision: 'approve', windowMinutes }),
      ).rejects.toMatchObject({
        statusCode: 400,
      });
    }
    await expect(
      svc.decide({ id: a.id, reviewer: ROOT, decision: 'approve', note: 'x'.repeat(2001) }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const done = await svc.decide({ id: a.id, reviewer: ROOT, decision: 'approve' });
    expect(Date.parse(done.windowUntil!) - c.now.getTime()).toBe(15 * 60_000);
  });

  it('two reviewers: the first approval keeps it pending, the same reviewer again is 409, another approves', async () => {
    const { svc, ask, decided } = await service();
    const a = await ask('two');
    const first = await svc.decide({ id: a.id, reviewer: LEAD, decision: 'approve' });
    expect(first.status).toBe('pending');
    expect(first.approvals).toEqual([{ reviewer: 'Lead@Example.com', at: expect.any(String) }]);
    expect(first.windowUntil).toBeUndefined();
    await expect(
      svc.decide({ id: a.id, reviewer: { username: 'lead@example.com', role: 'user' }, decision: 'approve' }),
    ).rejects.toMatchObject({ statusCode: 409 });
    const second = await svc.decide({ id: a.id, reviewer: CHAT, decision: 'approve', windowMinutes: 5 });
    expect(second.status).toBe('approved');
    expect(second.reviewer).toBe('chat:U123');
    expect(second.approvals?.map((m) => m.reviewer)).toEqual(['Lead@Example.com', 'chat:U123']);
    expect(decided.map((d) => d.final)).toEqual([false, true]);
    await expect(svc.decide({ id: a.id, reviewer: ROOT, decision: 'reject' })).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('a reject after one of two approvals rejects', async () => {
    const { svc, ask } = await service();
    const a = await ask('two');
    await svc.decide({ id: a.id, reviewer: ROOT, decision: 'approve' });
    const r = await svc.decide({ id: a.id, reviewer: ROOT2, decision: 'reject', note: 'no' });
    expect(r).toMatchObject({ status: 'rejected', reviewer: 'root2', note: 'no' });
    expect(r.windowUntil).toBeUndefined();
  });

  it('no self-approval or self-rejection, not even for administrators (403, audited)', async () => {
    const { svc, ask, events } = await service();
    const a = await ask('one', 'root');
    for (const decision of ['approve', 'reject'] as const) {
      await expect(svc.decide({ id: a.id, reviewer: ROOT, decision })).rejects.toMatchObject({
        statusCode: 403,
      });
    }
    // Names compare case-insensitively.
    const b = await ask('two', 'Lead@example.COM');
    await expect(svc.decide({ id: b.id, reviewer: LEAD, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(events.filter((e) => e.type === 'permission_denied')).toHaveLength(3);
  });

  it('reviewers: approverRoles by role, name, email or chat id, else administrators only (403 audited)', async () => {
    const { svc, ask, events } = await service();
    const one = await ask('one');
    await expect(svc.decide({ id: one.id, reviewer: BOB, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(svc.decide({ id: one.id, reviewer: CHAT, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect(events.at(-1)).toMatchObject({ type: 'permission_denied', actor: 'chat:U123', result: 'failure' });
    const named = await ask('named');
    expect((await svc.decide({ id: named.id, reviewer: CAROL, decision: 'reject' })).status).toBe('rejected');
    const two = await ask('two', 'carol');
    // `user` is a role in approverRoles: bob qualifies.
    expect((await svc.decide({ id: two.id, reviewer: BOB, decision: 'approve' })).status).toBe('pending');
    // Connections a user created (no managed policy): one reviewer, administrators.
    const mine = await ask('my-own-connection');
    await expect(svc.decide({ id: mine.id, reviewer: BOB, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect((await svc.decide({ id: mine.id, reviewer: ROOT, decision: 'approve' })).status).toBe('approved');
    expect(svc.canReview(CHAT, 'two')).toBe(true);
    expect(svc.canRead(ALICE, mine)).toBe(true);
    expect(svc.canRead(BOB, mine)).toBe(false);
  });

  it('unknown ids are 404; pending requests expire after the TTL (on read) and then answer 409', async () => {
    const { svc, c, ask } = await service(2);
    await expect(svc.decide({ id: 'nope', reviewer: ROOT, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 404,
    });
    const a = await ask('one');
    c.advanceMinutes(119);
    expect((await svc.get(a.id))?.status).toBe('pending');
    c.advanceMinutes(2);
    expect((await svc.get(a.id))?.status).toBe('expired');
    await expect(svc.decide({ id: a.id, reviewer: ROOT, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 409,
    });
    // The timer path expires too.
    const b = await ask('one', 'bob');
    c.advanceMinutes(121);
    expect(await svc.expire()).toBe(1);
    expect((await svc.get(b.id))?.status).toBe('expired');
  });

  it('a retry of the same held text reuses the pending request when asked to', async () => {
    const { svc } = await service();
    const input = {
      datasource: { id: 'one', name: 'One' },
      requester: 'alice',
      statement: 'DROP TABLE t',
      route: 'query',
      reusePending: true,
    };
    const a = await svc.request(input);
    expect((await svc.request(input)).id).toBe(a.id);
    expect((await svc.request({ ...input, reusePending: false })).id).not.toBe(a.id);
    expect((await svc.request({ ...input, requester: 'bob' })).id).not.toBe(a.id);
  });

  it('lists what the caller reviews (pending first) and, with scope mine, what the caller asked', async () => {
    const { svc, c, ask } = await service();
    const p1 = await ask('one');
    c.advanceMinutes(1);
    const p2 = await ask('two', 'bob');
    c.advanceMinutes(1);
    const p3 = await ask('named', 'bob');
    await svc.decide({ id: p1.id, reviewer: ROOT, decision: 'reject' });
    const root = await svc.list(ROOT, { scope: 'review', limit: 100, offset: 0 });
    expect(root.map((a) => a.id)).toEqual([p2.id, p3.id, p1.id]);
    expect((await svc.list(CAROL, { scope: 'review', limit: 100, offset: 0 })).map((a) => a.id)).toEqual([
      p2.id,
      p3.id,
    ]);
    expect((await svc.list(CHAT, { scope: 'review', limit: 100, offset: 0 })).map((a) => a.id)).toEqual([
      p2.id,
    ]);
    expect((await svc.list(BOB, { scope: 'mine', limit: 100, offset: 0 })).map((a) => a.id)).toEqual([
      p2.id,
      p3.id,
    ]);
  });

  it('two reviewers deciding at once: one wins, the other gets 409', async () => {
    const { svc, ask } = await service();
    const a = await ask('one');
    const results = await Promise.allSettled([
      svc.decide({ id: a.id, reviewer: ROOT, decision: 'approve' }),
      svc.decide({ id: a.id, reviewer: ROOT2, decision: 'reject' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ statusCode: 409 });
  });

  it('records a trusted bot approval as approved with approvedBy kept', async () => {
    const { svc } = await service();
    const a = await svc.createApproved(
      {
        datasource: { id: 'one', name: 'One' },
        requester: 'alice',
        statement: 'UPDATE t SET a = 1 WHERE id = 2',
        route: 'bot',
        approvedBy: [{ reviewer: 'dave', at: '2030-01-01T00:00:00Z' }],
      },
      'token:deploy-bot',
    );
    expect(a).toMatchObject({
      status: 'approved',
      reviewer: 'token:deploy-bot',
      approvedBy: [{ reviewer: 'dave' }],
    });
  });
});

describe('ApprovalService without server storage', () => {
  it('answers 503 for every operation', async () => {
    const svc = new ApprovalService({ repository: undefined, ttlHours: 24, directory: DIRECTORY });
    expect(svc.available).toBe(false);
    await expect(svc.decide({ id: 'x', reviewer: ROOT, decision: 'approve' })).rejects.toMatchObject({
      statusCode: 503,
    });
    await expect(
      svc.request({ datasource: { id: 'one', name: 'One' }, requester: 'a', statement: 's', route: 'query' }),
    ).rejects.toMatchObject({ statusCode: 503 });
    await expect(svc.list(ROOT, { scope: 'review', limit: 1, offset: 0 })).rejects.toMatchObject({
      statusCode: 503,
    });
    expect(await svc.expire()).toBe(0);
  });
});
