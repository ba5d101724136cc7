// Group commit of the two reports every job sends. `started` and `finished` reports that can take their short
// path (store/job-report-statements.ts: the report changes only the job's own row) and arrive within one turn
// of the event loop are applied together: all the starts as one UPDATE (one statement, no transaction), all
// the finishes as one transaction of two statements (the runs' rows locked, then one UPDATE), instead of a
// statement and a transaction per report. A report the batch did not apply (its run is not running yet, its
// stage would finish, the lease moved) answers false / undefined, and dispatch/job-transitions.ts applies it
// on its own as before: the full state machine in the run's turn. So a batch never decides anything the
// single-report path would not; it only shares the round trips.
import type { StoreDb } from '../store/database.js';
import {
  type FinishedRow,
  type FinishReportRow,
  finishJobsOfBusyStages,
  lockRunsForReports,
  type StartReport,
  startJobsOfRunningRuns,
} from '../store/job-report-statements.js';
import type { Trx } from '../store/run-snapshot.js';

export interface BatchedFinish extends FinishReportRow {
  runId: string;
  /** The commit the agent checked out (pins a run given as a branch). */
  commit: string;
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
  private finishes: Waiting<BatchedFinish, FinishedRow | undefined>[] = [];
  private scheduled = false;
  /** Reports applied in batches, and batches sent (tests and benchmarks read them). */
  readonly stats = { starts: 0, finishes: 0, batches: 0 };

  constructor(private readonly deps: ReportBatchesDeps) {}

  /** Applies the start with the others of this tick; false when it needs the full transition. */
  start(report: StartReport): Promise<boolean> {
    // The same job twice in one batch (a repeated report) would be judged on the row before both.
    if (this.starts.some((w) => w.report.jobRunId === report.jobRunId)) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      this.starts.push({ report, resolve, reject });
      this.schedule();
    });
  }

  /** Applies the finish with the others of this tick; the job's times, or undefined (full transition). */
  finish(report: BatchedFinish): Promise<FinishedRow | undefined> {
    if (this.finishes.some((w) => w.report.jobRunId === report.jobRunId)) return Promise.resolve(undefined);
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
      const starts = this.starts;
      const finishes = this.finishes;
      this.starts = [];
      this.finishes = [];
      void this.applyStarts(starts);
      void this.applyFinishes(finishes);
    });
  }

  private async applyStarts(batch: Waiting<StartReport, boolean>[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      this.stats.batches++;
      const applied = await startJobsOfRunningRuns(
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

  private async applyFinishes(batch: Waiting<BatchedFinish, FinishedRow | undefined>[]): Promise<void> {
    if (batch.length === 0) return;
    const { db, postgres, pin } = this.deps;
    try {
      this.stats.batches++;
      const applied = await db.transaction().execute(async (trx) => {
        if (postgres) await lockRunsForReports(trx, [...new Set(batch.map((w) => w.report.runId))]);
        const rows = await finishJobsOfBusyStages(
          trx,
          batch.map((w) => w.report),
        );
        for (const w of batch)
          if (rows.has(w.report.jobRunId)) await pin(trx, w.report.runId, w.report.commit);
        return rows;
      });
      this.stats.finishes += applied.size;
      for (const w of batch) w.resolve(applied.get(w.report.jobRunId));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
