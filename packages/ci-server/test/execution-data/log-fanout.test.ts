// Live-log fan-out to many SSE followers over HTTP, on SQLite and PostgreSQL: every published batch is
// encoded once for all followers (counted by the hub's encoder), a follower that does not read is bounded
// and delays nobody, then catches up from the store without a gap or a repeat, and a follower joining past
// the ring reads the store and continues live. Conditions are state, not time: the test pushes until the
// paused follower's queue has overflowed, however large the kernel's socket buffers are.
import { request } from 'node:http';
import { createApp } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuthorizer, registerAccessControl } from '../../src/http/access.js';
import { registerLogStreamRoute } from '../../src/http/logs-stream.js';
import { followRunLogs } from '../../src/logs/follow.js';
import { type LogBatch, LogHub, type LogHubOptions } from '../../src/logs/hub.js';
import { SseEncoder } from '../../src/logs/sse-encoding.js';
import { LogStore } from '../../src/logs/store.js';
import type { StoredLogLine } from '../../src/logs/types.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, lines, parseSse, startDataFixture } from './fixture.js';

/** An SSE client over node:http that can stop reading (pause) and resume. */
function follow(base: string, runId: string, lastEventId?: string) {
  // `count`: complete log events so far, counted as text arrives (not by re-reading all of it).
  const state = { text: '', ended: false, status: 0, count: 0, scanned: 0 };
  let notify = () => {};
  let res: import('node:http').IncomingMessage | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    const req = request(
      `${base}/api/v1/runs/${runId}/logs/stream`,
      { headers: lastEventId ? { 'last-event-id': lastEventId } : {} },
      (r) => {
        res = r;
        state.status = r.statusCode ?? 0;
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => {
          state.text += chunk;
          for (let end = state.text.indexOf('\n\n', state.scanned); end >= 0; ) {
            if (state.text.startsWith('event: log', state.scanned)) state.count++;
            state.scanned = end + 2;
            end = state.text.indexOf('\n\n', state.scanned);
          }
          notify();
        });
        r.on('end', () => {
          state.ended = true;
          notify();
        });
        resolve();
      },
    );
    req.on('error', reject);
    req.end();
  });
  const until = (cond: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (cond() || state.ended) {
          notify = () => {};
          resolve();
        }
      };
      notify = check;
      check();
    });
  return {
    state,
    opened,
    pause: () => res?.pause(),
    resume: () => res?.resume(),
    /** Waits until `n` complete log events arrived (or the stream ended). */
    reached: (n: number) => until(() => state.count >= n),
    /** Waits until `n` complete log events arrived (or the stream ended); their ids. */
    logs: async (n: number) => {
      await until(() => state.count >= n);
      return logIds(state.text);
    },
    end: () => until(() => state.ended),
    close: () => res?.destroy(),
  };
}

