// Moves runs between the database and the state machine's snapshot (domain/run-types.ts): load a run's
// stage and job rows (locking the run row on PostgreSQL), and persist what a transition changed, with the
// timestamps that go with each status. Callers run both inside one transaction.
//
// Stored run status vs the machine's: a run whose first stage started but none of whose jobs has been
// taken by an agent (or reached a gate) is stored `queued`, so the runs list's `queued` means "waiting for an
// agent"; the machine calls that run `running`. `machineStatus`/`storedStatus` translate between the two.
import type { Insertable, Transaction } from 'kysely';
import {
  countStage,
  type JobRow,
  type JobStatus,
  matrixKey,
  type RunSnapshot,
  type RunStatus,
  type StageCounts,
  type StageStatus,
} from '../domain/index.js';
import type { StoreDb, StoreSchema } from './database.js';
import { enqueueForgeStatus } from './forge-status-outbox.js';
import { nowIso } from './ids.js';
import { enqueueRunNotifications } from './notification-outbox.js';
import type { JobRunsTable, RunsTable, StageRunsTable } from './schema.js';

export type Trx = Transaction<StoreSchema>;

export interface LoadedRun {
  run: RunsTable;
  stages: StageRunsTable[];
  jobs: JobRunsTable[];
  snapshot: RunSnapshot;
}

const STARTED: readonly JobStatus[] = ['running', 'awaiting_approval', 'success', 'failed'];
const TERMINAL_RUN: readonly string[] = ['success', 'failed', 'canceled'];
const TERMINAL_JOB: readonly string[] = ['success', 'failed', 'canceled', 'skipped'];
const TERMINAL_STAGE: readonly string[] = ['success', 'failed', 'canceled', 'skipped'];

export function machineStatus(stored: string, stages: readonly { status: string }[]): RunStatus {
  if (stored === 'queued' && stages.some((s) => s.status !== 'created')) return 'running';
  return stored as RunStatus;
}

export function storedStatus(snapshot: RunSnapshot): RunStatus {
  if (snapshot.status !== 'running') return snapshot.status;
  const started = snapshot.stages.some((s) => s.jobs.some((j) => STARTED.includes(j.status)));
  return started ? 'running' : 'queued';
}

function parseJson<T>(text: string | null, fallback: T): T {
  return text === null ? fallback : (JSON.parse(text) as T);
}

export function jobRowFromTable(j: JobRunsTable): JobRow {
  const row: JobRow = {
    id: j.id,
    name: j.name,
    matrix: parseJson(j.matrix, {}),
    status: j.status as JobStatus,
    needs: parseJson(j.needs, []),
    attempt: j.attempt,
    isGate: j.is_gate === 1,
    retryLeft: j.retry_left,
    retry: j.retry,
  };
  if (j.required_approvals !== null) row.requiredApprovals = j.required_approvals;
  if (j.approved_by !== null) row.approvedBy = parseJson(j.approved_by, []);
  if (j.rejected_by !== null) row.rejectedBy = j.rejected_by;
  if (j.notify_on) row.notifyOn = j.notify_on as NonNullable<JobRow['notifyOn']>;
  return row;
}

/** Loads a run with its rows; on PostgreSQL the run row stays locked until the transaction ends. */
export async function loadRun(trx: Trx, runId: string, postgres: boolean): Promise<LoadedRun | null> {
  let q = trx.selectFrom('runs').selectAll().where('id', '=', runId);
  if (postgres) q = q.forUpdate();
  const run = await q.executeTakeFirst();
  if (!run) return null;
  const [stages, jobs] = await Promise.all([
    trx.selectFrom('stage_runs').selectAll().where('run_id', '=', runId).orderBy('position').execute(),
    trx
      .selectFrom('job_runs')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('position')
      .orderBy('attempt')
      .execute(),
  ]);
  const snapshot: RunSnapshot = {
    status: machineStatus(run.status, stages),
    stages: stages.map((s) => ({
      name: s.name,
      status: s.status as StageStatus,
      jobs: jobs.filter((j) => j.stage_run_id === s.id).map(jobRowFromTable),
    })),
  };
  if (run.cancel_requested === 1) snapshot.cancelRequested = true;
  return { run, stages, jobs, snapshot };
}

/** A stage's counts as its row's columns. */
export function stageCountColumns(c: StageCounts) {
  return {
    active_jobs: c.active,
    created_jobs: c.created,
    failed_jobs: c.failed,
    canceled_jobs: c.canceled,
  };
}

function jobColumns(row: JobRow) {
  return {
    status: row.status,
    attempt: row.attempt,
    retry_left: row.retryLeft,
    retry: row.retry ?? row.retryLeft,
    approved_by: row.approvedBy ? JSON.stringify(row.approvedBy) : null,
    rejected_by: row.rejectedBy ?? null,
  };
}

