// Following a run's log: replay from a cursor, then live lines from the hub, until the run is terminal and
// its tail is read. Live lines come as the hub's shared batches (yielded as they are, so the SSE route can
// encode each once for every follower). The hub is only a fast path: whenever a follower's own queue
// cannot prove it has every line after the cursor (it overflowed, or cursors jump — lines written by another
// server replica, a resent duplicate), the follower catches up from the hub's ring of recent batches, and
// only when the ring cannot prove it either, from the store from its cursor. Wakes are coalesced: a follower
// that just yielded waits `coalesceMs` before taking again, so a busy run costs each follower at most one
// write per period while a line after a quiet spell goes out at once. Lines another replica stored are
// announced by a `stored` wake (PostgreSQL NOTIFY, replicas/); a periodic read covers what no notification
// announced (SQLite has none; a listener reconnecting may have missed some). Each line is yielded once, in
// cursor order.
import { chainAfter, type LogBatch, type LogHub } from './hub.js';
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
  /** Buffer of the hub subscription. */
  capacity?: number;
  signal?: AbortSignal;
  /** Least time between two yields of live lines (default 50 ms; 0 yields every wake). */
  coalesceMs?: number;
}

/** Least time between two writes of live lines to one follower. */
export const DEFAULT_COALESCE_MS = 50;

export async function* followRunLogs(options: FollowOptions): AsyncGenerator<LogBatch> {
  const { store, hub, runId, signal } = options;
  const pollMs = options.pollMs ?? 1_000;
  const coalesceMs = options.coalesceMs ?? DEFAULT_COALESCE_MS;
  const pageSize = options.pageSize ?? 500;
  // Subscribe before the first replay, so nothing committed in between is missed.
  const sub = hub.subscribe(runId, options.capacity);
  const onAbort = () => sub.wake();
  signal?.addEventListener('abort', onAbort);
  let cursor = options.after;

  async function* replay(): AsyncGenerator<LogBatch> {
    while (!signal?.aborted) {
      const page = await store.readRunLogs(runId, cursor, pageSize);
      if (page.length === 0) return;
      cursor = page[page.length - 1].cursor;
      yield page;
      if (page.length < pageSize) return;
    }
  }

  try {
    // A run that is already over: its whole log, then the end.
    let finished = await options.isFinished();
    yield* replay();
    if (finished) return;
    let lastCheck = Date.now();
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
        if (since < coalesceMs) await new Promise((r) => setTimeout(r, coalesceMs - since));
      }
      if (why === 'stored') {
        // Another replica stored lines (NOTIFY): read them now rather than at the next periodic check.
        if (!sub.pending) yield* replay();
        // A steady stream of notifications must not postpone the periodic check for the run's end.
        if (Date.now() - lastCheck < pollMs) continue;
      }
      if (why !== 'data' || Date.now() - lastCheck >= pollMs) {
        lastCheck = Date.now();
        finished = await options.isFinished();
        // Lines stored by another replica reach this process only through the store.
        if (!finished && !sub.pending) yield* replay();
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    sub.close();
  }
}
