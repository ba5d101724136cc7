// Following a run's log: replay from a cursor, then live lines from the hub, until the run is terminal and
// its tail is read. Live lines come as the hub's shared batches (yielded as they are, so the SSE route can
// encode each once for every follower). The hub is only a fast path: whenever a follower's own queue
// cannot prove it has every line after the cursor (it overflowed, or cursors jump — lines written by another
// server replica, a resent duplicate), the follower catches up from the hub's ring of recent batches, and
// only when the ring cannot prove it either, from the store from its cursor. Wakes are coalesced: a follower
// that just yielded waits for the hub's next `coalesceMs` beat before taking again (one timer for all
// followers), so a busy run costs each follower at most one write per period while a line after a quiet
// spell goes out at once. Lines another replica stored are
// announced by a `stored` wake (PostgreSQL NOTIFY, replicas/); a periodic read covers what no notification
// announced (SQLite has none; a listener reconnecting may have missed some). Store pages come through the
// hub's shared reads: the followers one notification wakes, all at the same cursor, cost one read and one
// encoding. Each line is yielded once, in cursor order.
// With a `live` sink (the SSE route's socket) a follower that has caught up yields nothing while it keeps
// up: it attaches to the hub's live path and the hub writes its lines to the sink itself, at the run's beat
// (live.ts), while this loop sleeps until the hub lets go of it (a gap only the store fills), a wake (the
// run ended, or the run's one periodic check found lines or the end), or another replica's lines. It then
// takes its cursor back, waits for the socket to drain, catches up (ring, then store) and attaches again.
import { chainAfter, type LogBatch, type LogHub } from './hub.js';
import type { LiveSink } from './live.js';
import type { LogStore } from './store.js';

export interface FollowOptions {
  store: LogStore;
  hub: LogHub;
  runId: string;
  /** Yield lines after this cursor (0: from the start). */
  after: number;
  /** True once the run is in a terminal state (read from the store). */
  isFinished: () => Promise<boolean>;
  /** How often to check the store when nothing was published (other replicas, the end of the run). */
  pollMs?: number;
  /** Lines per replay page. */
  pageSize?: number;
  /** Buffer of the hub subscription, in lines. */
  capacity?: number;
  /** Buffer of the hub subscription, in encoded bytes. */
  capacityBytes?: number;
  signal?: AbortSignal;
  /** Least time between two yields of live lines (default 50 ms; 0 yields every wake). */
  coalesceMs?: number;
  /** Where the hub writes live lines itself while the follower keeps up (what is yielded is the rest). */
  live?: LiveSink;
}

/** Least time between two writes of live lines to one follower. */
export const DEFAULT_COALESCE_MS = 50;

