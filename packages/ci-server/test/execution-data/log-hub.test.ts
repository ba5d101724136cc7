// The log hub's shared batches: every follower holds the published array itself, the ring keeps the recent
// ones for followers that fell behind, and chainAfter only answers when it can prove there is no gap.
// Followers wait with the hub's shared timers (one per period, however many wait), and a follower's first
// lines after a quiet spell go out at once while lines right after a write wait for the next beat (a fake
// clock: no test here depends on real time).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { followRunLogs } from '../../src/logs/follow.js';
import { chainAfter, type LogBatch, LogHub } from '../../src/logs/hub.js';
import { SharedTimers } from '../../src/logs/shared-timers.js';
import type { LogStore } from '../../src/logs/store.js';
import type { StoredLogLine } from '../../src/logs/types.js';

const line = (cursor: number): StoredLogLine => ({
  cursor,
  job_run_id: 'j',
  seq: cursor,
  stream: 'stdout',
  at: '2026-01-01T00:00:00.000Z',
  text: `l${cursor}`,
});
const batch = (from: number, to: number): LogBatch =>
  Array.from({ length: to - from + 1 }, (_, i) => line(from + i));
const cursors = (chain: LogBatch[] | undefined) => chain?.map((b) => b.map((l) => l.cursor));

describe('chainAfter', () => {
  const cases: [string, LogBatch[], number, number[][] | undefined][] = [
    ['nothing published', [], 0, []],
    [
      'whole batches after the cursor',
      [batch(1, 3), batch(4, 5)],
      0,
      [
        [1, 2, 3],
        [4, 5],
      ],
    ],
    ['a batch wholly before the cursor is left out', [batch(1, 3), batch(4, 5)], 3, [[4, 5]]],
    ['the straddling batch is cut', [batch(1, 3), batch(4, 6)], 4, [[5, 6]]],
    ['nothing newer than the cursor', [batch(1, 3)], 3, []],
    ['a gap before the first batch', [batch(5, 6)], 2, undefined],
    ['a gap between batches (out-of-order publishes)', [batch(1, 2), batch(4, 5)], 0, undefined],
    ['a batch with a hole inside', [[line(1), line(3)]], 0, undefined],
  ];
  it.each(cases)('%s', (_name, batches, cursor, expected) => {
    expect(cursors(chainAfter(batches, cursor))).toEqual(expected);
  });

  it('hands whole batches over as the same arrays', () => {
    const b = batch(1, 3);
    expect(chainAfter([b], 0)?.[0]).toBe(b);
  });
});

describe('LogHub', () => {
  it('gives every follower the published array itself, and a slow one catches up from the ring', () => {
    const hub = new LogHub(10);
    const fast = hub.subscribe('r');
    const slow = hub.subscribe('r', 4);
    const published = [batch(1, 3), batch(4, 6), batch(7, 9), batch(10, 12)];
    for (const b of published) hub.publish('r', b);
    const got = fast.take();
    expect(got.overflowed).toBe(false);
    for (const [i, b] of got.batches.entries()) expect(b).toBe(published[i]);
    // The slow one's queue of 4 lines overflowed; the ring (10 lines) still proves everything after 3.
    expect(slow.take()).toEqual({ batches: [], overflowed: true });
    expect(cursors(hub.recent('r', 3))).toEqual([
      [4, 5, 6],
      [7, 8, 9],
      [10, 11, 12],
    ]);
    // Older than the ring reaches: only the store can say.
    expect(hub.recent('r', 0)).toBeUndefined();
  });

  it('keeps no ring for a run nobody follows', () => {
    const hub = new LogHub();
    hub.publish('quiet', batch(1, 3));
    expect(hub.recent('quiet', 0)).toBeUndefined();
    const sub = hub.subscribe('quiet');
    hub.publish('quiet', batch(4, 5));
    expect(cursors(hub.recent('quiet', 3))).toEqual([[4, 5]]);
    sub.close();
    expect(hub.recent('quiet', 3)).toBeUndefined();
  });
});

describe('shared timers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('one timer per period for a thousand waiters, each called once; the last one out stops it', () => {
    vi.useFakeTimers();
    const timers = new SharedTimers();
    const calls = new Array(1000).fill(0);
    const callbacks = calls.map((_, i) => () => {
      calls[i]++;
    });
    for (const cb of callbacks) timers.add(50, cb);
    timers.add(1000, callbacks[0]);
    expect(vi.getTimerCount()).toBe(2);
    vi.advanceTimersByTime(50);
    expect(calls.every((n) => n === 1)).toBe(true);
    expect(vi.getTimerCount()).toBe(1);
    timers.remove(1000, callbacks[0]);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(calls.every((n) => n === 1)).toBe(true);
  });

  it('a hundred followers waiting with a deadline hold one timer; data ends their waits and the timer', async () => {
    vi.useFakeTimers();
    const hub = new LogHub();
    const subs = Array.from({ length: 100 }, () => hub.subscribe('r'));
    const waits = subs.map((s) => s.wait(1_000));
    expect(vi.getTimerCount()).toBe(1);
    hub.publish('r', batch(1, 2));
    expect(await Promise.all(waits)).toEqual(new Array(100).fill('data'));
    expect(vi.getTimerCount()).toBe(0);
    // Without data, the shared deadline ends every wait.
    for (const s of subs) s.take();
    const idle = subs.map((s) => s.wait(1_000));
    vi.advanceTimersByTime(1_000);
    expect(await Promise.all(idle)).toEqual(new Array(100).fill('timeout'));
    for (const s of subs) s.close();
  });

  it('lines after a quiet spell go out at once; lines right after a write wait for the next beat', async () => {
    vi.useFakeTimers();
    const hub = new LogHub();
    const store = { readRunLogs: async () => [] } as unknown as LogStore;
    const gen = followRunLogs({
      store,
      hub,
      runId: 'r',
      after: 0,
      isFinished: async () => false,
      pollMs: 600_000,
      coalesceMs: 50,
    });
    const settle = () => vi.advanceTimersByTimeAsync(0);
    let got: number[] | undefined;
    const next = () => {
      got = undefined;
      void gen.next().then((r) => {
        got = (r.value as LogBatch).map((l) => l.cursor);
      });
    };
    next();
    await settle();
    expect(hub.subscriberCount('r')).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    hub.publish('r', batch(1, 3));
    await settle();
    expect(got).toEqual([1, 2, 3]);
    next();
    await settle();
    hub.publish('r', batch(4, 5));
    await settle();
    // Right after a write: held for the beat, and what comes meanwhile joins the same write.
    expect(got).toBeUndefined();
    hub.publish('r', batch(6, 6));
    await vi.advanceTimersByTimeAsync(50);
    expect(got).toEqual([4, 5]);
    next();
    await settle();
    expect(got).toEqual([6]);
    await gen.return(undefined);
    expect(hub.subscriberCount('r')).toBe(0);
  });
});
