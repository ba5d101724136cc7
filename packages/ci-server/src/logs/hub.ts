// In-process pub/sub of freshly stored log lines, per run. Ingestion publishes after its commit and never
// waits for a reader. A published batch is one array shared by every follower (a subscriber holds a
// reference, never a copy), so whatever a reader derives from it (the SSE encoding) can be made once for
// all of them. Each subscriber has a bounded queue; one that falls behind is marked `overflowed` (its queue
// dropped) and catches up from the run's ring of recent batches — the same shared arrays — and only past
// the ring from the store, so a thousand slow followers do not turn into a thousand store replays.
import type { StoredLogLine } from './types.js';

/** A batch of one run's lines as published: shared, never modified. */
export type LogBatch = readonly StoredLogLine[];

/** Lines a subscriber may hold before it must fall back to the ring (references: a few bytes per batch). */
export const DEFAULT_SUBSCRIBER_CAPACITY = 2_000;

/** Lines of recent batches a followed run keeps for followers that fell behind. */
export const DEFAULT_RING_LINES = 50_000;

/** `stored`: another replica stored lines of the run; they are in the store, not in this buffer. */
export type WakeReason = 'data' | 'wake' | 'stored' | 'timeout';

export class LogSubscription {
  private buffer: LogBatch[] = [];
  private buffered = 0;
  private overflow = false;
  private closed = false;
  private waiter: ((why: WakeReason) => void) | undefined;
  /** A wake that came while nobody waited: the next `wait()` returns at once (no lost wake-ups). */
  private signaled = false;
  /** Lines were stored elsewhere since the last wait: the next `wait()` answers `stored` at once. */
  private storedElsewhere = false;

  constructor(
    readonly runId: string,
    private readonly capacity: number,
    private readonly onClose: (s: LogSubscription) => void,
  ) {}

  /** Called by the hub; never blocks and never copies the batch. */
  push(batch: LogBatch): void {
    if (this.closed) return;
    if (!this.overflow) {
      if (this.buffered + batch.length > this.capacity) {
        this.overflow = true;
        this.buffer = [];
        this.buffered = 0;
      } else {
        this.buffer.push(batch);
        this.buffered += batch.length;
      }
    }
    // Data is its own signal (`pending`): only a waiting reader needs a nudge.
    this.resolveWaiter('data');
  }

  private resolveWaiter(why: WakeReason): boolean {
    const w = this.waiter;
    this.waiter = undefined;
    w?.(why);
    return w !== undefined;
  }

  /** Wakes a pending `wait()` without data (the run may have finished). */
  wake(): void {
    if (!this.resolveWaiter('wake')) this.signaled = true;
  }

  /** Another replica stored lines of this run: a waiting reader reads the store. */
  stored(): void {
    if (!this.resolveWaiter('stored')) this.storedElsewhere = true;
  }

  /**
   * Takes the batches buffered, in publish order. `overflowed` means batches were dropped since the last
   * take: the reader must catch up from its own cursor (the ring, else the store; batches are then empty).
   */
  take(): { batches: LogBatch[]; overflowed: boolean } {
    const result = { batches: this.buffer, overflowed: this.overflow };
    this.buffer = [];
    this.buffered = 0;
    this.overflow = false;
    return result;
  }

  get pending(): boolean {
    return this.buffer.length > 0 || this.overflow;
  }

