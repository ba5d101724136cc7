// One timer per period for many waiters: what a thousand followers of a run use instead of a timer each.
// A follower that waits for data with a deadline (the periodic check), or waits out the rest of its
// coalescing period, joins the set of its period; the period's one timer, armed while the set is not
// empty, calls everyone in it when it fires. A waiter may so be called earlier than its own period after it
// joined (never later): the periodic check comes a little early, and a coalesced write goes out at the
// shared tick — still at most one per follower and period, and every follower of a run on the same beat,
// so their store reads coincide and are shared. Creating and clearing a timer at every wake of every
// follower was a good part of the fan-out's CPU.

export class SharedTimers {
  private readonly periods = new Map<number, { timer: NodeJS.Timeout; waiters: Set<() => void> }>();

  /** Calls `callback` once when the period's timer next fires (at most `ms` from now). */
  add(ms: number, callback: () => void): void {
    let period = this.periods.get(ms);
    if (period === undefined) {
      const waiters = new Set<() => void>();
      const timer = setTimeout(() => {
        this.periods.delete(ms);
        for (const w of waiters) w();
      }, ms);
      period = { timer, waiters };
      this.periods.set(ms, period);
    }
    period.waiters.add(callback);
  }

  /** Forgets `callback` (it was called back by something else first); the last one out stops the timer. */
  remove(ms: number, callback: () => void): void {
    const period = this.periods.get(ms);
    if (period === undefined) return;
    period.waiters.delete(callback);
    if (period.waiters.size === 0) {
      clearTimeout(period.timer);
      this.periods.delete(ms);
    }
  }
}
