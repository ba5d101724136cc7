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
  const latest = new Map<string, JobRow>();
  for (const row of stage.jobs) {
    const prev = latest.get(identity(row));
    if (!prev || row.attempt > prev.attempt) latest.set(identity(row), row);
  }
  const seen = new Set<string>();
  const out: JobRow[] = [];
  for (const row of stage.jobs) {
    const key = identity(row);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(latest.get(key)!);
    }
  }
  return out;
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
