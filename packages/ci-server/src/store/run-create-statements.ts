// Creating a run on PostgreSQL in one statement each, fixed text whatever the run's size (as
// store/dispatch-statements.ts does for dispatch): the run row, its stage rows and its job rows go in one
// INSERT with data-modifying CTEs, the stages' and jobs' columns as arrays (`unnest`), so the text never
// varies with the number of jobs and runs as a named prepared statement. Inserting the three with Kysely cost
// three round trips and a compile of a 400-placeholder text per run (issue 31: creating a run was about 15 %
// of the control plane's busy time in the dispatch benchmark); SQLite keeps the Kysely forms
// (services/run-create.ts).
//
// Two forms share the insert: `insertRunStatement` inside the creating transaction, after the pipeline's
// counter was taken (its $46 and $47 are the counter and project), and `createRunStatement`, which also takes
// the counter, in the same statement, only while the pipeline is active and still at the version whose
// definition the caller planned on ($2), and while its project has none of the settings ($46) the outboxes
// would read for this run: no row back means it was not (archived, deleted, re-applied meanwhile, or
// configured for notifications) and nothing was written. Under the pipeline row's lock PostgreSQL re-checks that condition on
// the newest row, so two concurrent creations still take consecutive counters.
import type { Insertable } from 'kysely';
import type { StoreDb } from './database.js';
import { fixedStatement } from './dispatch-statements.js';
import type { JobRunsTable, RunsTable, StageRunsTable } from './schema.js';

const INSERTS = `
  r as (
    insert into runs (id, project_id, pipeline_id, version_id, counter, status, cause, triggered_by, git_ref,
      revision, parameters, rerun_of, trigger_event, pr_labels, cancel_requested, created_at, started_at,
      finished_at, updated_at, concurrency_group, concurrency_seq, waiting_for)
    select $3, p.project_id, $1, $2, p.counter, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15, $13,
      $16, $17::integer, $18
    from p
    returning id
  ), s as (
    insert into stage_runs (id, run_id, position, name, status, started_at, finished_at, active_jobs,
      created_jobs, failed_jobs, canceled_jobs)
    select u.id, r.id, u.position, u.name, u.status, u.started_at, u.finished_at, u.active, u.created,
      u.failed, u.canceled
    from r cross join unnest($19::varchar[], $20::integer[], $21::varchar[], $22::varchar[], $23::varchar[],
      $24::varchar[], $25::integer[], $26::integer[], $27::integer[], $28::integer[])
      as u(id, position, name, status, started_at, finished_at, active, created, failed, canceled)
    returning id
  ), j as (
    insert into job_runs (id, run_id, stage_run_id, position, name, matrix, needs, is_gate, required_approvals,
      notify_on, status, attempt, retry_left, retry, approved_by, rejected_by, started_at, finished_at,
      created_at, updated_at)
    select u.id, r.id, u.stage_run_id, u.position, u.name, u.matrix, u.needs, u.is_gate, u.required_approvals,
      u.notify_on, u.status, u.attempt, u.retry_left, u.retry, u.approved_by, u.rejected_by, u.started_at,
      u.finished_at, $13, $13
    from r cross join unnest($29::varchar[], $30::varchar[], $31::integer[], $32::varchar[], $33::text[],
      $34::text[], $35::integer[], $36::integer[], $37::varchar[], $38::varchar[], $39::integer[],
      $40::integer[], $41::integer[], $42::text[], $43::varchar[], $44::varchar[], $45::varchar[])
      as u(id, stage_run_id, position, name, matrix, needs, is_gate, required_approvals, notify_on, status,
        attempt, retry_left, retry, approved_by, rejected_by, started_at, finished_at)
    returning id
  )
  select p.counter, p.project_id from p`;

const insertRun = fixedStatement<{ counter: number; project_id: string }>(`
  with p as (select $46::integer as counter, $47::varchar as project_id), ${INSERTS}`);

