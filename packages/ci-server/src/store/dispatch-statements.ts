// The dispatch hot path's statements on PostgreSQL, each one fixed text whatever the batch size: a batch's
// values travel as arrays (`unnest($1::varchar[], …)`, `= any($1::varchar[])`), so Kysely never builds them
// per call and they run as named prepared statements (`preparePostgresStatement`: parsed once per pooled
// connection, and planned once when PostgreSQL finds a generic plan no worse). The claim, a batch of starts,
// a finish batch's lock, read and write, and the assignment read are one each per batch: built per call,
// their texts varied with the batch size (a CASE per id) and Kysely's query building was a tenth of the
// control plane's CPU per job. SQLite keeps the Kysely-built forms beside each caller (no arrays to bind,
// and better-sqlite3 prepares per text anyway).
//
// What each statement decides is the same as its Kysely form's; the callers' comments say why it is safe.
import { preparePostgresStatement } from '@app/kit';
import { CompiledQuery, type Selectable } from 'kysely';
import type { StoreDb } from './database.js';
import type { RunsTable } from './schema.js';

/** Runs a fixed text with its parameters; marks it as a named prepared statement on first use. */
export function fixedStatement<R>(
  text: string,
): (db: StoreDb, parameters: readonly unknown[]) => Promise<R[]> {
  const query = text.replace(/\s+/g, ' ').trim();
  preparePostgresStatement(query);
  return async (db, parameters) => (await db.executeQuery<R>(CompiledQuery.raw(query, [...parameters]))).rows;
}

/**
 * A Kysely-built statement compiled once, its only parameter the batch's ids (`any($1::varchar[])`):
 * `build` gets a PostgreSQL handle and the placeholder to put where the ids go. For statements whose select list is worth keeping
 * in Kysely (typed, shared with SQLite's form).
 */
export function compiledOnce<R>(
  build: (db: StoreDb, ids: readonly string[]) => { compile(): CompiledQuery },
): (db: StoreDb, ids: readonly string[]) => Promise<R[]> {
  let text: string | undefined;
  return async (db, ids) => {
    if (text === undefined) {
      const compiled = build(db, []).compile();
      if (compiled.parameters.length !== 1)
        throw new Error('compiledOnce: the ids must be its only parameter');
      preparePostgresStatement(compiled.sql);
      text = compiled.sql;
    }
    return (await db.executeQuery<R>(CompiledQuery.raw(text, [[...ids]]))).rows;
  };
}

/** Claims (job id, agent id, agent name), each row only if still queued and unheld; $4 lease end, $5 now. */
export const claimStatement = fixedStatement<{ id: string }>(`
  update job_runs set lease_agent_id = c.agent_id, agent = c.agent_name, lease_expires_at = $4,
    assigned_at = $5, updated_at = $5
  from unnest($1::varchar[], $2::varchar[], $3::varchar[]) as c(id, agent_id, agent_name)
  where job_runs.id = c.id and job_runs.status = 'queued' and job_runs.lease_agent_id is null
  returning job_runs.id`);

/** The queued, unheld job runs among $1 (what the dispatcher learns of a new run), oldest first, $2 at most. */
export const unclaimedByIdStatement = fixedStatement<{
  id: string;
  run_id: string;
  name: string;
  version_id: string;
  created_at: string;
}>(`
  select j.id, j.run_id, j.name, r.version_id, j.created_at
  from job_runs j inner join runs r on r.id = j.run_id
  where j.status = 'queued' and j.lease_agent_id is null and j.id = any($1::varchar[])
  order by j.created_at, j.id limit $2`);

/**
 * Starts (job id, agent id, engine): queued → running for rows held by the reporting agent in a run not
 * being canceled that is running, or queued with none of the outbox settings ($6); the run row moves
 * queued → running in the same statement. $4 now; $5 true: write each row's engine (null included), as the
 * per-id form did when any report named one.
 */
export const startStatement = fixedStatement<{ id: string }>(`
  with j as (
    update job_runs set status = 'running', started_at = $4, updated_at = $4,
      engine = case when $5::boolean then s.engine else job_runs.engine end
    from unnest($1::varchar[], $2::varchar[], $3::varchar[]) as s(id, agent_id, engine)
    where job_runs.id = s.id and job_runs.status = 'queued' and job_runs.lease_agent_id = s.agent_id
      and job_runs.run_id in (
        select runs.id from runs
        where runs.id = job_runs.run_id and runs.cancel_requested = 0
          and (runs.status = 'running' or (runs.status = 'queued' and not exists (
            select 1 from project_settings ps
            where ps.project_id = runs.project_id and ps.key = any($6::varchar[]))))
        for key share)
    returning job_runs.id, job_runs.run_id
  ), r as (
    update runs set status = 'running', started_at = coalesce(started_at, $4), updated_at = $4
    where id in (select run_id from j) and status = 'queued'
    returning id
  )
  select id from j`);

/**
 * Every column of a run row, named: a prepared `select *` fails ("cached plan must not change result type")
 * on every pooled connection once a migration adds a column, as a newer replica's would in a rolling upgrade.
 */
const RUN_COLUMNS = [
  'id',
  'project_id',
  'pipeline_id',
  'version_id',
  'counter',
  'status',
  'cause',
  'triggered_by',
  'git_ref',
  'revision',
  'parameters',
  'rerun_of',
  'trigger_event',
  'pr_labels',
  'cancel_requested',
  'created_at',
  'started_at',
  'finished_at',
  'updated_at',
  'concurrency_group',
  'concurrency_seq',
  'waiting_for',
  'superseded_by',
  'definition_error',
] as const satisfies readonly (keyof RunsTable)[];
// A column added to RunsTable and not named above fails the type check here.
const allRunColumns: Exclude<keyof RunsTable, (typeof RUN_COLUMNS)[number]> extends never ? true : never =
  true;
void allRunColumns;

/** Locks the runs of a finish batch in id order (two batches never deadlock): their rows. */
export const lockRunsStatement = fixedStatement<Selectable<RunsTable>>(`
  select ${RUN_COLUMNS.join(', ')} from runs where id = any($1::varchar[]) order by id for no key update`);

/**
 * A finish batch's write: the stages' counts (and status and end when a stage ended: null keeps them) as a
 * data-modifying CTE, which runs whether or not the main statement reads it, and the job rows. $2 now.
 */
export const writeFinishesStatement = fixedStatement<never>(`
  with s as (
    update stage_runs set active_jobs = c.active, created_jobs = c.created, failed_jobs = c.failed,
      canceled_jobs = c.canceled, status = coalesce(c.status, stage_runs.status),
      finished_at = case when c.status is null then stage_runs.finished_at else $2 end
    from unnest($3::varchar[], $4::integer[], $5::integer[], $6::integer[], $7::integer[], $8::varchar[])
      as c(id, active, created, failed, canceled, status)
    where stage_runs.id = c.id
    returning stage_runs.id
  )
  update job_runs set status = f.result, finished_at = $2, updated_at = $2, lease_agent_id = null,
    lease_expires_at = null, exit_code = f.exit_code, error = f.error,
    outputs = coalesce(f.outputs, job_runs.outputs)
  from unnest($1::varchar[], $9::varchar[], $10::integer[], $11::text[], $12::text[])
    as f(id, result, exit_code, error, outputs)
  where job_runs.id = f.id`);
