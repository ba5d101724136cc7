// Group commit of the two reports every job sends. `started` and `finished` reports that can be applied
// without loading the run (store/job-report-statements.ts: a start, the run's first included, and a finish the
// stage counts decide, the run's last included) and arrive within one turn of the event loop are applied
// together: all the starts as one statement, all the finishes as one transaction (the runs locked, the jobs
// and their stages' counts read, one write), instead of a statement and a transaction per report. A report
// the batch did not apply (a failure, a job waiting on needs, a next stage to start, the lease moved)
// answers false / undefined, and dispatch/job-transitions.ts applies it on its own as before: the full state
// machine in the run's turn. So a batch never decides anything the single-report path would not; it only
// shares the round trips.
import type { Effect } from '../domain/index.js';
import type { StoreDb } from '../store/database.js';
import {
  type FinishedRow,
  type FinishReportRow,
  finishJobsByCounts,
  lockRunsForReports,
  type StartReport,
  startJobs,
} from '../store/job-report-statements.js';
import type { Trx } from '../store/run-snapshot.js';

export interface BatchedFinish extends FinishReportRow {
  runId: string;
  /** The commit the agent checked out (pins a run given as a branch). */
  commit: string;
}

/** A finish the batch applied: the job's times, and the effects of its run when the job ended the run. */
export interface AppliedFinish {
  row: FinishedRow;
  effects: Effect[];
}

export interface ReportBatchesDeps {
  db: StoreDb;
  postgres: boolean;
  /** Pins the run's revision to the commit when not pinned yet, inside the batch's transaction. */
  pin(trx: Trx, runId: string, commit: string): Promise<void>;
}

interface Waiting<R, T> {
  report: R;
  resolve(value: T): void;
  reject(err: unknown): void;
}

export class ReportBatches {
  private starts: Waiting<StartReport, boolean>[] = [];
  private finishes: Waiting<BatchedFinish, AppliedFinish | undefined>[] = [];
  /** The jobs of the waiting reports (`starts`, `finishes`). */
  private readonly startIds = new Set<string>();
  private readonly finishIds = new Set<string>();
  private scheduled = false;
  /** A batch of each kind is in flight at most: what arrives meanwhile waits for it and goes as the next. */
  private startsInFlight = false;
  private finishesInFlight = false;
  /** Reports applied in batches, and batches sent (tests and benchmarks read them). */
  readonly stats = { starts: 0, finishes: 0, batches: 0 };

  constructor(private readonly deps: ReportBatchesDeps) {}

  /** Applies the start with the others of this tick; false when it needs the full transition. */
  start(report: StartReport): Promise<boolean> {
    // The same job twice in one batch (a repeated report) would be judged on the row before both.
    if (this.startIds.has(report.jobRunId)) return Promise.resolve(false);
    this.startIds.add(report.jobRunId);
    return new Promise((resolve, reject) => {
      this.starts.push({ report, resolve, reject });
      this.schedule();
    });
  }

  /** Applies the finish with the others of this tick; undefined when it needs the full transition. */
  finish(report: BatchedFinish): Promise<AppliedFinish | undefined> {
    if (this.finishIds.has(report.jobRunId)) return Promise.resolve(undefined);
    this.finishIds.add(report.jobRunId);
    return new Promise((resolve, reject) => {
      this.finishes.push({ report, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /**
   * Sends what waits, of each kind whose previous batch has come back. One batch in flight per kind: a new
   * batch every tick while the last is still on the wire would each take a pooled connection (and the
   * finishes' batches would queue on one another's run locks), leaving the claims and triggers waiting
   * for connections; waiting instead makes the next batch larger.
   */
  private flush(): void {
    if (!this.startsInFlight && this.starts.length > 0) {
      const starts = this.starts;
      this.starts = [];
      this.startIds.clear();
      this.startsInFlight = true;
      void this.applyStarts(starts).finally(() => {
        this.startsInFlight = false;
        if (this.starts.length > 0) this.schedule();
      });
    }
    if (!this.finishesInFlight && this.finishes.length > 0) {
      const finishes = this.finishes;
      this.finishes = [];
      this.finishIds.clear();
      this.finishesInFlight = true;
      void this.applyFinishes(finishes).finally(() => {
        this.finishesInFlight = false;
        if (this.finishes.length > 0) this.schedule();
      });
    }
  }

  private async applyStarts(batch: Waiting<StartReport, boolean>[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      this.stats.batches++;
      const applied = await startJobs(
        this.deps.db,
        batch.map((w) => w.report),
        this.deps.postgres,
      );
      this.stats.starts += applied.size;
      for (const w of batch) w.resolve(applied.has(w.report.jobRunId));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }

  private async applyFinishes(batch: Waiting<BatchedFinish, AppliedFinish | undefined>[]): Promise<void> {
    if (batch.length === 0) return;
    const { db, postgres, pin } = this.deps;
    try {
      this.stats.batches++;
      const done = await db.transaction().execute(async (trx) => {
        const runs = await lockRunsForReports(trx, [...new Set(batch.map((w) => w.report.runId))], postgres);
        const result = await finishJobsByCounts(
          trx,
          batch.map((w) => w.report),
          runs,
          postgres,
        );
        for (const w of batch)
          if (result.applied.has(w.report.jobRunId)) await pin(trx, w.report.runId, w.report.commit);
        return result;
      });
      this.stats.finishes += done.applied.size;
      // A run's effects go with one of its reports only (they are published once).
      const published = new Set<string>();
      for (const w of batch) {
        const row = done.applied.get(w.report.jobRunId);
        if (!row) {
          w.resolve(undefined);
          continue;
        }
        const effects = published.has(w.report.runId) ? [] : (done.effects.get(w.report.runId) ?? []);
        published.add(w.report.runId);
        w.resolve({ row, effects });
      }
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