const createRun = fixedStatement<{ counter: number; project_id: string }>(`
  with p as (
    update pipelines set counter = counter + 1
    where id = $1 and archived = 0 and version_id = $2
      and not exists (select 1 from project_settings ps
        where ps.project_id = pipelines.project_id and ps.key = any($46::varchar[]))
    returning counter, project_id
  ), ${INSERTS}`);

/** Takes the pipeline's next counter (locking its row until the transaction ends); null when archived or gone. */
export const bumpCounterStatement = fixedStatement<{
  counter: number;
  project_id: string;
  version_id: string;
  definition: string;
}>(`
  update pipelines set counter = counter + 1 where id = $1 and archived = 0
  returning counter, project_id, version_id, definition`);

/** The run row's columns that the creating code decides (the counter and project come from the pipeline). */
export type NewRunRow = Omit<Insertable<RunsTable>, 'counter' | 'project_id'>;

function parameters(
  run: NewRunRow,
  stages: Insertable<StageRunsTable>[],
  jobs: Insertable<JobRunsTable>[],
): unknown[] {
  const col = <T, K extends keyof T>(rows: T[], key: K) => rows.map((r) => r[key] ?? null);
  return [
    run.pipeline_id,
    run.version_id,
    run.id,
    run.status,
    run.cause,
    run.triggered_by,
    run.git_ref ?? null,
    run.revision ?? null,
    run.parameters,
    run.rerun_of ?? null,
    run.trigger_event ?? null,
    run.pr_labels ?? null,
    run.created_at,
    run.started_at ?? null,
    run.finished_at ?? null,
    run.concurrency_group ?? null,
    run.concurrency_seq ?? null,
    run.waiting_for ?? null,
    col(stages, 'id'),
    col(stages, 'position'),
    col(stages, 'name'),
    col(stages, 'status'),
    col(stages, 'started_at'),
    col(stages, 'finished_at'),
    col(stages, 'active_jobs'),
    col(stages, 'created_jobs'),
    col(stages, 'failed_jobs'),
    col(stages, 'canceled_jobs'),
    col(jobs, 'id'),
    col(jobs, 'stage_run_id'),
    col(jobs, 'position'),
    col(jobs, 'name'),
    col(jobs, 'matrix'),
    col(jobs, 'needs'),
    col(jobs, 'is_gate'),
    col(jobs, 'required_approvals'),
    col(jobs, 'notify_on'),
    col(jobs, 'status'),
    col(jobs, 'attempt'),
    col(jobs, 'retry_left'),
    col(jobs, 'retry'),
    col(jobs, 'approved_by'),
    col(jobs, 'rejected_by'),
    col(jobs, 'started_at'),
    col(jobs, 'finished_at'),
  ];
}

/**
 * Inserts a run with its stages and jobs in the transaction that took `counter` (bumpCounterStatement).
 * The rows' run id, creation and update times are the run's (`run.id`, `run.created_at`): as newJobRow sets.
 */
export async function insertRunRows(
  db: StoreDb,
  run: NewRunRow & { counter: number; project_id: string },
  stages: Insertable<StageRunsTable>[],
  jobs: Insertable<JobRunsTable>[],
): Promise<void> {
  await insertRun(db, [...parameters(run, stages, jobs), run.counter, run.project_id]);
}

/**
 * Takes the pipeline's next counter and inserts the run, its stages and jobs, in one statement, only while
 * the pipeline is active at `run.version_id` and its project has none of the `absentSettings` (those an
 * outbox would read: without them it writes nothing); the counter and project, or null when nothing was
 * written.
 */
export async function createRunRows(
  db: StoreDb,
  run: NewRunRow,
  stages: Insertable<StageRunsTable>[],
  jobs: Insertable<JobRunsTable>[],
  absentSettings: readonly string[],
): Promise<{ counter: number; project_id: string } | null> {
  const rows = await createRun(db, [...parameters(run, stages, jobs), [...absentSettings]]);
  return rows[0] ?? null;
}
