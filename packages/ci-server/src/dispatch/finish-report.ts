// What an agent's finish report carries, what the dispatcher answers it, and the job row fields it sets
// (dispatch/job-transitions.ts applies it on the batched, short and full paths alike).
import type { JobResult } from '../domain/index.js';

export interface FinishReport {
  status: JobResult;
  exitCode: number | null;
  error: string;
  /** The commit the agent checked out ('' when it never got that far). */
  commit: string;
  /** Declared outputs of a successful job (gocdnext's `outputs`), alias → value. */
  outputs?: Record<string, string>;
}

export interface FinishOutcome {
  /** False when the agent no longer holds the job run (its report is ignored). */
  accepted: boolean;
  /** The job run's status after the report. */
  status?: string;
  startedAt?: string | null;
}

/**
 * The job row's fields a finish report sets, alike on every path (batched, short, full): an error only when
 * the job did not succeed, and the declared outputs of a successful one — a matrix cell finishing beside
 * running siblings keeps them too.
 */
export function finishedFields(report: FinishReport) {
  const success = report.status === 'success';
  return {
    exitCode: report.exitCode,
    error: success ? null : report.error.slice(0, 2000) || null,
    outputs: success && report.outputs ? JSON.stringify(report.outputs) : null,
  };
}
