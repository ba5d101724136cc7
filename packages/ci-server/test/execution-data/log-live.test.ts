// The hub's live write path (logs/live.ts): followers that keep up are written by the hub itself, at the
// run's beat, one write of shared bytes per follower and beat; a follower whose socket stops taking writes is
// let go, catches up by its cursor (ring, then store) once it drains, and attaches again — without a gap or a
// repeat, plain and gzip, while the others go on. The beat runs on a fake clock; the rest waits for states
// (lines received, followers attached), never for a time.
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { followRunLogs } from '../../src/logs/follow.js';
import { type LogBatch, LogHub } from '../../src/logs/hub.js';
import type { LiveSink, SharedLines } from '../../src/logs/live.js';
import { gzipSseBody, plainSseBody } from '../../src/logs/sse-body.js';
import { SseEncoder } from '../../src/logs/sse-encoding.js';
import { GZIP_HEADER, GzipMember } from '../../src/logs/sse-gzip.js';
import { LogStore } from '../../src/logs/store.js';
import type { StoredLogLine } from '../../src/logs/types.js';
import { STORES } from '../api-helpers.js';
import { type DataFixture, lines, startDataFixture } from './fixture.js';

const line = (cursor: number): StoredLogLine => ({
  cursor,
  job_run_id: 'j',
  seq: cursor,
  stream: 'stdout',
  at: '2026-01-01T00:00:00.000Z',
  text: `l${cursor}`,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const batch = (from: number, to: number): LogBatch => range(from, to).map(line);
const cursors = (l: SharedLines) => l.batches.map((b) => b.map((x) => x.cursor));

describe('the beat', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes every dirty follower at the beat, one shared write per cursor, without waking its loop', async () => {
    vi.useFakeTimers();
    const encoder = new SseEncoder();
    const hub = new LogHub({ encoder, beatMs: 50 });
    const writes: [number, SharedLines][] = [];
    const subs = [1, 2, 3].map((i) => {
      const sub = hub.subscribe('r');
      const sink: LiveSink = {
        write: (l) => {
          writes.push([i, l]);
          return true;
        },
        ready: async () => {},
      };
      // Follower 3 resumes inside the first batch (after cursor 1).
      hub.attach(sub, i === 3 ? 1 : 0, sink);
      return sub;
    });
    let woken = 0;
    for (const s of subs)
      void s.wait(Number.POSITIVE_INFINITY).then(() => {
        woken++;
      });
    const b1 = batch(1, 3);
    hub.publish('r', b1);
    // Not inside the publish: ingestion's turn ends first.
    expect(writes).toEqual([]);
    // After a quiet spell, at once (the next turn, no beat to wait for).
    await vi.advanceTimersByTimeAsync(0);
    expect(writes.map(([i, l]) => [i, cursors(l)])).toEqual([
      [1, [[1, 2, 3]]],
      [2, [[1, 2, 3]]],
      [3, [[2, 3]]],
    ]);
    // Followers at one cursor share one write: the batch's own encoded Buffer.
    expect(writes[1][1]).toBe(writes[0][1]);
    expect(writes[0][1].plain()).toBe(encoder.encode(b1));
    // Lines right after a write wait for the beat, and what comes meanwhile joins the same write.
    writes.length = 0;
    const b2 = batch(4, 5);
    const b3 = batch(6, 6);
    hub.publish('r', b2);
    await vi.advanceTimersByTimeAsync(0);
    hub.publish('r', b3);
    await vi.advanceTimersByTimeAsync(10);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(writes.map(([i, l]) => [i, cursors(l)])).toEqual([1, 2, 3].map((i) => [i, [[4, 5], [6]]]));
    const joined = writes[0][1];
    expect(writes.every(([, l]) => l === joined)).toBe(true);
    expect(joined.plain()).toEqual(Buffer.concat([encoder.encode(b2), encoder.encode(b3)]));
    // gzip: the batches' shared chunks joined, with one combined CRC a gunzip checks.
    const member = new GzipMember();
    const body = Buffer.concat([GZIP_HEADER, member.add(joined.gzip()), member.trailer()]);
    expect(gunzipSync(body)).toEqual(joined.plain());
    expect(encoder.encodes).toBe(3);
    expect(encoder.compressions).toBe(2);
    // Nobody's loop ran: the hub wrote them all.
    expect(woken).toBe(0);
    expect(hub.liveStats('r')).toMatchObject({ attached: 3, writes: 6, letGo: 0 });
    for (const s of subs) s.close();
    expect(hub.subscriberCount('r')).toBe(0);
  });

  it('skips a follower whose socket is full until it drains, then writes it what came meanwhile; lets go of one the ring cannot continue', async () => {
    vi.useFakeTimers();
    const hub = new LogHub({ ringLines: 5 });
    let full = true;
    let drain = () => {};
    const slowGot: number[][][] = [];
    const slow = hub.subscribe('r');
    const fast = hub.subscribe('r');
    hub.attach(slow, 0, {
      write: (l) => {
        slowGot.push(cursors(l));
        return !full;
      },
      ready: () =>
        new Promise<void>((resolve) => {
          drain = resolve;
        }),
    });
    hub.attach(fast, 0, { write: () => true, ready: async () => {} });
    let slowWoken = false;
    void slow.wait(Number.POSITIVE_INFINITY).then(() => {
      slowWoken = true;
    });
    void fast.wait(Number.POSITIVE_INFINITY);
    hub.publish('r', batch(1, 3));
    await vi.advanceTimersByTimeAsync(0);
    // The write was taken (its socket buffers it); the socket is over its mark: nothing more until it drains.
    expect(slowGot).toEqual([[[1, 2, 3]]]);
    hub.publish('r', batch(4, 5));
    await vi.advanceTimersByTimeAsync(100);
    expect(slowGot).toHaveLength(1);
    expect(hub.liveStats('r')).toMatchObject({ attached: 2, letGo: 0 });
    // Drained: what came meanwhile, from the ring, in one write; its loop was never woken.
    full = false;
    drain();
    await vi.advanceTimersByTimeAsync(100);
    expect(slowGot).toEqual([[[1, 2, 3]], [[4, 5]]]);
    expect(slowWoken).toBe(false);
    // A follower attaching behind what the ring still holds (5 lines: 4–8) is let go without a write.
    hub.publish('r', batch(6, 8));
    const late = hub.subscribe('r');
    let wrote = false;
    hub.attach(late, 1, {
      write: () => {
        wrote = true;
        return true;
      },
      ready: async () => {},
    });
    const lateWait = late.wait(Number.POSITIVE_INFINITY);
    await vi.advanceTimersByTimeAsync(100);
    expect(await lateWait).toBe('data');
    expect(wrote).toBe(false);
    expect(hub.detach(late)).toBe(1);
    for (const s of [slow, fast, late]) s.close();
  });
});

