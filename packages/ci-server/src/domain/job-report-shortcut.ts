/**
 * When an agent's `started` or `finished` report changes nothing but the job's own row: the facts the store
 * can read about one job and its stage without loading the run, and the rule that says the full transition
 * (onJobStarted / onJobFinished over the whole snapshot) would only set that job's status, raise no effect
 * and move no stage or run. `startIsOneStatement` widens the start rule to a run's first start, which also
 * moves the stored run status queued → running (storedStatus) and nothing else. The store applies a start as
 * one conditional UPDATE whose WHERE clause is that rule in SQL (store/job-report-statements.ts); finishes
 * are decided from the stage's counts (stage-counts.ts). job-report-shortcut.test.ts checks the rules against
 * the state machine over a table of runs.
 */
import type { JobResult, JobStatus } from './run-types.js';

export interface JobReportFacts {
  /** The reported row's status. */
  jobStatus: JobStatus;
  /** The run is running and some job of it has started (the store's `running`, not its `queued`). */
  runStarted: boolean;
  cancelRequested: boolean;
  /** Jobs of the job's stage other than it that are not done (created, queued, running, awaiting_approval). */
  otherActiveInStage: number;
  /** Jobs of the job's stage waiting in `created` on needs. */
  waitingOnNeedsInStage: number;
}

/** queued → running changes only the job: the run already counts as started and is not winding down. */
export function startTouchesOnlyTheJob(f: JobReportFacts): boolean {
  return f.jobStatus === 'queued' && f.runStarted && !f.cancelRequested;
}

/**
 * queued → running changes only the job, and the stored run status when it is the run's first start: the
 * store can apply it as one statement whatever the run's stored status (queued or running).
 */
export function startIsOneStatement(f: JobReportFacts): boolean {
  return f.jobStatus === 'queued' && !f.cancelRequested;
}

/**
 * running → success | canceled changes only the job while its stage cannot finish (another job is still
 * active) and no job waits on needs (none can be released or skipped). A failure may be retried (a new
 * attempt row): always the full transition.
 */
export function finishTouchesOnlyTheJob(f: JobReportFacts, result: JobResult): boolean {
  return (
    result !== 'failed' &&
    f.jobStatus === 'running' &&
    f.otherActiveInStage > 0 &&
    f.waitingOnNeedsInStage === 0
  );
}
