// One follower's subscription to a run's live lines in the hub: a queue of the shared batches bounded by
// lines and bytes (overflowing rather than growing: the follower then catches up by its cursor), and the
// wait with which the follower sleeps until data, a wake, another replica's lines or its deadline. A follower
// the hub writes itself (live.ts) keeps no queue: it waits here while attached, and the hub ends its wait
// when it lets go of it (the follower fell behind) with `data`.
import type { LiveFollower } from './live.js';
import { SharedTimers } from './shared-timers.js';
import type { LogBatch } from './sse-encoding.js';

/** `stored`: another replica stored lines of the run; they are in the store, not in this buffer. */
export type WakeReason = 'data' | 'wake' | 'stored' | 'timeout';

export class LogSubscription {
  /** Set once the hub writes this follower itself (hub.attach): its queue is then not used. */
  live: LiveFollower | undefined;
  private buffer: LogBatch[] = [];
  private buffered = 0;
  private bufferedBytes = 0;
  /** Times the queue overflowed (the follower then caught up by its cursor). */
  private overflows = 0;
  private overflow = false;
  private closed = false;
  private waiter: ((why: WakeReason) => void) | undefined;
  /** A wake that came while nobody waited: the next `wait()` returns at once (no lost wake-ups). */
  private signaled = false;
  /** Lines were stored elsewhere since the last wait: the next `wait()` answers `stored` at once. */
  private storedElsewhere = false;
  /** Ends a wait at its deadline: one function per subscription, in the hub's shared timer of the period. */
  private readonly expire = () => {
    this.resolveWaiter('timeout');
  };

  constructor(
    readonly runId: string,
    private readonly capacity: number,
    private readonly capacityBytes: number,
    private readonly onClose: (s: LogSubscription) => void,
    private readonly timers: SharedTimers = new SharedTimers(),
  ) {}

  /** Called by the hub with the batch's encoded size; never blocks and never copies the batch. */
  push(batch: LogBatch, bytes = 0): void {
    if (this.closed || this.live) return;
    if (!this.overflow) {
      if (this.buffered + batch.length > this.capacity || this.bufferedBytes + bytes > this.capacityBytes) {
        this.overflow = true;
        this.overflows++;
        this.buffer = [];
        this.buffered = 0;
        this.bufferedBytes = 0;
      } else {
        this.buffer.push(batch);
        this.buffered += batch.length;
        this.bufferedBytes += bytes;
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

  /** The hub let go of the follower it wrote (it fell behind): its wait ends with `data`, at once if none. */
  letGo(): void {
    this.overflows++;
    if (!this.resolveWaiter('data')) this.overflow = true;
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
    this.bufferedBytes = 0;
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
      // The deadline is the hub's timer of this period, shared by every follower waiting with it (a
      // follower's wait may so end a little early: it then checks the store a little early).
      this.waiter = (why) => {
        if (why !== 'timeout' && Number.isFinite(timeoutMs)) this.timers.remove(timeoutMs, this.expire);
        resolve(why);
      };
      // No deadline (a follower the hub writes: the run's one check wakes it).
      if (Number.isFinite(timeoutMs)) this.timers.add(timeoutMs, this.expire);
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = [];
    this.buffered = 0;
    this.bufferedBytes = 0;
    this.resolveWaiter('wake');
    this.onClose(this);
  }

  get held(): { pendingLines: number; pendingBytes: number; overflows: number } {
    return { pendingLines: this.buffered, pendingBytes: this.bufferedBytes, overflows: this.overflows };
  }

  get isClosed(): boolean {
    return this.closed;
  }
}
