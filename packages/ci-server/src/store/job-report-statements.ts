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

// Reports that arrive within one tick are applied together (dispatch/report-batches.ts): the starts as one
// statement, the finishes as one statement after one lock statement, in one transaction. The rules are the
// same as above, row by row, with one change for finishes: a job of the batch counts as "another active job
// of its stage" for another job of the batch only when its id is greater. One statement reads the rows as
// they were before it, so two last jobs of a stage finishing in one batch would otherwise each see the other
// still running, both match, and leave the stage unfinished. This way, when only batch jobs are active in a
// stage, all but the one with the greatest id match, and that one (which no other batch job counts for)
// stays running and takes the full transition alone, finishing the stage.

export interface StartReport {
  jobRunId: string;
  agentId: string;
  engine: string | null;
}

/** `startJobOfRunningRun` for several reports (distinct job ids) in one statement: the ids it applied. */
export async function startJobsOfRunningRuns(
  db: StoreDb,
  reports: readonly StartReport[],
  postgres: boolean,
): Promise<Set<string>> {
  if (reports.length === 0) return new Set();
  const now = nowIso();
  const byId = (value: (r: StartReport) => string | null, otherwise: ReturnType<typeof sql.ref>) =>
    sql<string>`case ${sql.ref('id')} ${sql.join(
      reports.map((r) => sql`when ${r.jobRunId} then ${value(r)}`),
      sql` `,
    )} else ${otherwise} end`;
  const engines = reports.some((r) => r.engine);
  const rows = await db
    .updateTable('job_runs')
    .set({
      status: 'running',
      started_at: now,
      updated_at: now,
      ...(engines ? { engine: byId((r) => r.engine, sql.ref('engine')) } : {}),
    })
    .where(
      'id',
      'in',
      reports.map((r) => r.jobRunId),
    )
    .where('status', '=', 'queued')
    .where(({ eb, ref }) =>
      eb(
        ref('lease_agent_id'),
        '=',
        byId((r) => r.agentId, sql.ref('lease_agent_id')),
      ),
    )
    .where('run_id', 'in', (eb) => {
      const runs = eb
        .selectFrom('runs')
        .select('runs.id')
        .whereRef('runs.id', '=', 'job_runs.run_id')
        .where('runs.status', '=', 'running')
        .where('runs.cancel_requested', '=', 0);
      return postgres ? runs.forKeyShare() : runs;
    })
    .returning('id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

export interface FinishReportRow {
  jobRunId: string;
  agentId: string;
  result: 'success' | 'canceled';
  exitCode: number | null;
  error: string | null;
}

/** Locks the runs of a batch of finishes (PostgreSQL; in id order, so two batches never deadlock). */
export async function lockRunsForReports(trx: StoreDb, runIds: readonly string[]): Promise<void> {
  if (runIds.length === 0) return;
  await trx
    .selectFrom('runs')
    .select('id')
    .where('id', 'in', [...runIds])
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/**
 * `finishJobOfBusyStage` for several reports (distinct job ids) in one statement, after
 * `lockRunsForReports` in the same transaction: the times of the jobs it applied, by id.
 */
export async function finishJobsOfBusyStages(
  trx: StoreDb,
  reports: readonly FinishReportRow[],
): Promise<Map<string, FinishedRow>> {
  if (reports.length === 0) return new Map();
  const now = nowIso();
  const ids = reports.map((r) => r.jobRunId);
  const byId = (value: (r: FinishReportRow) => unknown, otherwise: unknown = null) =>
    sql<any>`case ${sql.ref('id')} ${sql.join(
      reports.map((r) => sql`when ${r.jobRunId} then ${value(r)}`),
      sql` `,
    )} else ${otherwise} end`;
  const rows = await trx
    .updateTable('job_runs')
    .set({
      status: byId((r) => r.result, sql.ref('status')),
      finished_at: now,
      updated_at: now,
      lease_agent_id: null,
      lease_expires_at: null,
      // A parameter alone has no type in a CASE (all-NULL branches would be text): say it is an integer.
      exit_code: byId((r) => sql`cast(${r.exitCode} as integer)`),
      error: byId((r) => r.error),
    })
    .where('id', 'in', ids)
    .where('status', '=', 'running')
    .where(({ eb, ref }) =>
      eb(
        ref('lease_agent_id'),
        '=',
        byId((r) => r.agentId, sql.ref('lease_agent_id')),
      ),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('job_runs as o')
          .select(sql`1`.as('one'))
          .whereRef('o.stage_run_id', '=', 'job_runs.stage_run_id')
          .where('o.status', 'in', ACTIVE_JOB)
          .where(({ eb, or }) => or([eb('o.id', 'not in', ids), eb('o.id', '>', eb.ref('job_runs.id'))])),
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
    .returning(['id', 'started_at', 'assigned_at'])
    .execute();
  return new Map(rows.map((r) => [r.id, { started_at: r.started_at, assigned_at: r.assigned_at }]));
}