  /**
   * Resolves with why it returned: `wake` (a `wake()` since the last wait, or closed), `data` (lines or an
   * overflow are pending), or `timeout` after `timeoutMs`. A wake is never lost, even with data pending.
   */
  wait(timeoutMs: number): Promise<WakeReason> {
    if (this.signaled || this.closed) {
      this.signaled = false;
      return Promise.resolve('wake');
    }
    if (this.storedElsewhere) {
      this.storedElsewhere = false;
      return Promise.resolve('stored');
    }
    if (this.pending) return Promise.resolve('data');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve('timeout');
      }, timeoutMs);
      this.waiter = (why) => {
        clearTimeout(timer);
        resolve(why);
      };
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = [];
    this.buffered = 0;
    this.resolveWaiter('wake');
    this.onClose(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

/** The recent batches of one followed run, oldest first, bounded by lines. */
class Ring {
  batches: LogBatch[] = [];
  lines = 0;

  add(batch: LogBatch, limit: number): void {
    this.batches.push(batch);
    this.lines += batch.length;
    let drop = 0;
    while (this.lines > limit && drop < this.batches.length - 1) {
      this.lines -= this.batches[drop].length;
      drop++;
    }
    if (drop > 0) this.batches.splice(0, drop);
  }
}

export class LogHub {
  private readonly subscribers = new Map<string, Set<LogSubscription>>();
  private readonly rings = new Map<string, Ring>();
  private readonly observers: ((runId: string) => void)[] = [];

  constructor(private readonly ringLines = DEFAULT_RING_LINES) {}

  /** Called after every publish (replicas/ announces stored lines to the other replicas). */
  onPublish(observer: (runId: string) => void): void {
    this.observers.push(observer);
  }

  /** Follows the lines published for `runId` from now on. Close it when done. */
  subscribe(runId: string, capacity = DEFAULT_SUBSCRIBER_CAPACITY): LogSubscription {
    const sub = new LogSubscription(runId, capacity, (s) => {
      const set = this.subscribers.get(runId);
      set?.delete(s);
      if (set && set.size === 0) {
        this.subscribers.delete(runId);
        // Nobody follows the run any more: its recent lines are the store's business again.
        this.rings.delete(runId);
      }
    });
    let set = this.subscribers.get(runId);
    if (!set) {
      set = new Set();
      this.subscribers.set(runId, set);
      this.rings.set(runId, new Ring());
    }
    set.add(sub);
    return sub;
  }

  /** Lines of one run just committed, in cursor order. Only followed runs keep them (in the ring). */
  publish(runId: string, lines: readonly StoredLogLine[]): void {
    if (lines.length === 0) return;
    for (const observer of this.observers) observer(runId);
    const set = this.subscribers.get(runId);
    if (!set) return;
    this.rings.get(runId)?.add(lines, this.ringLines);
    for (const sub of set) sub.push(lines);
  }

  /**
   * The run's lines after `cursor` from the ring, as shared batches without a gap (the first one cut when
   * it starts at or before the cursor), or undefined when the ring cannot prove it holds every one of them
   * (it lost older batches, or batches of concurrent commits were published out of order).
   */
  recent(runId: string, cursor: number): LogBatch[] | undefined {
    const ring = this.rings.get(runId);
    if (!ring || ring.batches.length === 0) return undefined;
    return chainAfter(ring.batches, cursor);
  }

  /** Another replica stored lines of `runId` (undefined: of any run, after missed notifications). */
  storedElsewhere(runId?: string): void {
    const sets = runId === undefined ? [...this.subscribers.values()] : [this.subscribers.get(runId)];
    for (const set of sets) for (const sub of set ?? []) sub.stored();
  }

  /** Wakes every follower of `runId` (e.g. the run reached a terminal state). */
  wake(runId: string): void {
    const set = this.subscribers.get(runId);
    if (!set) return;
    for (const sub of set) sub.wake();
  }

  subscriberCount(runId?: string): number {
    if (runId !== undefined) return this.subscribers.get(runId)?.size ?? 0;
    let n = 0;
    for (const set of this.subscribers.values()) n += set.size;
    return n;
  }
}

/**
 * The lines after `cursor` in `batches` as a chain of batches whose cursors follow each other without a
 * gap, starting at cursor + 1; undefined when the batches do not reach back to it or skip a cursor.
 * Batches wholly at or before the cursor are left out; the one that straddles it is cut (a new array).
 */
export function chainAfter(batches: readonly LogBatch[], cursor: number): LogBatch[] | undefined {
  const out: LogBatch[] = [];
  let expected = cursor + 1;
  let started = false;
  for (const batch of batches) {
    if (batch.length === 0) continue;
    const first = batch[0].cursor;
    const last = batch[batch.length - 1].cursor;
    if (last < expected) continue;
    if (!started && first > expected) return undefined;
    if (first === expected && last - first === batch.length - 1) out.push(batch);
    else {
      // Straddles the cursor, or is not dense inside: keep its lines that continue the chain, if all do.
      const rest = batch.filter((l) => l.cursor >= expected);
      for (let i = 0; i < rest.length; i++) if (rest[i].cursor !== expected + i) return undefined;
      out.push(rest);
    }
    started = true;
    expected = out[out.length - 1][out[out.length - 1].length - 1].cursor + 1;
  }
  return out;
}
