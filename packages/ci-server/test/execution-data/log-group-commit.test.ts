// Group commit per turn of the event loop on the real PostgreSQL (logs/run-inserts.ts), by counting
// statements and publishes, never by the clock: the batches that arrive in one turn — of several jobs and of
// several runs — are written in one statement on the next turn (no timer), the batches that arrive while it
// is in flight share the next statement when it ends, each run's stored lines are published once per
// statement in cursor order, every caller gets its own job's ack and lines, each run's cursors stay
// contiguous, a resend in a group stores nothing twice, and a bad batch fails alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogStore } from '../../src/logs/index.js';
import { type DataFixture, lines, startDataFixture } from './fixture.js';

/** Lets queued microtasks run; no timer, immediate or I/O callback can run meanwhile. */
async function microtasks() {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

/** The next turn of the event loop: what was scheduled by setImmediate in this one has run. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('log ingestion on PostgreSQL', () => {
  let f: DataFixture;
  let store: LogStore;
  beforeAll(async () => {
    f = await startDataFixture('postgres', 'groupcommit');
    store = f.server.execution.logs;
  });
  afterAll(() => f.server.close());

  const jobsOf = async (runId: string) =>
    (
      await f.db.selectFrom('job_runs').select('id').where('run_id', '=', runId).orderBy('position').execute()
    ).map((j) => j.id);

  it('writes the batches of one turn, of several runs, in one statement, and those in flight in the next', async () => {
    const runX = (await f.newRun()).runId;
    const runY = (await f.newRun()).runId;
    const [one, two, three] = await jobsOf(runX);
    const [other, otherTwo] = await jobsOf(runY);
    expect(three).toBeDefined();
    expect(otherTwo).toBeDefined();
    // Each job's first batch reads its state from the store; after that, appends do no other I/O.
    for (const job of [one, two, three, other, otherTwo]) await store.appendLogBatch(job, lines(1));
    const subX = f.server.execution.hub.subscribe(runX);
    const subY = f.server.execution.hub.subscribe(runY);
    const stats = store.inserts.stats;
    const before = { ...stats };

    // One turn's batches: two jobs of run X and one of run Y. Nothing is written before the turn ends…
    const first = store.appendLogBatch(one, lines(2, 2));
    const second = store.appendLogBatch(two, lines(2, 2));
    const ofY = store.appendLogBatch(other, lines(3, 2));
    await microtasks();
    expect(stats.statements - before.statements).toBe(0);
    // …and then they go in one statement, on the next turn, without a timer.
    await nextTurn();
    expect(stats.statements - before.statements).toBe(1);

    // Batches that arrive while that statement is in flight (it was only just sent) wait for it, then go
    // together in the next one.
    const third = store.appendLogBatch(three, lines(2, 2));
    const again = store.appendLogBatch(otherTwo, lines(1, 2));

    expect(await first).toEqual({ ackedSeq: 3, stored: 2, truncated: false });
    expect(await second).toEqual({ ackedSeq: 3, stored: 2, truncated: false });
    expect(await ofY).toEqual({ ackedSeq: 4, stored: 3, truncated: false });
    expect(await third).toEqual({ ackedSeq: 3, stored: 2, truncated: false });
    expect(await again).toEqual({ ackedSeq: 2, stored: 1, truncated: false });
    expect(stats.statements - before.statements).toBe(2);
    expect(stats.grouped - before.grouped).toBe(4);

    // Each run's cursors are contiguous and each job's lines in seq order.
    const storedX = await store.readRunLogs(runX, 0, 100);
    const storedY = await store.readRunLogs(runY, 0, 100);
    expect(storedX.map((l) => l.cursor)).toEqual(storedX.map((_, i) => i + 1));
    expect(storedY.map((l) => l.cursor)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const job of [one, two, three]) {
      const seqs = storedX.filter((l) => l.job_run_id === job).map((l) => l.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    // One publish per run and statement, in cursor order, holding every line stored after subscribing.
    const x = subX.take().batches;
    expect(x).toHaveLength(2);
    expect(x.flat().map((l) => l.cursor)).toEqual(storedX.slice(3).map((l) => l.cursor));
    const y = subY.take().batches;
    expect(y).toHaveLength(2);
    expect(y.flat().map((l) => l.cursor)).toEqual([3, 4, 5, 6]);
    subX.close();
    subY.close();
  });

  it('a resent batch in a group stores nothing twice', async () => {
    const { runId } = await f.newRun();
    const [one, two] = await jobsOf(runId);
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

  it('a batch the database refuses fails alone; the others of its statement are stored', async () => {
    const { runId } = await f.newRun();
    const [one] = await jobsOf(runId);
    await store.appendLogBatch(one, lines(1));
    const stats = store.inserts.stats;
    const before = stats.statements;
    // A run that does not exist: its head row breaks the foreign key, so the grouped statement fails.
    const bad = store.inserts.insert(one, '00000000-0000-4000-8000-000000000000', [
      { seq: 100, stream: 'stdout', at: new Date().toISOString(), text: 'orphan' },
    ]);
    const good = store.appendLogBatch(one, lines(2, 2));
    await expect(bad).rejects.toThrow();
    expect(await good).toEqual({ ackedSeq: 3, stored: 2, truncated: false });
    // The group, then each batch alone.
    expect(stats.statements - before).toBe(3);
    const stored = await store.readRunLogs(runId, 0, 100);
    expect(stored.map((l) => l.text)).toHaveLength(3);
  });
});
