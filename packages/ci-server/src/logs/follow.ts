// Following a run's log: replay from a cursor, then live lines from the hub, until the run is terminal and
// its tail is read. The hub is only a fast path: whenever it cannot prove it has every line after the
// cursor (its buffer overflowed, or cursors jump — lines written by another server replica, a resent
// duplicate), the follower reads the store from its cursor instead. Lines another replica stored are
// announced by a `stored` wake (PostgreSQL NOTIFY, replicas/); a periodic read covers what no notification
// announced (SQLite has none; a listener reconnecting may have missed some). Each line is yielded once, in
// cursor order.
import type { LogHub } from './hub.js';
import type { LogStore } from './store.js';
import type { StoredLogLine } from './types.js';

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
}

export async function* followRunLogs(options: FollowOptions): AsyncGenerator<StoredLogLine[]> {
  const { store, hub, runId, signal } = options;
  const pollMs = options.pollMs ?? 1_000;
  const pageSize = options.pageSize ?? 500;
  // Subscribe before the first replay, so nothing committed in between is missed.
  const sub = hub.subscribe(runId, options.capacity);
  const onAbort = () => sub.wake();
  signal?.addEventListener('abort', onAbort);
  let cursor = options.after;

  async function* replay(): AsyncGenerator<StoredLogLine[]> {
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
    while (!signal?.aborted) {
      const { lines, overflowed } = sub.take();
      const fresh = overflowed ? [] : lines.filter((l) => l.cursor > cursor);
      if (overflowed || !contiguous(fresh, cursor)) {
        yield* replay();
      } else if (fresh.length > 0) {
        cursor = fresh[fresh.length - 1].cursor;
        yield fresh;
      }
      if (finished) {
        // The run was terminal before this read began: whatever its jobs stored is now in hand.
        yield* replay();
        return;
      }
      const why = await sub.wait(pollMs);
      if (signal?.aborted) break;
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

function contiguous(lines: StoredLogLine[], cursor: number): boolean {
  let expected = cursor + 1;
  for (const line of lines) {
    if (line.cursor !== expected) return false;
    expected++;
  }
  return true;
}
