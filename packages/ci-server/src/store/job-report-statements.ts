// The two agent reports that arrive for every job, each as one conditional UPDATE of the job's own row when
// the report changes nothing else about the run (dispatch/job-transitions.ts falls back to loading the whole
// run and running the state machine whenever one of them matches no row):
//
// - started: the job is queued, held by the reporting agent, and its run is already stored `running` and not
//   being canceled. The state machine would then only mark the job running (no effect, no stage or run
//   status change, no notification), so the run and stage rows are left alone.
// - finished (success or canceled): the job is running and held by the agent, another current job of its
//   stage is still active (so the stage cannot finish), and no job of the stage waits in `created` on needs
//   (so nothing can be released or skipped). Again only the job's row changes.
//
// The rule is domain/job-report-shortcut.ts (table-tested against the state machine); these are it in SQL.
//
// Why these are safe beside the full transitions, which lock the run row FOR UPDATE (store/run-snapshot.ts):
// `started` locks the run row FOR KEY SHARE inside its statement, so a cancel (which winds down queued jobs)
// and the start are ordered, and the run's flags are rechecked on the row as the cancel left it. `finished`
// runs after `lockRunForReport` in the same transaction, a separate statement, so its reads of the stage's
// other rows see everything committed before the lock was granted (a condition read in the locking statement
// itself would see the stage as it was before waiting) — two last jobs of a stage finishing at once on two
// server processes cannot both believe the other still runs. SQLite has one writer, so no locks there.
import { sql } from 'kysely';
import type { StoreDb } from './database.js';
import { nowIso } from './ids.js';

/** Job statuses of a job that is not done: a stage holding one cannot finish. */
const ACTIVE_JOB = ['created', 'queued', 'running', 'awaiting_approval'];

/**
 * queued → running for a job of a running run; the run's id, or undefined when the report needs the full
 * transition (first job of the run, cancel under way, not queued, not this agent's, no such job).
 */
export async function startJobOfRunningRun(
  db: StoreDb,
  jobRunId: string,
  agentId: string,
  engine: string | null,
  postgres: boolean,
): Promise<string | undefined> {
  const now = nowIso();
  const row = await db
    .updateTable('job_runs')
    .set({ status: 'running', started_at: now, updated_at: now, ...(engine ? { engine } : {}) })
    .where('id', '=', jobRunId)
    .where('status', '=', 'queued')
    .where('lease_agent_id', '=', agentId)
    .where('run_id', 'in', (eb) => {
      const runs = eb
        .selectFrom('runs')
        .select('runs.id')
        .whereRef('runs.id', '=', 'job_runs.run_id')
        .where('runs.status', '=', 'running')
        .where('runs.cancel_requested', '=', 0);
      return postgres ? runs.forKeyShare() : runs;
    })
    .returning('run_id')
    .executeTakeFirst();
  return row?.run_id;
}

/**
 * Locks the run row (PostgreSQL) for a report that may be applied as `finishJobOfBusyStage`: conflicts
 * with the full transitions (FOR UPDATE) and with other such reports, not with `startJobOfRunningRun`.
 */
export async function lockRunForReport(trx: StoreDb, runId: string): Promise<void> {
  await trx.selectFrom('runs').select('id').where('id', '=', runId).forNoKeyUpdate().execute();
}

export interface FinishedRow {
  started_at: string | null;
  assigned_at: string | null;
}

/**
 * running → success | canceled when the stage goes on without it (see the file's comment); the job's
 * times, or undefined when the report needs the full transition.
 */
export async function finishJobOfBusyStage(
  trx: StoreDb,
  jobRunId: string,
  agentId: string,
  result: 'success' | 'canceled',
  exitCode: number | null,
  error: string | null,
  /** The declared outputs of a success (JSON), kept like the slow path keeps them; null: none. */
  outputs: string | null = null,
): Promise<FinishedRow | undefined> {
  const now = nowIso();
  return trx
    .updateTable('job_runs')
    .set({
      status: result,
      finished_at: now,
      updated_at: now,
      lease_agent_id: null,
      lease_expires_at: null,
      exit_code: exitCode,
      error,
      ...(outputs !== null ? { outputs } : {}),
    })
    .where('id', '=', jobRunId)
    .where('status', '=', 'running')
    .where('lease_agent_id', '=', agentId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('job_runs as o')
          .select(sql`1`.as('one'))
          .whereRef('o.stage_run_id', '=', 'job_runs.stage_run_id')
          .whereRef('o.id', '!=', 'job_runs.id')
          .where('o.status', 'in', ACTIVE_JOB),
      ),
    )
    .where(({ exists, not, selectFrom }) =>
      not(
        exists(
          selectFrom('job_runs as w')
            .select(sql`1`.as('one'))
            .whereRef('w.stage_run_id', '=', 'job_runs.stage_run_id')
            .where('w.status', '=', 'created')
            .where('w.needs', '!=', '[]'),
        ),
      ),
    )
    .returning(['started_at', 'assigned_at'])
    .executeTakeFirst();
}
