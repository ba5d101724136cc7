// The worker side of the bot API: decisions made outside this process are caught up by the reconciler, a
// run is never repeated (a run that began without an outcome is reported `lost`), the gates are read again
// when an approved request finally runs, and a full datasource makes the run wait for a slot.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXECUTE_JOB, runJobId } from '../../src/bot/outbox.js';
import { reconcile } from '../../src/bot/runner.js';
import { USERS_SQL } from './fixtures.js';
import { type BotHarness, botPortal, sqliteFile, sqliteRows } from './harness.js';

let h: BotHarness;
let secret: string;
let file: string;
let yamlFile: string;
const yaml = (policy: string) =>
  `datasources:\n  - id: live\n    type: sqlite\n    database: ${file}\n    roles: [admin, user]\n    policy: ${policy}\n`;

beforeAll(async () => {
  h = await botPortal({
    datasources: (dir) => {
      file = sqliteFile(dir, 'live.db', USERS_SQL);
      return yaml('{ writeApproval: true, maxConcurrent: 1 }').replace(/^datasources:\n/, '');
    },
  });
  yamlFile = join(h.dataDir, 'datasources.yaml');
  secret = (await h.token({ name: 'runner-bot' })).secret;
});
afterAll(async () => {
  await h?.close();
});

const ctx = () => h.server.bot.context!;
const held = async (statement: string) => {
  const res = await h.submit(secret, { datasourceId: 'live', statement, onBehalfOf: 'alice@example.com' });
  expect(res.statusCode).toBe(202);
  return res.json().execution as { id: string; approvalId: string };
};
const name = (id: number) => sqliteRows(file, `SELECT name FROM users WHERE id = ${id}`);

describe('reconciler', () => {
  it('applies a decision stored by another process (no listener saw it)', async () => {
    const rec = await held("UPDATE users SET name = 'elsewhere' WHERE id = 40");
    const store = h.server.store!;
    const a = (await store.approvals.get(rec.approvalId))!;
    await store.approvals.update(a.id, a.version, { status: 'approved', reviewer: 'other-process' });
    expect(await reconcile(ctx())).toBeGreaterThanOrEqual(1);
    const r = await ctx().requests.get(rec.id);
    expect(r).toMatchObject({ status: 'approved', jobId: runJobId(rec.id) });
    await h.drain();
    expect(name(40)).toEqual([{ name: 'elsewhere' }]);
  });

  it('queues the run of an approved request whose job was never queued, exactly once', async () => {
    const rec = await held("UPDATE users SET name = 'orphan' WHERE id = 41");
    await ctx().requests.update(rec.id, 1, { status: 'approved' });
    await reconcile(ctx());
    await reconcile(ctx());
    const jobs = await h.server
      .store!.db.selectFrom('jobs')
      .selectAll()
      .where('id', '=', runJobId(rec.id))
      .execute();
    expect(jobs).toHaveLength(1);
    await h.drain();
    expect(name(41)).toEqual([{ name: 'orphan' }]);
  });
});

describe('the run job', () => {
  it('never runs a request twice: one that began without an outcome is reported lost', async () => {
    const rec = await held("UPDATE users SET name = 'twice' WHERE id = 42");
    const r = (await ctx().requests.update(rec.id, 1, { status: 'approved' }))!;
    await ctx().requests.update(r.id, r.version, { started: true });
    await h.server.store!.jobs.enqueue(EXECUTE_JOB, { requestId: rec.id }, { id: runJobId(rec.id) });
    await h.drain();
    expect((await h.read(secret, rec.id)).json().execution).toMatchObject({
      status: 'failed',
      error: 'lost',
    });
    expect(name(42)).toEqual([{ name: 'user42' }]);
  });

  it('waits for a concurrency slot (retried), then runs', async () => {
    const rec = await held("UPDATE users SET name = 'slot' WHERE id = 43");
    const release = h.server.governance.concurrency.acquire('live', 1);
    try {
      expect((await h.decide(rec.approvalId, 'approve')).statusCode).toBe(200);
      await h.drain();
      const job = await h.server.store!.jobs.get(runJobId(rec.id));
      expect(job).toMatchObject({ status: 'queued', attempts: 1 });
      expect((await h.read(secret, rec.id)).json().execution).toBeUndefined();
    } finally {
      release();
    }
    // Skip the backoff instead of waiting for it.
    await h.server
      .store!.db.updateTable('jobs')
      .set({ run_after: new Date(0).toISOString() })
      .where('id', '=', runJobId(rec.id))
      .execute();
    await h.drain();
    expect((await h.read(secret, rec.id)).json().execution).toMatchObject({ status: 'done' });
    expect(name(43)).toEqual([{ name: 'slot' }]);
  });

  it('reads the gates again: a datasource made read-only meanwhile refuses the approved write', async () => {
    const rec = await held("UPDATE users SET name = 'late' WHERE id = 44");
    writeFileSync(yamlFile, yaml('{ writeApproval: true, readOnly: true }'));
    await h.server.datasources.reload();
    try {
      expect((await h.decide(rec.approvalId, 'approve')).statusCode).toBe(200);
      await h.drain();
      expect((await h.read(secret, rec.id)).json().execution).toMatchObject({
        status: 'failed',
        error: 'policy_denied',
      });
      expect(name(44)).toEqual([{ name: 'user44' }]);
      const denied = await h.auditOf('permission_denied');
      expect(denied.some((e) => e.requestId === rec.id && e.code === 'READ_ONLY')).toBe(true);
    } finally {
      writeFileSync(yamlFile, yaml('{ writeApproval: true, maxConcurrent: 1 }'));
      await h.server.datasources.reload();
    }
  });
});