describe('a broken socket', () => {
  it('is let go and the pass goes on to the next follower', async () => {
    const hub = new LogHub();
    const broken = hub.subscribe('r');
    const fine = hub.subscribe('r');
    const got: number[] = [];
    hub.attach(broken, 0, {
      write: () => {
        throw new Error('EPIPE');
      },
      ready: async () => {},
    });
    hub.attach(fine, 0, {
      write: (l) => {
        for (const b of l.batches) for (const x of b) got.push(x.cursor);
        return true;
      },
      ready: async () => {},
    });
    const brokenWait = broken.wait(Number.POSITIVE_INFINITY);
    void fine.wait(Number.POSITIVE_INFINITY);
    hub.publish('r', batch(1, 2));
    expect(await brokenWait).toBe('data');
    while (got.length < 2) await new Promise((r) => setImmediate(r));
    expect(got).toEqual([1, 2]);
    expect(hub.liveStats('r')).toMatchObject({ attached: 1, letGo: 1 });
    broken.close();
    fine.close();
  });
});

describe.each(STORES)('live write path on %s', (kind) => {
  let f: DataFixture;
  beforeAll(async () => {
    f = await startDataFixture(kind);
  });
  afterAll(() => f.server.close());

  it('a follower that stops reading falls out to catch-up and rejoins without a gap or a repeat, plain and gzip', async () => {
    const encoder = new SseEncoder();
    // A ring of 100 lines: the stopped followers fall past it and catch up from the store.
    const hub = new LogHub({ ringLines: 100, encoder });
    const logs = new LogStore({ db: f.server.database.db, postgres: kind === 'postgres', hub });
    const { runId, compile, lint } = await f.newRun();
    let finished = false;

    /** A follower as the SSE route makes it: a body (plain or gzip) written by the hub and by its loop. */
    function client(gzip: boolean, stopped: boolean) {
      const body = gzip ? gzipSseBody(encoder) : plainSseBody(encoder);
      const out: Buffer[] = [Buffer.from(body.start())];
      const got: number[] = [];
      const state = { stopped, hubWrites: 0, release: () => {} };
      const sink: LiveSink = {
        write: (l) => {
          state.hubWrites++;
          for (const b of l.batches) for (const x of b) got.push(x.cursor);
          out.push(body.lines(l));
          return !state.stopped;
        },
        // A stopped reader's socket drains once it reads again.
        ready: () =>
          state.stopped
            ? new Promise<void>((resolve) => {
                state.release = resolve;
              })
            : Promise.resolve(),
      };
      const done = (async () => {
        for await (const b of followRunLogs({
          store: logs,
          hub,
          runId,
          after: 0,
          isFinished: async () => finished,
          pollMs: 600_000,
          live: sink,
        })) {
          for (const x of b) got.push(x.cursor);
          out.push(body.batch(b));
        }
        out.push(Buffer.from(body.end('event: end\n\n')));
      })();
      return {
        got,
        state,
        done,
        resume: () => {
          state.stopped = false;
          state.release();
        },
        text: () => (gzip ? gunzipSync(Buffer.concat(out)) : Buffer.concat(out)).toString(),
      };
    }

    const readers = [client(false, false), client(true, false)];
    const stopped = [client(false, true), client(true, true)];
    const all = [...readers, ...stopped];
    const until = async (cond: () => boolean) => {
      while (!cond()) await new Promise((r) => setTimeout(r, 5));
    };
    await until(() => hub.liveStats(runId).attached === 4);
    // The stopped followers take one write (their socket buffers it) and are skipped from then on.
    await logs.appendLogBatch(compile, lines(10, 1));
    await until(() => stopped.every((s) => s.state.hubWrites === 1));
    for (let i = 1; i < 20; i++) {
      await logs.appendLogBatch(compile, lines(10, 1 + i * 10));
      await logs.appendLogBatch(lint, lines(10, 1 + (i - 1) * 10, 'lint'));
    }
    // Nobody waits for them: the readers have every line, in order, written by the hub.
    await until(() => readers.every((r) => r.got.length >= 390));
    for (const r of readers) expect(r.got).toEqual(range(1, 390));
    expect(readers.every((r) => r.state.hubWrites > 0)).toBe(true);
    // Bounded: nothing is queued for them; the ring holds 100 lines, not the run's 390.
    for (const s of hub.subscriptions(runId)) expect(s.pendingBytes).toBe(0);
    expect(hub.ringSize(runId).lines).toBeLessThanOrEqual(100);
    for (const s of stopped) expect(s.got.length).toBeLessThan(390);
    // Read again, they are let go (lines 11–290 left the ring), catch up by their cursor from the store and
    // attach again.
    const writesBefore = stopped.map((s) => s.state.hubWrites);
    for (const s of stopped) s.resume();
    await until(() => stopped.every((s) => s.got.length >= 390) && hub.liveStats(runId).attached === 4);
    for (const s of stopped) expect(s.got).toEqual(range(1, 390));
    expect(hub.liveStats(runId).letGo).toBe(2);
    // Rejoined: the next lines reach them through the hub's write, not their loop.
    await logs.appendLogBatch(lint, lines(10, 191, 'lint'));
    await until(() => all.every((c) => c.got.length >= 400));
    for (const [i, s] of stopped.entries()) expect(s.state.hubWrites).toBeGreaterThan(writesBefore[i]);
    finished = true;
    hub.wake(runId);
    await Promise.all(all.map((c) => c.done));
    for (const c of all) expect(c.got).toEqual(range(1, 400));
    // One encoding per published batch (the store pages the catch-up read are encoded once, shared).
    expect(encoder.encodes).toBeLessThanOrEqual(40 + 2);
    // Every body, plain or gunzipped, is the same text.
    const text = all[0].text();
    expect(text.match(/^event: log$/gm)?.length).toBe(400);
    for (const c of all) expect(c.text()).toBe(text);
    expect(hub.subscriberCount(runId)).toBe(0);
  });
});
