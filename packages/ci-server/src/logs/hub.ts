// In-process pub/sub of freshly stored log lines, per run. Ingestion publishes after its commit and never
// waits for a reader: each subscriber has a bounded buffer, and one that falls behind is marked `overflowed`
// (its buffer dropped) so it catches up by replaying from the store instead of holding memory or slowing
// the writer.
import type { StoredLogLine } from './types.js';

/** Lines a subscriber may hold before it must fall back to replay. */
export const DEFAULT_SUBSCRIBER_CAPACITY = 2_000;

/** `stored`: another replica stored lines of the run; they are in the store, not in this buffer. */
export type WakeReason = 'data' | 'wake' | 'stored' | 'timeout';

export class LogSubscription {
  private buffer: StoredLogLine[] = [];
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

  /** Called by the hub; never blocks. */
  push(lines: readonly StoredLogLine[]): void {
    if (this.closed) return;
    if (!this.overflow) {
      if (this.buffer.length + lines.length > this.capacity) {
        this.overflow = true;
        this.buffer = [];
      } else {
        for (const line of lines) this.buffer.push(line);
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
   * Takes what was buffered. `overflowed` means lines were dropped since the last take: the reader must
   * replay from the store from its own cursor (buffered lines are then empty).
   */
  take(): { lines: StoredLogLine[]; overflowed: boolean } {
    const result = { lines: this.buffer, overflowed: this.overflow };
    this.buffer = [];
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
    this.resolveWaiter('wake');
    this.onClose(this);
  }

  get isClosed(): boolean {
    return this.closed;
  }
}

export class LogHub {
  private readonly subscribers = new Map<string, Set<LogSubscription>>();
  private readonly observers: ((runId: string) => void)[] = [];

  /** Called after every publish (replicas/ announces stored lines to the other replicas). */
  onPublish(observer: (runId: string) => void): void {
    this.observers.push(observer);
  }

  /** Follows the lines published for `runId` from now on. Close it when done. */
  subscribe(runId: string, capacity = DEFAULT_SUBSCRIBER_CAPACITY): LogSubscription {
    const sub = new LogSubscription(runId, capacity, (s) => {
      const set = this.subscribers.get(runId);
      set?.delete(s);
      if (set && set.size === 0) this.subscribers.delete(runId);
    });
    let set = this.subscribers.get(runId);
    if (!set) {
      set = new Set();
      this.subscribers.set(runId, set);
    }
    set.add(sub);
    return sub;
  }

  /** Lines of one run just committed, in cursor order. */
  publish(runId: string, lines: readonly StoredLogLine[]): void {
    if (lines.length === 0) return;
    for (const observer of this.observers) observer(runId);
    const set = this.subscribers.get(runId);
    if (!set) return;
    for (const sub of set) sub.push(lines);
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
