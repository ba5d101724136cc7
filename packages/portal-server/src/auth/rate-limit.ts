// In-process fixed-window counters for rate limits (login, database-reaching routes). The spec says counters
// live in the process, so with several replicas each replica has its own budget. Memory is bounded.
export interface RateDecision {
  allowed: boolean;
  /** Seconds until the key's window resets (for `Retry-After`). */
  retryAfterSeconds: number;
  remaining: number;
}

export interface RateLimiterOptions {
  max: number;
  windowMs: number;
  /** Most keys remembered at once; the oldest windows are dropped beyond it. */
  maxKeys?: number;
  now?: () => number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 50_000;
  }

  get max(): number {
    return this.options.max;
  }

  /** Counts one hit for `key` and says whether it is within the budget. */
  take(key: string): RateDecision {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.options.windowMs) {
      if (w) this.windows.delete(key);
      w = { start: now, count: 0 };
      this.prune(now);
      this.windows.set(key, w);
    }
    w.count += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((w.start + this.options.windowMs - now) / 1000));
    return {
      allowed: w.count <= this.options.max,
      retryAfterSeconds,
      remaining: Math.max(0, this.options.max - w.count),
    };
  }

  /** Gives back one hit (e.g. a login that succeeded should not count against the person). */
  refund(key: string): void {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count -= 1;
  }

  private prune(now: number): void {
    // Map order is insertion order, which is window-start order: expired windows sit at the front.
    for (const [key, w] of this.windows) {
      if (now - w.start < this.options.windowMs && this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
