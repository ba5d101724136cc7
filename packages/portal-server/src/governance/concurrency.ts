// The per-datasource concurrency cap (policy `maxConcurrent`; Limits "concurrency"): at most that many
// statements run at once on a datasource, counted in this process across every execution route and the bot
// API; one more is refused at once with 429 CONCURRENCY_LIMIT (no queueing, so a caller never hangs).
import { HttpError } from '@app/kit';

export type Release = () => void;

export class ConcurrencyLimiter {
  private readonly running = new Map<string, number>();

  /**
   * Takes a slot on `datasourceId` when `max` is set; throws 429 `CONCURRENCY_LIMIT` when all are taken.
   * Answers the release function (idempotent); without `max` nothing is counted.
   */
  acquire(datasourceId: string, max: number | undefined): Release {
    if (max === undefined || !Number.isFinite(max) || max <= 0) return () => undefined;
    const now = this.running.get(datasourceId) ?? 0;
    if (now >= max) {
      throw new HttpError(
        429,
        `Datasource ${datasourceId} already runs ${now} statement(s), its limit; try again shortly`,
        'CONCURRENCY_LIMIT',
        { retryable: true },
      );
    }
    this.running.set(datasourceId, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(datasourceId) ?? 1) - 1;
      if (left <= 0) this.running.delete(datasourceId);
      else this.running.set(datasourceId, left);
    };
  }

  /** Statements running on a datasource now (tests, metrics). */
  inUse(datasourceId: string): number {
    return this.running.get(datasourceId) ?? 0;
  }
}