const logIds = (text: string) =>
  parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2))
    .filter((e) => e.event === 'log')
    .map((e) => Number(e.id));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe.each(STORES)('log fan-out on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  /** A route of its own over a hub of its own (small ring, counting encoder), on the fixture's database. */
  async function withRoute<T>(
    options: LogHubOptions,
    fn: (ctx: { base: string; hub: LogHub; logs: LogStore; encoder: SseEncoder }) => Promise<T>,
  ): Promise<T> {
    const encoder = new SseEncoder();
    const hub = new LogHub({ ...options, encoder });
    const logs = new LogStore({ db: f.server.database.db, postgres: kind === 'postgres', hub });
    const app = createApp({ service: 'fanout-test', errorShape: 'ci', logger: false });
    registerAccessControl(app, () => openAuthorizer);
    await app.register(async (scope) => {
      registerLogStreamRoute(scope.withTypeProvider<TypeBoxTypeProvider>(), {
        db: f.server.database.db,
        data: { ...f.server.execution, logs, hub },
        pollMs: 60_000,
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const addr = app.server.address();
      const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      return await fn({ base, hub, logs, encoder });
    } finally {
      await app.close();
    }
  }

  const attached = async (hub: LogHub, runId: string, n: number) => {
    while (hub.subscriberCount(runId) < n) await new Promise((r) => setTimeout(r, 5));
  };

  it('encodes each published batch once for every follower, a follower inside a batch included', async () => {
    // fanoutChunk 3: the hub wakes the followers over several turns of the event loop.
    await withRoute({ fanoutChunk: 3 }, async ({ base, hub, logs, encoder }) => {
      const { runId, compile, lint } = await f.newRun();
      const followers = Array.from({ length: 10 }, () => follow(base, runId));
      await Promise.all(followers.map((c) => c.opened));
      await attached(hub, runId, 10);
      for (let i = 0; i < 10; i++) {
        await logs.appendLogBatch(compile, lines(7, 1 + i * 7));
        await logs.appendLogBatch(lint, lines(5, 1 + i * 5, 'lint'));
      }
      for (const c of followers) expect(await c.logs(120)).toEqual(range(1, 120));
      expect(encoder.encodes).toBe(20);
      // A follower resuming inside the last batch (cursor 118 of 116..120) writes a view of its bytes.
      const late = follow(base, runId, '118');
      expect(await late.logs(2)).toEqual([119, 120]);
      expect(encoder.encodes).toBe(20);
      await logs.appendLogBatch(lint, lines(5, 51, 'lint'));
      for (const c of [...followers, late]) expect((await c.logs(c === late ? 7 : 125)).at(-1)).toBe(125);
      expect(encoder.encodes).toBe(21);
      await f.finishRun(runId);
      hub.wake(runId);
      for (const c of [...followers, late]) await c.end();
      expect(logIds(late.state.text)).toEqual(range(119, 125));
      expect(late.state.text.endsWith(`event: end\nid: 125\ndata: {"status":"success"}\n\n`)).toBe(true);
    });
  });

  it('a follower that does not read is bounded and delays nobody, then catches up from the store', async () => {
    // A queue of 16 KB (about five batches here), a ring of 100 lines: the paused follower falls past both.
    const hub = new LogHub({ ringLines: 100, subscriberBytes: 16 * 1024 });
    const logs = new LogStore({ db: f.server.database.db, postgres: kind === 'postgres', hub });
    const { runId, compile, lint } = await f.newRun();
    let finished = false;
    const follower = () =>
      followRunLogs({ store: logs, hub, runId, after: 0, isFinished: async () => finished, pollMs: 600_000 });
    const readers = Array.from({ length: 4 }, () => ({ gen: follower(), got: [] as number[] }));
    const pumps = readers.map(async (r) => {
      for await (const b of r.gen) for (const l of b) r.got.push(l.cursor);
    });
    // The paused one takes its first batch and then is not read from again.
    const paused = follower();
    const first = paused.next();
    while (hub.subscriberCount(runId) < 5) await turn();
    // Its one read ends inside the first 20 lines (it resolves before more are written), so the 380 after it
    // fall past both its queue and the 100-line ring, whatever the machine's pace.
    await logs.appendLogBatch(compile, lines(10, 1));
    await logs.appendLogBatch(lint, lines(10, 1, 'lint'));
    const got = [...((await first).value as LogBatch).map((l) => l.cursor)];
    expect(got.length).toBeLessThanOrEqual(20);
    for (let i = 1; i < 20; i++) {
      await logs.appendLogBatch(compile, lines(10, 1 + i * 10));
      await logs.appendLogBatch(lint, lines(10, 1 + i * 10, 'lint'));
    }
    // Every reader has every line in order while the paused follower has read one batch.
    while (readers.some((r) => r.got.length < 400)) await new Promise((r) => setTimeout(r, 5));
    for (const r of readers) expect(r.got).toEqual(range(1, 400));
    // Bounded: its queue overflowed and holds nothing; the ring holds its 100 lines, not the run's 400.
    const held = hub.subscriptions(runId);
    expect(held.some((s) => s.overflows > 0)).toBe(true);
    for (const s of held) expect(s.pendingBytes).toBeLessThanOrEqual(16 * 1024);
    expect(hub.ringSize(runId).lines).toBeLessThanOrEqual(100);
    // Read again, it catches up by its cursor: lines 21–300 are neither in its (empty) queue nor in the
    // 100-line ring, so they come from the store (a page the readers' own catch-up may already have shared:
    // how many reads that costs depends on the pace), then live, no gap or repeat.
    while (got.length < 400) {
      const next = await paused.next();
      got.push(...(next.value as LogBatch).map((l) => l.cursor));
    }
    expect(got).toEqual(range(1, 400));
    const tail = (async () => {
      for (;;) {
        const next = await paused.next();
        if (next.done) return;
        got.push(...next.value.map((l) => l.cursor));
      }
    })();
    await logs.appendLogBatch(lint, lines(5, 201, 'lint'));
    finished = true;
    hub.wake(runId);
    await Promise.all([...pumps, tail]);
    for (const r of [...readers.map((x) => x.got), got]) expect(r).toEqual(range(1, 405));
    expect(hub.subscriberCount(runId)).toBe(0);
  });

  it('a follower joining past the ring reads the store, then live lines, without a gap or a repeat', async () => {
    await withRoute({ ringLines: 30 }, async ({ base, hub, logs, encoder }) => {
      const { runId, compile, lint } = await f.newRun();
      const early = follow(base, runId);
      await early.opened;
      await attached(hub, runId, 1);
      for (let i = 0; i < 10; i++) {
        await logs.appendLogBatch(compile, lines(10, 1 + i * 10));
        await logs.appendLogBatch(lint, lines(10, 1 + i * 10, 'lint'));
      }
      expect(await early.logs(200)).toEqual(range(1, 200));
      expect(hub.recent(runId, 15)).toBeUndefined();
      // Two followers resume at cursor 15, long gone from the ring: they share the store's pages.
      const reads = hub.storeReads;
      const encodes = encoder.encodes;
      const joiners = [follow(base, runId, '15'), follow(base, runId, '15')];
      for (const c of joiners) expect(await c.logs(185)).toEqual(range(16, 200));
      expect(hub.storeReads - reads).toBeLessThanOrEqual(2);
      expect(encoder.encodes - encodes).toBeLessThanOrEqual(2);
      await logs.appendLogBatch(lint, lines(10, 101, 'lint'));
      for (const c of joiners) expect(await c.logs(195)).toEqual(range(16, 210));
      await f.finishRun(runId);
      hub.wake(runId);
      for (const c of [early, ...joiners]) await c.end();
      expect(logIds(early.state.text)).toEqual(range(1, 210));
    });
  });
});

const line = (cursor: number): StoredLogLine => ({
  cursor,
  job_run_id: 'j',
  seq: cursor,
  stream: 'stdout',
  at: '2026-01-01T00:00:00.000Z',
  text: `l${cursor}`,
});
const batch = (from: number, to: number): LogBatch => range(from, to).map(line);
const turn = () => new Promise((r) => setImmediate(r));

describe('log hub fan-out', () => {
  it('hands a batch to many followers a chunk per turn of the event loop, in publish order', async () => {
    const hub = new LogHub({ fanoutChunk: 2 });
    const subs = Array.from({ length: 5 }, () => hub.subscribe('r'));
    const published = [batch(1, 3), batch(4, 6), batch(7, 9)];
    hub.publish('r', published[0]);
    hub.publish('r', published[1]);
    // Nothing handed out yet: ingestion's own turn finishes first.
    expect(subs.some((s) => s.pending)).toBe(false);
    await turn();
    hub.publish('r', published[2]);
    while (!subs.every((s) => s.pending)) await turn();
    while (subs.some((s) => s.held.pendingLines < 9)) await turn();
    for (const s of subs) expect(s.take().batches).toEqual(published);
    for (const s of subs) s.close();
  });

  it('answers one notification from another replica with one store read for all followers', async () => {
    const stored: StoredLogLine[] = [];
    let reads = 0;
    const store = {
      readRunLogs: async (_runId: string, after: number, limit: number) => {
        reads++;
        return stored.filter((l) => l.cursor > after).slice(0, limit);
      },
    } as unknown as LogStore;
    // Reads are shared until the run changes, however long the followers take to ask.
    const hub = new LogHub({ sharedReadMs: 600_000 });
    const aborts = Array.from({ length: 20 }, () => new AbortController());
    const seen = Array.from({ length: 20 }, () => [] as number[]);
    const pumps = seen.map(async (got, i) => {
      const gen = followRunLogs({
        store,
        hub,
        runId: 'r',
        after: 0,
        isFinished: async () => false,
        pollMs: 600_000,
        signal: aborts[i].signal,
      });
      for await (const b of gen) for (const l of b) got.push(l.cursor);
    });
    while (hub.subscriberCount('r') < 20 || reads === 0) await turn();
    // The first replay of the (empty) log: one read for the twenty.
    for (let i = 0; i < 10; i++) await turn();
    expect(reads).toBe(1);
    stored.push(...batch(1, 5));
    hub.storedElsewhere('r');
    while (seen.some((got) => got.length < 5)) await turn();
    expect(reads).toBe(2);
    for (const got of seen) expect(got).toEqual(range(1, 5));
    stored.push(...batch(6, 8));
    hub.storedElsewhere('r');
    while (seen.some((got) => got.length < 8)) await turn();
    expect(reads).toBe(3);
    for (const got of seen) expect(got).toEqual(range(1, 8));
    for (const a of aborts) a.abort();
    await Promise.all(pumps);
    expect(hub.subscriberCount('r')).toBe(0);
  });
});
