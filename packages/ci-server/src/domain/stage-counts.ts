/**
 * Per-stage job counts, and the state machine's answer to an agent's `finished` report computed from them
 * instead of from every job row of the run. The store keeps the counts on each stage row, written with the
 * rows they count (store/job-report-statements.ts), so a report reads the finishing job and its stage's
 * counts only. Whatever the counts cannot decide (a failure that may be retried, a job waiting on needs in
 * the stage, a next stage to start, a report about a job that is not running, a notification job) is `full`: the caller loads
 * the run and runs the transition of run-state.ts. stage-counts.test.ts checks every decision against that
 * transition over a table of runs.
 */
import { currentJobs, isTerminalJob } from './run-state.js';
import type { Effect, JobResult, JobStatus, RunStatus, StageSnapshot, StageStatus } from './run-types.js';

/** Over the stage's current rows (the highest attempt of each job run); older attempts are history. */
export interface StageCounts {
  /** Not done: created, queued, running or awaiting approval. */
  active: number;
  /** Waiting in `created` (on needs, in a running stage). */
  created: number;
  failed: number;
  canceled: number;
}

export function countStage(stage: StageSnapshot): StageCounts {
  const counts: StageCounts = { active: 0, created: 0, failed: 0, canceled: 0 };
  for (const row of currentJobs(stage)) {
    if (!isTerminalJob(row.status)) counts.active++;
    if (row.status === 'created') counts.created++;
    if (row.status === 'failed') counts.failed++;
    if (row.status === 'canceled') counts.canceled++;
  }
  return counts;
}

export interface FinishFacts {
  /** The reported row's status (a running row is always its job run's current row). */
  jobStatus: JobStatus;
  stageName: string;
  stageStatus: StageStatus;
  /** The stage's counts before the report, the reported job included. */
  counts: StageCounts;
  /** No stage comes after this one. */
  lastStage: boolean;
  /**
   * The stage is the run's notification stage (gocdnext's `notifications`, notification-stage.ts): it runs
   * after the run finished and never changes the run's status, which the counts cannot honour.
   */
  notification: boolean;
  cancelRequested: boolean;
}

export type FinishByCounts =
  /** Only the job's row and its stage's counts change; no effect. */
  | { kind: 'job'; counts: StageCounts }
  /** The job was its stage's last, the stage was the run's last: both finish, with these effects. */
  | {
      kind: 'run';
      counts: StageCounts;
      stage: 'success' | 'failed' | 'canceled';
      run: RunStatus;
      effects: Effect[];
    }
  /** The counts cannot decide: load the run and run the full transition. */
  | { kind: 'full' };

/** What `onJobFinished` would do, from the counts; `full` when they cannot tell. */
export function finishByCounts(f: FinishFacts, result: JobResult): FinishByCounts {
  // A failure may be retried (a new attempt row); a job waiting on needs may be released or skipped.
  if (result === 'failed' || f.jobStatus !== 'running' || f.stageStatus !== 'running' || f.notification)
    return { kind: 'full' };
  if (f.counts.created > 0 || f.counts.active < 1) return { kind: 'full' };
  const counts: StageCounts = {
    active: f.counts.active - 1,
    created: 0,
    failed: f.counts.failed,
    canceled: f.counts.canceled + (result === 'canceled' ? 1 : 0),
  };
  if (counts.active > 0) return { kind: 'job', counts };
  const stage = counts.failed > 0 ? 'failed' : counts.canceled > 0 ? 'canceled' : 'success';
  // A successful stage starts the next one (its rows must be read to release them): the full transition.
  if (!f.lastStage) return { kind: 'full' };
  const run: RunStatus = stage === 'success' && f.cancelRequested ? 'canceled' : stage;
  return {
    kind: 'run',
    counts,
    stage,
    run,
    effects: [
      { kind: 'stage-finished', stage: f.stageName, status: stage },
      { kind: 'run-finished', status: run },
    ],
  };
}
