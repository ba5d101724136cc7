// The bot request table on both storage dialects: round trip of every field, compare-and-set updates, the
// merge helper, and the two reconciler queries (pending requests whose approval settled; approved requests
// with no run queued). Also the run job's at-most-once rule: a run that began and left no outcome is `lost`.
import { afterEach, describe, expect, it } from 'vitest';
import { BotRequestRepository } from '../../src/bot/store.js';
import { openStore, type StoreKind } from '../storage/helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe.each(['sqlite', 'postgres'] as StoreKind[])('BotRequestRepository on %s', (kind) => {
  async function repo() {
    const { store } = await openStore(kind);
    closers.push(() => store.close());
    return { store, requests: new BotRequestRepository(store.db) };
  }

  it('stores and reads back every field', async () => {
    const { requests } = await repo();
    const created = await requests.create({
      tokenId: 't1',
      tokenName: 'bot',
      datasourceId: 'ds',
      statement: 'SELECT 1',
      onBehalfOf: 'alice',
      status: 'pending',
      hold: 'review',
      approvalId: 'a1',
      guardrail: 'delete',
      reviewReason: 'why',
      approvedBy: [{ reviewer: 'r', at: '2030-01-01T00:00:00.000Z' }],
      ticket: 'T-1',
      reply: { channel: 'C1', threadTs: '1.2' },
      callbackUrl: 'https://h/x',
    });
    const read = await requests.get(created.id);
    expect(read).toEqual(created);
    expect(read).toMatchObject({ hold: 'review', reply: { channel: 'C1', threadTs: '1.2' }, version: 1 });
    expect(await requests.findByApproval('a1')).toEqual(created);
  });

  it('updates by compare-and-set: a stale version changes nothing', async () => {
    const { requests } = await repo();
    const r = await requests.create({
      tokenId: 't',
      tokenName: 'b',
      datasourceId: 'd',
      statement: 's',
      onBehalfOf: 'o',
      status: 'pending',
    });
    const next = await requests.update(r.id, r.version, { status: 'approved', jobId: 'j1' });
    expect(next).toMatchObject({ status: 'approved', jobId: 'j1', version: 2 });
    expect(await requests.update(r.id, r.version, { status: 'rejected' })).toBeUndefined();
    const outcome = {
      execution: { status: 'done' as const, rowCount: 0, fields: [], rows: [], durationMs: 1 },
    };
    const done = await requests.update(r.id, 2, { started: true, outcome, finished: true });
    expect(done?.outcome).toEqual(outcome);
    expect(done?.startedAt).toBeDefined();
    expect(done?.finishedAt).toBeDefined();
    const merged = await requests.mutate(r.id, (c) => ({
      chat: { ...c.chat, review: { channel: 'C', ts: '1' } },
    }));
    const merged2 = await requests.mutate(r.id, (c) => ({
      chat: { ...c.chat, reply: { channel: 'D', ts: '2' } },
    }));
    expect(merged?.chat?.review).toEqual({ channel: 'C', ts: '1' });
    expect(merged2?.chat).toEqual({ review: { channel: 'C', ts: '1' }, reply: { channel: 'D', ts: '2' } });
  });

  it('finds pending requests whose approval settled, and approved ones with no run queued', async () => {
    const { store, requests } = await repo();
    const base = { tokenId: 't', tokenName: 'b', datasourceId: 'd', statement: 's', onBehalfOf: 'o' };
    const a1 = await store.approvals.create({
      datasourceId: 'd',
      datasourceName: 'd',
      requester: 'o',
      statement: 's',
      route: 'bot',
    });
    const a2 = await store.approvals.create({
      datasourceId: 'd',
      datasourceName: 'd',
      requester: 'o',
      statement: 's',
      route: 'bot',
    });
    await store.approvals.update(a1.id, a1.version, { status: 'rejected', reviewer: 'r' });
    const settled = await requests.create({ ...base, status: 'pending', approvalId: a1.id });
    await requests.create({ ...base, status: 'pending', approvalId: a2.id });
    expect(await requests.pendingWithSettledApproval(10)).toEqual([
      { requestId: settled.id, approvalId: a1.id },
    ]);
    const waiting = await requests.create({ ...base, status: 'approved' });
    const queued = await requests.create({ ...base, status: 'approved' });
    await requests.update(queued.id, queued.version, { jobId: 'j' });
    expect(await requests.approvedWithoutJob(10)).toEqual([waiting.id]);
  });
});
