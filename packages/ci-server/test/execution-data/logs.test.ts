// The log store on SQLite and PostgreSQL: ordered ingestion with acks, idempotent resends, gaps, cursors
// across the jobs of a run, masking, the per-job cap with its truncation line, state re-read after a
// restart, the tail wait, and the follower (replay, live lines, subscriber overflow, other replicas).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  followRunLogs,
  LogHub,
  LogStore,
  TRUNCATION_MARKER,
  UnknownJobRunError,
} from '../../src/logs/index.js';
import type { StoredLogLine } from '../../src/logs/types.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, lines, startDataFixture } from './fixture.js';

async function collect(gen: AsyncGenerator<readonly StoredLogLine[]>): Promise<StoredLogLine[]> {
  const out: StoredLogLine[] = [];
  for await (const batch of gen) out.push(...batch);
  return out;
}

describe.each(STORES)('log store on %s', (kind) => {
  let f: DataFixture;
  let store: LogStore;
  const postgres = kind === 'postgres';
  beforeAll(async () => {
    f = await startDataFixture(kind);
    store = f.server.execution.logs;
  });
  afterAll(() => f.server.close());

  it('stores a batch, acks its last seq and replays it per job and per run', async () => {
    const { runId, compile } = await f.newRun();
    const result = await store.appendLogBatch(compile, lines(3));
    expect(result).toEqual({ ackedSeq: 3, stored: 3, truncated: false });
    const job = await store.readJobLogs(compile, 0, 100);
    expect(job.map((l) => [l.seq, l.stream, l.text])).toEqual([
      [1, 'stdout', 'line 1'],
      [2, 'stdout', 'line 2'],
      [3, 'stdout', 'line 3'],
    ]);
    expect(job[0].at).toBe(new Date(Date.UTC(2025, 0, 1) + 1).toISOString());
    const run = await store.readRunLogs(runId, 0, 100);
    expect(run.map((l) => l.cursor)).toEqual([1, 2, 3]);
    expect(await store.readRunLogs(runId, 2, 100)).toHaveLength(1);
  });

  it('ignores a resent batch and lines already acknowledged', async () => {
    const { compile } = await f.newRun();
    await store.appendLogBatch(compile, lines(5));
    const again = await store.appendLogBatch(compile, lines(7));
    expect(again).toEqual({ ackedSeq: 7, stored: 2, truncated: false });
    const rows = await store.readJobLogs(compile, 0, 100);
    expect(rows.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('refuses lines after a gap and tells where to resume', async () => {
    const { compile } = await f.newRun();
    await store.appendLogBatch(compile, lines(2));
    const gap = await store.appendLogBatch(compile, lines(3, 5));
    expect(gap).toEqual({ ackedSeq: 2, stored: 0, truncated: false });
    // Within one batch: the part before the gap is kept.
    const partial = await store.appendLogBatch(compile, [...lines(2, 3), ...lines(2, 8)]);
    expect(partial).toEqual({ ackedSeq: 4, stored: 2, truncated: false });
    const resent = await store.appendLogBatch(compile, lines(6, 5));
    expect(resent.ackedSeq).toBe(10);
    expect((await store.readJobLogs(compile, 0, 100)).map((l) => l.seq)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
  });

  it('orders the lines of a run by cursor across its jobs, each job in seq order', async () => {
    const { runId, compile, lint } = await f.newRun();
    await Promise.all([
      (async () => {
        for (let i = 0; i < 10; i++) await store.appendLogBatch(compile, lines(20, 1 + i * 20, 'c'));
      })(),
      (async () => {
        for (let i = 0; i < 10; i++) await store.appendLogBatch(lint, lines(20, 1 + i * 20, 'l'));
      })(),
    ]);
    const all = await store.readRunLogs(runId, 0, 1000);
    expect(all).toHaveLength(400);
    const cursors = all.map((l) => l.cursor);
    expect(new Set(cursors).size).toBe(400);
    expect([...cursors].sort((a, b) => a - b)).toEqual(cursors);
    for (const job of [compile, lint]) {
      const seqs = all.filter((l) => l.job_run_id === job).map((l) => l.seq);
      expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    }
    // Paging by cursor walks the same sequence.
    const pages: number[] = [];
    let after = 0;
    for (;;) {
      const page = await store.readRunLogs(runId, after, 37);
      if (page.length === 0) break;
      pages.push(...page.map((l) => l.cursor));
      after = page[page.length - 1].cursor;
    }
    expect(pages).toEqual(cursors);
  });

  it('masks text, replaces NUL bytes, cuts overlong lines and normalises unknown streams', async () => {
    const { compile } = await f.newRun();
    await store.appendLogBatch(
      compile,
      [
        { seq: 1, stream: 'stdout', atMs: 1, text: 'token=hunter22 ok' },
        { seq: 2, stream: 'weird', atMs: 2, text: 'a\u0000b' },
        { seq: 3n, stream: 'system', atMs: 3n, text: 'x'.repeat(70_000) },
      ],
      { mask: (t) => t.replaceAll('hunter22', '***') },
    );
    const rows = await store.readJobLogs(compile, 0, 10);
    expect(rows.map((l) => l.text.slice(0, 20))).toEqual(['token=*** ok', 'a\uFFFDb', 'x'.repeat(20)]);
    expect(rows.map((l) => l.stream)).toEqual(['stdout', 'stdout', 'system']);
    expect(rows[2].text).toHaveLength(65_536);
  });

  it('caps a job log with one truncation line and acknowledges what follows without storing it', async () => {
    const { compile, lint } = await f.newRun();
    const capped = new LogStore({ db: f.server.database.db, postgres, maxLinesPerJob: 10 });
    const first = await capped.appendLogBatch(compile, lines(8));
    expect(first.truncated).toBe(false);
    const second = await capped.appendLogBatch(compile, lines(5, 9));
    expect(second).toEqual({ ackedSeq: 13, stored: 3, truncated: true });
    const third = await capped.appendLogBatch(compile, lines(5, 14));
    expect(third).toEqual({ ackedSeq: 18, stored: 0, truncated: true });
    const rows = await capped.readJobLogs(compile, 0, 100);
    expect(rows).toHaveLength(11);
    expect(rows[10].stream).toBe('system');
    expect(rows[10].text.startsWith(TRUNCATION_MARKER)).toBe(true);
    // A fresh store (a restarted server) sees the truncation from the stored log.
    const restarted = new LogStore({ db: f.server.database.db, postgres, maxLinesPerJob: 10 });
    expect(await restarted.appendLogBatch(compile, lines(2, 19))).toEqual({
      ackedSeq: 20,
      stored: 0,
      truncated: true,
    });
    // The character cap works the same way.
    const byChars = new LogStore({ db: f.server.database.db, postgres, maxCharsPerJob: 25 });
    const r = await byChars.appendLogBatch(lint, lines(5));
    expect(r.truncated).toBe(true);
    expect((await byChars.readJobLogs(lint, 0, 10)).map((l) => l.text)).toEqual([
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      expect.stringMatching(/^\[ci\] log truncated/),
    ]);
  });

  it('continues after a restart from what is stored, and another replica sees the same head', async () => {
    const { runId, compile, lint } = await f.newRun();
    await store.appendLogBatch(compile, lines(4));
    const other = new LogStore({ db: f.server.database.db, postgres });
    expect(await other.ackedSeq(compile)).toBe(4);
    expect(await other.appendLogBatch(compile, lines(6))).toEqual({
      ackedSeq: 6,
      stored: 2,
      truncated: false,
    });
    await other.appendLogBatch(lint, lines(2));
    // The first store's cached ack is behind; the gap check reads the store again instead of refusing.
    expect(await store.appendLogBatch(compile, lines(2, 7))).toEqual({
      ackedSeq: 8,
      stored: 2,
      truncated: false,
    });
    const all = await store.readRunLogs(runId, 0, 100);
    expect(all.map((l) => l.cursor)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('refuses lines of an unknown job run', async () => {
    await expect(
      store.appendLogBatch('00000000-0000-4000-8000-000000000000', lines(1)),
    ).rejects.toBeInstanceOf(UnknownJobRunError);
  });

  it('waits for the tail of a job', async () => {
    const { compile } = await f.newRun();
    expect(await store.waitForTail(compile, 0, 10)).toBe(true);
    const waiting = store.waitForTail(compile, 3, 30_000);
    await store.appendLogBatch(compile, lines(2));
    await store.appendLogBatch(compile, lines(1, 3));
    expect(await waiting).toBe(true);
    expect(await store.waitForTail(compile, 5, 1)).toBe(false);
  });

  describe('following a run', () => {
    it('replays a finished run and ends', async () => {
      const { runId, compile, lint } = await f.newRun();
      await store.appendLogBatch(compile, lines(30));
      await store.appendLogBatch(lint, lines(30));
      await f.finishRun(runId);
      const got = await collect(
        followRunLogs({
          store,
          hub: f.server.execution.hub,
          runId,
          after: 0,
          isFinished: async () => true,
          pageSize: 7,
        }),
      );
      expect(got.map((l) => l.cursor)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      const resumed = await collect(
        followRunLogs({ store, hub: f.server.execution.hub, runId, after: 45, isFinished: async () => true }),
      );
      expect(resumed.map((l) => l.cursor)).toEqual(Array.from({ length: 15 }, (_, i) => i + 46));
    });

    it('delivers live lines once, in order, through overflows, until the run is over', async () => {
      const { runId, compile, lint } = await f.newRun();
      // A ring smaller than what piles up: the follower has to go back to the store.
      const hub = new LogHub(30);
      const live = new LogStore({ db: f.server.database.db, postgres, hub });
      await live.appendLogBatch(compile, lines(5));
      let finished = false;
      const seen: StoredLogLine[] = [];
      // Reads of the store after the first replay happen only when the hub could not deliver (overflow).
      let storeReads = 0;
      const read = live.readRunLogs.bind(live);
      live.readRunLogs = (...args) => {
        storeReads++;
        return read(...args);
      };
      const gen = followRunLogs({
        store: live,
        hub,
        runId,
        after: 0,
        isFinished: async () => finished,
        capacity: 25,
        pollMs: 60_000,
      });
      // The first replay delivers what exists; then the follower waits for the hub.
      const first = await gen.next();
      seen.push(...(first.value as StoredLogLine[]));
      expect(seen).toHaveLength(5);
      const pending = gen.next();
      // Far more than the subscriber's buffer while the reader is not reading: it overflows.
      for (let i = 0; i < 20; i++) {
        await live.appendLogBatch(compile, lines(10, 6 + i * 10, 'c'));
        await live.appendLogBatch(lint, lines(10, 1 + i * 10, 'l'));
      }
      const next = await pending;
      seen.push(...(next.value as StoredLogLine[]));
      const reader = (async () => {
        for (;;) {
          const r = await gen.next();
          if (r.done) return;
          seen.push(...r.value);
        }
      })();
      await live.appendLogBatch(lint, lines(5, 201, 'tail'));
      finished = true;
      hub.wake(runId);
      await reader;
      expect(storeReads).toBeGreaterThan(1);
      expect(seen.map((l) => l.cursor)).toEqual(Array.from({ length: 410 }, (_, i) => i + 1));
      expect(seen.filter((l) => l.job_run_id === lint).map((l) => l.seq)).toEqual(
        Array.from({ length: 205 }, (_, i) => i + 1),
      );
      expect(hub.subscriberCount(runId)).toBe(0);
    });

    it('catches a follower that fell far behind up from the shared ring, not the store', async () => {
      const { runId, compile, lint } = await f.newRun();
      const hub = new LogHub();
      const live = new LogStore({ db: f.server.database.db, postgres, hub });
      let storeReads = 0;
      const read = live.readRunLogs.bind(live);
      live.readRunLogs = (...args) => {
        storeReads++;
        return read(...args);
      };
      let finished = false;
      const slow = followRunLogs({
        store: live,
        hub,
        runId,
        after: 0,
        isFinished: async () => finished,
        capacity: 25,
        pollMs: 60_000,
        coalesceMs: 0,
      });
      // A second follower that keeps up: it gets the very arrays the hub published.
      const fast = hub.subscribe(runId);
      // The log is empty: the follower's first replay yields nothing and it waits for the hub.
      const pending = slow.next();
      while (hub.subscriberCount(runId) < 2) await new Promise((r) => setImmediate(r));
      for (let i = 0; i < 20; i++) {
        await live.appendLogBatch(compile, lines(10, 1 + i * 10, 'c'));
        await live.appendLogBatch(lint, lines(10, 1 + i * 10, 'l'));
      }
      const published = fast.take();
      expect(published.overflowed).toBe(false);
      const seen: StoredLogLine[] = [];
      const batches: (readonly StoredLogLine[])[] = [];
      const first = await pending;
      batches.push(first.value as readonly StoredLogLine[]);
      const reader = (async () => {
        for (;;) {
          const r = await slow.next();
          if (r.done) return;
          batches.push(r.value);
        }
      })();
      while (batches.flat().length < 400) await new Promise((r) => setImmediate(r));
      finished = true;
      hub.wake(runId);
      await reader;
      for (const b of batches) seen.push(...b);
      expect(seen.map((l) => l.cursor)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
      // Only the first replay (of an empty log) and the final tail read touched the store: the 400 lines it
      // missed came from the ring, as the same shared batches the fast follower holds.
      expect(storeReads).toBeLessThanOrEqual(2);
      const shared = new Set(published.batches);
      expect(batches.filter((b) => shared.has(b)).length).toBeGreaterThanOrEqual(39);
      fast.close();
    });

    it('picks up lines another replica stored, which this hub never saw', async () => {
      const { runId, compile } = await f.newRun();
      const hubA = new LogHub();
      const storeA = new LogStore({ db: f.server.database.db, postgres, hub: hubA });
      const storeB = new LogStore({ db: f.server.database.db, postgres, hub: new LogHub() });
      let finished = false;
      const gen = followRunLogs({
        store: storeA,
        hub: hubA,
        runId,
        after: 0,
        isFinished: async () => finished,
        pollMs: 20,
      });
      const seen: StoredLogLine[] = [];
      const reader = (async () => {
        for await (const batch of gen) seen.push(...batch);
      })();
      await storeB.appendLogBatch(compile, lines(10));
      await storeA.appendLogBatch(compile, lines(10, 11));
      finished = true;
      await reader;
      expect(seen.map((l) => l.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('ends as soon as the run finishes, woken by the run events rather than a timer', async () => {
      const { runId, compile } = await f.newRun();
      await store.appendLogBatch(compile, lines(3));
      const db = f.server.database.db;
      const gen = followRunLogs({
        store,
        hub: f.server.execution.hub,
        runId,
        after: 0,
        isFinished: async () => {
          const r = await db
            .selectFrom('runs')
            .select('status')
            .where('id', '=', runId)
            .executeTakeFirstOrThrow();
          return ['success', 'failed', 'canceled'].includes(r.status);
        },
        // Far beyond the test timeout: only the wake-up can end this follower in time.
        pollMs: 600_000,
      });
      const done = collect(gen);
      while (f.server.execution.hub.subscriberCount(runId) === 0) await new Promise((r) => setImmediate(r));
      const cancel = await f.api.post(`/api/v1/runs/${runId}/cancel`);
      expect(cancel.body.status).toBe('canceled');
      expect((await done).map((l) => l.seq)).toEqual([1, 2, 3]);
    });

    it('stops and unsubscribes when the reader goes away', async () => {
      const { runId } = await f.newRun();
      const hub = new LogHub();
      const abort = new AbortController();
      const gen = followRunLogs({
        store,
        hub,
        runId,
        after: 0,
        isFinished: async () => false,
        pollMs: 60_000,
        signal: abort.signal,
      });
      const done = collect(gen);
      while (hub.subscriberCount(runId) === 0) await new Promise((r) => setImmediate(r));
      abort.abort();
      expect(await done).toEqual([]);
      expect(hub.subscriberCount(runId)).toBe(0);
    });
  });
});
