// Ingestion without a timer on the real PostgreSQL (logs/run-inserts.ts), by counting statements, never by
// the clock: a batch with nothing else of its run in flight is written at once (its statement is issued
// before any timer or I/O callback could run), batches of the run's other jobs that arrive meanwhile are
// written together in the next statement when it ends, every caller gets its own job's ack and lines, the
// run's cursors stay contiguous, followers get every line in cursor order, and a resend in a group stores
// nothing twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogStore } from '../../src/logs/index.js';
import { type DataFixture, lines, startDataFixture } from './fixture.js';

/** Lets queued microtasks run; no timer, immediate or I/O callback can run meanwhile. */
async function microtasks() {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

describe('log ingestion on PostgreSQL', () => {
  let f: DataFixture;
  let store: LogStore;
  beforeAll(async () => {
    f = await startDataFixture('postgres', 'groupcommit');
    store = f.server.execution.logs;
  });
  afterAll(() => f.server.close());

  it('writes a sparse batch at once and the batches that arrive meanwhile in one statement', async () => {
    const { runId } = await f.newRun();
    const jobs = (
      await f.db.selectFrom('job_runs').select('id').where('run_id', '=', runId).orderBy('position').execute()
    ).map((j) => j.id);
    expect(jobs.length).toBeGreaterThanOrEqual(3);
    const [one, two, three] = jobs;
    // Each job's first batch reads its state from the store; after that, appends do no other I/O.
    for (const job of [one, two, three]) await store.appendLogBatch(job, lines(1));
    const sub = f.server.execution.hub.subscribe(runId);
    const stats = store.inserts.stats;
    const before = { ...stats };

    // A sparse batch: its statement is on its way before any timer could have fired.
    const first = store.appendLogBatch(one, lines(2, 2));
    await microtasks();
    expect(stats.statements - before.statements).toBe(1);

    // Two other jobs' batches while it is in flight: they wait for it, then share one statement.
    const second = store.appendLogBatch(two, lines(3, 2));
    const third = store.appendLogBatch(three, lines(1, 2));
    await microtasks();
    expect(stats.statements - before.statements).toBe(1);
    expect(stats.grouped - before.grouped).toBe(2);

    expect(await first).toEqual({ ackedSeq: 3, stored: 2, truncated: false });
    expect(await second).toEqual({ ackedSeq: 4, stored: 3, truncated: false });
    expect(await third).toEqual({ ackedSeq: 2, stored: 1, truncated: false });
    expect(stats.statements - before.statements).toBe(2);

    // The run's cursors are contiguous, each job's lines in seq order, and followers got every line.
    const stored = await store.readRunLogs(runId, 0, 100);
    expect(stored.map((l) => l.cursor)).toEqual(stored.map((_, i) => i + 1));
    for (const job of [one, two, three]) {
      const seqs = stored.filter((l) => l.job_run_id === job).map((l) => l.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    const live = sub
      .take()
      .batches.flat()
      .map((l) => l.cursor);
    expect(live).toEqual(stored.slice(3).map((l) => l.cursor));
    sub.close();
  });

  it('a resent batch in a group stores nothing twice', async () => {
    const { runId } = await f.newRun();
    const [one, two] = (
      await f.db.selectFrom('job_runs').select('id').where('run_id', '=', runId).orderBy('position').execute()
    ).map((j) => j.id);
    for (const job of [one, two]) await store.appendLogBatch(job, lines(2));
    const blocker = store.appendLogBatch(one, lines(1, 3));
    // Queued behind it together: a resend of lines already stored, and new lines of the other job.
    const resent = store.appendLogBatch(two, lines(2));
    const fresh = store.appendLogBatch(one, lines(2, 4));
    await blocker;
    expect(await resent).toEqual({ ackedSeq: 2, stored: 0, truncated: false });
    expect(await fresh).toEqual({ ackedSeq: 5, stored: 2, truncated: false });
    const stored = await store.readRunLogs(runId, 0, 100);
    expect(stored).toHaveLength(7);
    expect(stored.map((l) => l.cursor)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