/** started_at/finished_at of a job moving from `before` (undefined for a new row) to `status`. */
function jobTimes(status: string, prev: JobRunsTable | undefined, now: string) {
  if (status === 'created' || status === 'queued') return { started_at: null, finished_at: null };
  const started_at =
    prev?.started_at ?? (status === 'running' || status === 'awaiting_approval' ? now : null);
  const finished_at = TERMINAL_JOB.includes(status) ? (prev?.finished_at ?? now) : null;
  return { started_at, finished_at };
}

/** New job rows of a run (a new run, or new attempts), inserted in chunks. */
export async function insertJobRows(trx: StoreDb, rows: Insertable<JobRunsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200)
    await trx
      .insertInto('job_runs')
      .values(rows.slice(i, i + 200))
      .execute();
}

export function newJobRow(
  row: JobRow,
  ids: { runId: string; stageRunId: string; position: number },
  now: string,
): Insertable<JobRunsTable> {
  return {
    id: row.id,
    run_id: ids.runId,
    stage_run_id: ids.stageRunId,
    position: ids.position,
    name: row.name,
    matrix: JSON.stringify(row.matrix ?? {}),
    needs: JSON.stringify(row.needs),
    is_gate: row.isGate ? 1 : 0,
    required_approvals: row.requiredApprovals ?? null,
    notify_on: row.notifyOn ?? null,
    exit_code: null,
    agent: null,
    created_at: now,
    updated_at: now,
    ...jobColumns(row),
    ...jobTimes(row.status, undefined, now),
  };
}

const identity = (name: string, matrix: unknown) =>
  `${name}\u0000${matrixKey(matrix as Record<string, string>)}`;

/**
 * Writes the difference between `loaded` and `after`: new attempt rows, changed job rows, stage statuses
 * and the run row (status, cancel flag, timestamps). Returns the stored run status.
 */
export async function persistRun(trx: Trx, loaded: LoadedRun, after: RunSnapshot): Promise<RunStatus> {
  const now = nowIso();
  const byId = new Map(loaded.jobs.map((j) => [j.id, j]));
  const positions = new Map(loaded.jobs.map((j) => [identity(j.name, parseJson(j.matrix, {})), j.position]));
  const inserts: Insertable<JobRunsTable>[] = [];
  const gateJobs: { id: string; name: string }[] = [];
  for (const [index, stage] of after.stages.entries()) {
    const stageRow = loaded.stages[index];
    for (const row of stage.jobs) {
      const prev = byId.get(row.id);
      if (!prev) {
        const position = positions.get(identity(row.name, row.matrix ?? {})) ?? 0;
        inserts.push(newJobRow(row, { runId: loaded.run.id, stageRunId: stageRow.id, position }, now));
        continue;
      }
      const cols = jobColumns(row);
      if (cols.status === 'awaiting_approval' && prev.status !== 'awaiting_approval')
        gateJobs.push({ id: row.id, name: row.name });
      const changed =
        cols.status !== prev.status ||
        cols.attempt !== prev.attempt ||
        cols.retry_left !== prev.retry_left ||
        cols.approved_by !== prev.approved_by ||
        cols.rejected_by !== prev.rejected_by;
      if (!changed) continue;
      await trx
        .updateTable('job_runs')
        .set({ ...cols, ...jobTimes(row.status, prev, now), updated_at: now })
        .where('id', '=', row.id)
        .execute();
    }
    // The stage's counts are written with the rows they count (and written whole when they were not known).
    const counts = stageCountColumns(countStage(stage));
    const countsChanged =
      counts.active_jobs !== stageRow.active_jobs ||
      counts.created_jobs !== stageRow.created_jobs ||
      counts.failed_jobs !== stageRow.failed_jobs ||
      counts.canceled_jobs !== stageRow.canceled_jobs;
    if (stage.status !== stageRow.status) {
      const finished = TERMINAL_STAGE.includes(stage.status);
      await trx
        .updateTable('stage_runs')
        .set({
          status: stage.status,
          started_at: stage.status === 'created' ? null : (stageRow.started_at ?? now),
          finished_at: finished ? now : null,
          ...counts,
        })
        .where('id', '=', stageRow.id)
        .execute();
    } else if (countsChanged) {
      await trx.updateTable('stage_runs').set(counts).where('id', '=', stageRow.id).execute();
    }
  }
  await insertJobRows(trx, inserts);
  const status = storedStatus(after);
  const terminal = TERMINAL_RUN.includes(status);
  await trx
    .updateTable('runs')
    .set({
      status,
      cancel_requested: after.cancelRequested ? 1 : 0,
      started_at: status === 'running' ? (loaded.run.started_at ?? now) : loaded.run.started_at,
      finished_at: terminal
        ? TERMINAL_RUN.includes(loaded.run.status)
          ? loaded.run.finished_at
          : now
        : null,
      updated_at: now,
    })
    .where('id', '=', loaded.run.id)
    .execute();
  // In this transaction: the transition and its notifications commit (or roll back) together.
  for (const row of inserts)
    if (row.status === 'awaiting_approval') gateJobs.push({ id: row.id, name: row.name });
  await enqueueRunNotifications(trx, loaded.run, loaded.run.status, status, gateJobs);
  await enqueueForgeStatus(trx, loaded.run, loaded.run.status, status);
  return status;
}
