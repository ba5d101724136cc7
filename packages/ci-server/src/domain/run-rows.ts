// The rows of a run snapshot as the state machine (run-state.ts) and its notification stage read them: which
// row is a job's current attempt, which statuses are terminal or active, how a released job waits, and how a
// stage's job statuses roll up into its own.
import { matrixKey } from './matrix.js';
import { type Effect, type JobRow, type JobStatus, type StageSnapshot, TERMINAL_JOB } from './run-types.js';

export const isTerminalJob = (s: JobStatus): boolean => TERMINAL_JOB.includes(s);
export const isActiveJob = (s: JobStatus): boolean =>
  s === 'queued' || s === 'running' || s === 'awaiting_approval';

/** A job run's identity across attempts: its name and matrix cell. */
export const identity = (row: JobRow): string => `${row.name}\u0000${matrixKey(row.matrix)}`;

/** The current row of every job run of a stage (highest attempt), in the order the job runs first appear. */
export function currentJobs(stage: StageSnapshot): JobRow[] {
  // A Map keeps each key where it was first set, so its values are in first-appearance order; one identity
  // per row (it was three: a run's start spent a tenth of its CPU in matrixKey).
  const latest = new Map<string, JobRow>();
  for (const row of stage.jobs) {
    const key = identity(row);
    const prev = latest.get(key);
    if (!prev || row.attempt > prev.attempt) latest.set(key, row);
  }
  return [...latest.values()];
}

/** Releases a job whose needs are met: queued for an agent, or awaiting approval for a gate. */
export function release(row: JobRow, fx: Effect[]): void {
  if (row.isGate) {
    row.status = 'awaiting_approval';
    fx.push({ kind: 'await-approval', jobId: row.id });
  } else {
    row.status = 'queued';
    fx.push({ kind: 'enqueue', jobId: row.id });
  }
}

/** failed > canceled > success; skipped jobs do not count (they follow a failed or canceled need). */
export function rollUp(statuses: readonly JobStatus[]): 'success' | 'failed' | 'canceled' {
  if (statuses.includes('failed')) return 'failed';
  if (statuses.includes('canceled')) return 'canceled';
  return 'success';
}
