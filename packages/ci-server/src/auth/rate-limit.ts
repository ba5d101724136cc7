// Failed sign-in limiter, per username and per client address (fixed windows, in memory). While a key is
// over its limit every attempt is refused with 429 — also one with the right password — so guessing cannot
// continue. Memory is bounded: the oldest keys are dropped past `maxKeys`.
export interface LimiterOptions {
  /** Failures allowed per username within a window. */
  perUser: number;
  /** Failures allowed per client address within a window. */
  perAddress: number;
  windowMs: number;
  maxKeys?: number;
  now?: () => number;
}

export const DEFAULT_LOGIN_LIMITS: LimiterOptions = {
  perUser: 10,
  perAddress: 50,
  windowMs: 15 * 60 * 1000,
};

interface Counter {
  count: number;
  resetAt: number;
}

export class LoginLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(private readonly options: LimiterOptions = DEFAULT_LOGIN_LIMITS) {
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  private live(key: string): Counter | undefined {
    const c = this.counters.get(key);
    if (c && c.resetAt <= this.now()) {
      this.counters.delete(key);
      return undefined;
    }
    return c;
  }

  /** Seconds until the caller may try again, or 0 when the attempt may proceed. */
  retryAfter(username: string, address: string): number {
    const checks: Array<[string, number]> = [
      [`u:${username.toLowerCase()}`, this.options.perUser],
      [`a:${address}`, this.options.perAddress],
    ];
    let wait = 0;
    for (const [key, limit] of checks) {
      const c = this.live(key);
      if (c && c.count >= limit) wait = Math.max(wait, Math.ceil((c.resetAt - this.now()) / 1000));
    }
    return wait;
  }

  recordFailure(username: string, address: string): void {
    for (const key of [`u:${username.toLowerCase()}`, `a:${address}`]) {
      const c = this.live(key);
      if (c) c.count += 1;
      else {
        if (this.counters.size >= this.maxKeys) {
          const oldest = this.counters.keys().next().value;
          if (oldest !== undefined) this.counters.delete(oldest);
        }
        this.counters.set(key, { count: 1, resetAt: this.now() + this.options.windowMs });
      }
    }
  }

  /** A successful sign-in clears the user's counter (not the address's). */
  recordSuccess(username: string): void {
    this.counters.delete(`u:${username.toLowerCase()}`);
  }
}
