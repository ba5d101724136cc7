// gocdnext's `notifications` in the state machine (run-state.ts): a last stage whose jobs all carry `notifyOn`
// is not part of the run's own flow. Once the run has finished, the jobs whose `on` matches its outcome are
// released and the others skipped, and the stage ends once its jobs have; the run's status is never touched.
import { notifyMatches } from './notifications.js';
import { currentJobs, isTerminalJob, release, rollUp } from './run-rows.js';
import { type Effect, type RunSnapshot, type StageSnapshot, TERMINAL_RUN } from './run-types.js';

/** The run's notification stage (its last, every job a notification job), if it has one. */
export function notifyStage(run: RunSnapshot): StageSnapshot | undefined {
  const last = run.stages.at(-1);
  return last && last.jobs.length > 0 && last.jobs.every((j) => j.notifyOn !== undefined) ? last : undefined;
}

/** The stages the run's outcome is made of: all but the notification stage. */
export function ownStages(run: RunSnapshot): StageSnapshot[] {
  const notify = notifyStage(run);
  return notify ? run.stages.slice(0, -1) : run.stages;
}

/** The run just finished: release the notification jobs its outcome fires, skip the others. */
export function startNotifications(run: RunSnapshot, fx: Effect[]): void {
  const stage = notifyStage(run);
  if (stage?.status !== 'created') return;
  let released = false;
  for (const row of currentJobs(stage)) {
    if (row.status !== 'created') continue;
    if (row.notifyOn && notifyMatches(row.notifyOn, run.status)) {
      release(row, fx);
      released = true;
    } else row.status = 'skipped';
  }
  stage.status = released ? 'running' : 'skipped';
  // A canceled run's `on: canceled` jobs must still start: the cancel was for the run's own jobs.
  if (released) run.cancelRequested = false;
}

/** The notification stage ends once its jobs have; it never touches the run's status. */
export function settleNotifications(run: RunSnapshot): void {
  const stage = notifyStage(run);
  if (stage?.status !== 'running' || !TERMINAL_RUN.includes(run.status)) return;
  const rows = currentJobs(stage);
  if (rows.some((r) => !isTerminalJob(r.status))) return;
  stage.status = rows.every((r) => r.status === 'skipped') ? 'skipped' : rollUp(rows.map((r) => r.status));
}
