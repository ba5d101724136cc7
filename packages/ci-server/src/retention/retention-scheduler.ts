// Runs the log archiver and the retention sweeper on timers, in the one replica holding the `retention`
// leader lease (a row in the shared store, replicas/leader-lease.ts): the archiver every `archiveEveryMs` (30 s by
// default, so `after: 0s` archives soon after a job finishes), the sweeper every CI_CONFIG
// `retention.interval` (1 h by default; a shorter interval makes the passes that often). The last sweep time is read from the store at each tick, so a
// restart or a change of leader does not sweep again early. `stop()` waits for the pass in progress; an
// interrupted archive is finished by the next pass (logs/archiver.ts).
import type { LogArchiver } from '../logs/archiver.js';
import { LeaderLease } from '../replicas/leader-lease.js';
import type { StoreDb } from '../store/database.js';
import { readServerSetting } from '../store/settings.js';
import { LAST_SWEEP_KEY, type RetentionSweeper } from './retention-sweeper.js';

export interface RetentionSchedulerDeps {
  db: StoreDb;
  archiver: LogArchiver;
  sweeper: RetentionSweeper;
  intervalMs: number;
  archiveEveryMs?: number;
  log?: { error(obj: object, msg: string): void };
}

export class RetentionScheduler {
  readonly lease: LeaderLease;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private pass: Promise<void> | undefined;

  constructor(private readonly deps: RetentionSchedulerDeps) {
    // Renewed on every pass: three missed passes hand the work to another replica (or a restarted process).
    this.lease = new LeaderLease(deps.db, {
      name: 'retention',
      ttlMs: Math.max(5_000, (deps.archiveEveryMs ?? 30_000) * 3),
    });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(1_000);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.pass = this.tick().finally(() => {
        this.pass = undefined;
        if (this.running) this.schedule(this.tickEveryMs());
      });
    }, ms);
    this.timer.unref();
  }

  /**
   * Passes come every `archiveEveryMs`, or every sweep interval when that is shorter: a pass only checks
   * whether a sweep is due, so a 2 s interval swept only at the next archive pass (30 s later) and
   * /api/v1/admin/retention kept reporting an old `last_run_at`.
   */
  private tickEveryMs(): number {
    return Math.max(100, Math.min(this.deps.archiveEveryMs ?? 30_000, this.deps.intervalMs));
  }

  /** One pass: archive what is due, then sweep when the interval since the last sweep has passed. */
  async tick(): Promise<void> {
    try {
      if (!(await this.lease.acquire())) return;
      await this.deps.archiver.archiveDue();
      if (await this.sweepDue()) await this.deps.sweeper.sweep();
    } catch (err) {
      this.deps.log?.error({ err }, 'retention pass failed; the next one retries');
    }
  }

  private async sweepDue(): Promise<boolean> {
    const value = await readServerSetting(this.deps.db, LAST_SWEEP_KEY);
    if (value === undefined) return true;
    try {
      const last = Date.parse(JSON.parse(value).started_at);
      return !Number.isFinite(last) || Date.now() - last >= this.deps.intervalMs;
    } catch {
      return true;
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass;
    if (this.lease.isLeader) await this.lease.release().catch(() => {});
  }
}
