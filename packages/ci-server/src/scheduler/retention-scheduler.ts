import type { LogArchiver } from '../logs/archiver.js';
import type { StoreDb } from '../store/database.js';
import { LeaderLease } from '../triggers/leader.js';
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
        if (this.running) this.schedule(this.deps.archiveEveryMs ?? 30_000);
      });
    }, ms);
    this.timer.unref();
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
    const row = await this.deps.db
      .selectFrom('server_settings')
      .select('value')
      .where('key', '=', LAST_SWEEP_KEY)
      .executeTakeFirst();
    if (!row) return true;
    try {
      const last = Date.parse(JSON.parse(row.value).started_at);
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
