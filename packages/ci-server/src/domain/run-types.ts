/**
 * The in-memory shape of a run that the state machine (run-state.ts) works on, and what it answers with.
 *
 * A snapshot holds every job row of the run, including earlier attempts: the row with the highest
 * `attempt` for a (name, matrix) pair is that job run's current row, older rows are history. The store
 * loads a snapshot, calls a transition, persists the rows that changed (see `changedJobs`, run-diff.ts) and carries out
 * the effects.
 */
import type { NotifyOn } from './bundle-types.js';
import type { MatrixCombination } from './matrix.js';

export type RunStatus = 'queued' | 'running' | 'success' | 'failed' | 'canceled';
export type StageStatus = 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped';
export type JobStatus =
  | 'created'
  | 'queued'
  | 'running'
  | 'awaiting_approval'
  | 'success'
  | 'failed'
  | 'canceled'
  | 'skipped';
export type JobResult = 'success' | 'failed' | 'canceled';
export type RunCause = 'manual' | 'rerun' | 'run_all' | 'cron' | 'webhook' | 'poll' | 'upstream';

export const TERMINAL_RUN: readonly RunStatus[] = ['success', 'failed', 'canceled'];
export const TERMINAL_JOB: readonly JobStatus[] = ['success', 'failed', 'canceled', 'skipped'];

export interface JobRow {
  id: string;
  /** The job's name in the pipeline (matrix runs share it; see `jobRunDisplayName`). */
  name: string;
  /** `{}` for a job without a matrix. */
  matrix?: MatrixCombination;
  status: JobStatus;
  /** Names of jobs (this or earlier stages) whose every current row must succeed first. */
  needs: string[];
  /** 1 for the first attempt; reruns and automatic retries add rows with higher numbers. */
  attempt: number;
  isGate: boolean;
  /** Automatic retries still allowed for this job run. */
  retryLeft: number;
  /** The job's configured `retry` (restored on a manual rerun); defaults to `retryLeft`. */
  retry?: number;
  /** Gates: distinct approvers needed (default 1) and those who approved so far. */
  requiredApprovals?: number;
  approvedBy?: string[];
  /** Gates: who rejected it. */
  rejectedBy?: string;
  /**
   * A notification job (gocdnext's `notifications`, domain/notifications.ts): the outcomes it fires on. Its
   * stage, the last, holds only such jobs and starts once the run has finished.
   */
  notifyOn?: NotifyOn;
}

export interface StageSnapshot {
  name: string;
  status: StageStatus;
  jobs: JobRow[];
}

export interface RunSnapshot {
  status: RunStatus;
  /** Set by a cancel (or a rejected or expired gate) while running jobs wind down. */
  cancelRequested?: boolean;
  stages: StageSnapshot[];
}

export type Effect =
  /** A job became `queued`: hand it to the dispatcher. */
  | { kind: 'enqueue'; jobId: string }
  /** A running job must stop: tell its agent. The job stays `running` until the agent reports. */
  | { kind: 'cancel-agent'; jobId: string }
  /** A gate opened: notify approvers and start its timeout. */
  | { kind: 'await-approval'; jobId: string }
  /** A new attempt row was added (rerun or automatic retry); insert it. */
  | { kind: 'job-attempt-created'; job: JobRow; previousId: string }
  | { kind: 'stage-started'; stage: string }
  /** Upstream materials watching this stage may fire. */
  | { kind: 'stage-finished'; stage: string; status: StageStatus }
  | { kind: 'run-finished'; status: RunStatus };

export type TransitionError = 'not_found' | 'conflict';

export type Transition =
  | { ok: true; run: RunSnapshot; effects: Effect[] }
  | { ok: false; error: TransitionError; message: string };

export type RerunJobTransition =
  | { ok: true; run: RunSnapshot; effects: Effect[]; job: JobRow }
  | { ok: false; error: TransitionError; message: string };