export async function* followRunLogs(options: FollowOptions): AsyncGenerator<LogBatch> {
  const { store, hub, runId, signal } = options;
  const pollMs = options.pollMs ?? 1_000;
  const coalesceMs = options.coalesceMs ?? DEFAULT_COALESCE_MS;
  const pageSize = options.pageSize ?? 500;
  // Subscribe before the first replay, so nothing committed in between is missed.
  const sub = hub.subscribe(runId, options.capacity, options.capacityBytes);
  const onAbort = () => sub.wake();
  signal?.addEventListener('abort', onAbort);
  let cursor = options.after;
  // Every follower of the run asks the same question at the same wake: one store read answers them all.
  const isFinished = () => hub.shared(runId, 'finished', options.isFinished);

  async function* replay(): AsyncGenerator<LogBatch> {
    while (!signal?.aborted) {
      // Followers at the same cursor (woken by one notification, or by the run's end) share the read.
      const page = await hub.read(store, runId, cursor, pageSize);
      if (page.length === 0) return;
      cursor = page[page.length - 1].cursor;
      yield page;
      if (page.length < pageSize) return;
    }
  }

  // The ring's batches after the cursor, when it can prove it holds every one: shared arrays and bytes.
  async function* fromRing(): AsyncGenerator<LogBatch, boolean> {
    const recent = hub.recent(runId, cursor);
    if (recent === undefined) return false;
    for (const batch of recent) {
      cursor = batch[batch.length - 1].cursor;
      yield batch;
    }
    return true;
  }

  // Before a check of the store (another replica's lines, a periodic check), whatever the ring holds: with
  // many followers the hub hands batches out over several turns, and a follower the hand-out has not
  // reached yet must not read (and encode) lines from the store that the ring already holds encoded.
  async function* catchUp(): AsyncGenerator<LogBatch> {
    yield* fromRing();
    yield* replay();
  }

  try {
    // A run that is already over: its whole log, then the end.
    let finished = await isFinished();
    if (finished) {
      yield* replay();
      return;
    }
    // A live run's recent lines are in the ring when others follow it: a follower resuming inside the ring
    // (Last-Event-ID) takes the shared batches and bytes from there, and only older lines from the store.
    if (!(yield* fromRing())) yield* replay();
    let lastCheck = Date.now();
    if (options.live) {
      const live = options.live;
      // The ring's lines after the cursor as one write shared by every follower catching up from there (not
      // a write per batch); false when the ring cannot prove it holds them all.
      const fromRingLive = async (): Promise<boolean> => {
        const lines = hub.recentLines(runId, cursor);
        if (lines === undefined) return false;
        if (lines !== null) {
          cursor = lines.last;
          if (!live.write(lines)) await live.ready();
        }
        return true;
      };
      // The run's periodic check, made once for all its attached followers (not a wake of each): the run
      // is over, or the store has lines past the followers no publish or notification brought.
      const check = async (after: number) =>
        (await isFinished()) || (await hub.read(store, runId, after, 1)).length > 0;
      while (!signal?.aborted) {
        hub.attach(sub, cursor, live, check, pollMs);
        const why = await sub.wait(Number.POSITIVE_INFINITY);
        cursor = hub.detach(sub) ?? cursor;
        if (signal?.aborted) break;
        if (why === 'data') {
          // Let go: a gap the ring cannot fill (or its socket broke). Nothing is read for it before it drains.
          await live.ready();
          if (signal?.aborted) break;
          if (!(await fromRingLive())) yield* replay();
          continue;
        }
        if (why === 'stored') {
          // Another replica stored lines: what the ring holds, then the store from there.
          await fromRingLive();
          yield* replay();
          if (Date.now() - lastCheck < pollMs) continue;
        }
        lastCheck = Date.now();
        const over = await isFinished();
        // The ring, then the store: lines no notification announced, or (the run was terminal before this
        // read began) whatever its jobs stored.
        await fromRingLive();
        yield* replay();
        if (over) return;
      }
      return;
    }
    let lastYield = 0;
    while (!signal?.aborted) {
      const { batches, overflowed } = sub.take();
      const chain = (overflowed ? undefined : chainAfter(batches, cursor)) ?? hub.recent(runId, cursor);
      if (chain === undefined) {
        yield* replay();
        lastYield = Date.now();
      } else if (chain.length > 0) {
        for (const batch of chain) {
          cursor = batch[batch.length - 1].cursor;
          yield batch;
        }
        lastYield = Date.now();
      }
      if (finished) {
        // The run was terminal before this read began: whatever its jobs stored is now in hand.
        yield* replay();
        return;
      }
      const why = await sub.wait(pollMs);
      if (signal?.aborted) break;
      if (why === 'data' && coalesceMs > 0) {
        // More lines right after a write: let them gather, one write for the lot.
        const since = Date.now() - lastYield;
        // The hub's shared beat, not a timer per follower: every follower of the run writes on it.
        if (since < coalesceMs) await hub.tick(coalesceMs);
      }
      if (why === 'stored') {
        // Another replica stored lines (NOTIFY): read them now rather than at the next periodic check.
        if (!sub.pending) yield* catchUp();
        // A steady stream of notifications must not postpone the periodic check for the run's end.
        if (Date.now() - lastCheck < pollMs) continue;
      }
      if (why !== 'data' || Date.now() - lastCheck >= pollMs) {
        lastCheck = Date.now();
        finished = await isFinished();
        // Lines stored by another replica reach this process only through the store.
        if (!finished && !sub.pending) yield* catchUp();
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    sub.close();
  }
}
