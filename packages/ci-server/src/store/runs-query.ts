// Read queries behind the runs API: the filtered, paged runs list (an index range per filter plus a total
// summed from run_stats, never a count over runs), run summaries joined with their project and pipeline,
// and the rows of a run's detail with the last N log lines of each job run in one round trip.
import { sql } from 'kysely';
import type { RunStatus, RunWaiting } from '../domain/index.js';
import type { StoreDb } from './database.js';
import type { PipelineNames } from './pipeline-names.js';
import { annotateRuns, type SupersededBy } from './run-annotations.js';
import {
  boundPage,
  counted,
  LIST_COLUMNS,
  type ListRow,
  matching,
  type PageValues,
  pageStatement,
  type RunFilter,
} from './runs-page-statements.js';
import type { JobRunsTable, LogLinesTable, StageRunsTable } from './schema.js';

export type { RunFilter } from './runs-page-statements.js';

export interface RunSummaryRow {
  id: string;
  project_slug: string;
  pipeline_id: string;
  pipeline_name: string;
  counter: number;
  status: RunStatus;
  cause: string;
  git_ref: string | null;
  revision: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Why an unfinished run does nothing (store/run-annotations.ts); null when it is not waiting. */
  waiting: RunWaiting | null;
  /** The run that canceled this one (concurrency: cancel-superseded). */
  superseded_by: SupersededBy | null;
}

type RawSummary = Omit<RunSummaryRow, 'waiting' | 'superseded_by'> & {
  waiting_for: string | null;
  superseded_by: string | null;
};

/** Summaries with their `waiting` and `superseded_by` (one small read per page, not per run). */
async function annotated(db: StoreDb, rows: RawSummary[]): Promise<RunSummaryRow[]> {
  const notes = await annotateRuns(db, rows);
  return rows.map(({ waiting_for: _w, superseded_by: _s, ...r }) => ({ ...r, ...notes.get(r.id)! }));
}

/** Past this offset a page is found from whichever end of the ordered range is nearer. */
export const DEEP_OFFSET = 1000;

function summaries(db: StoreDb) {
  return db
    .selectFrom('runs as r')
    .innerJoin('pipelines as p', 'p.id', 'r.pipeline_id')
    .innerJoin('projects as pr', 'pr.id', 'r.project_id')
    .select([
      'r.id',
      'pr.slug as project_slug',
      'r.pipeline_id',
      'p.name as pipeline_name',
      'r.counter',
      'r.status',
      'r.cause',
      'r.git_ref',
      'r.revision',
      'r.created_at',
      'r.started_at',
      'r.finished_at',
      'r.waiting_for',
      'r.superseded_by',
    ]);
}

/** A deep page: the total first, then ids only from the nearer end, then just the page's rows. */
async function deepPage(trx: StoreDb, filter: RunFilter, limit: number, offset: number) {
  const total = Number((await counted(trx, filter).executeTakeFirstOrThrow()).total);
  if (offset >= total) return { rows: [] as ListRow[], total };
  const fromEnd = offset > total / 2;
  const size = Math.min(limit, total - offset);
  const order = fromEnd ? 'asc' : 'desc';
  const ids = matching(trx, filter)
    .select('id')
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(size)
    .offset(fromEnd ? total - offset - size : offset);
  const rows = await trx
    .selectFrom('runs')
    .select(LIST_COLUMNS)
    .where('id', 'in', ids)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return { rows, total };
}

/**
 * One page of runs, newest first, and the number of runs matching the filter; `undefined` when `afterId`
 * names no run (a run deleted since, by retention, cannot say where its page ended).
 *
 * A near page is one statement: the page as an index range scan, the total as a scalar subquery. A keyset
 * page (`afterId`) is the same statement entered at the cursor run's key, which a scalar subquery reads in
 * that statement too (no round trip of its own). Its text is compiled once per shape; an unfiltered first
 * or keyset page runs as a prepared statement on PostgreSQL (parsed and planned once per connection). A
 * deep page (offset past DEEP_OFFSET) reads the total first and walks ids only (index-only) from the nearer
 * end of the range, so offset 90,000 of 100,000 reads 10,000 index entries rather than 90,000; both reads
 * share a snapshot (repeatable read) so they agree. Pipeline names and project slugs come from `names`,
 * not a join.
 */
export async function listRuns(
  db: StoreDb,
  names: PipelineNames,
  filter: RunFilter,
  limit: number,
  offset: number,
  /** Keyset paging: the runs after this run (its created_at, then id), newest first; `offset` is then 0. */
  afterId?: string,
): Promise<{ rows: RunSummaryRow[]; total: number } | undefined> {
  let rows: ListRow[];
  let total: number;
  if (afterId !== undefined || offset <= DEEP_OFFSET) {
    const statement = pageStatement(db, filter, afterId !== undefined, limit, offset);
    const values: PageValues = {
      status: filter.status,
      projectId: filter.projectId,
      pipelineId: filter.pipelineId,
      afterId,
      limit,
      offset,
    };
    const page = (await db.executeQuery<ListRow & { total: number | string }>(boundPage(statement, values)))
      .rows;
    rows = page;
    if (page.length > 0) total = Number(page[0].total);
    else {
      // An empty page (past the end, or an unknown cursor) still answers the total: one more small read.
      const known = db
        .selectFrom('runs')
        .select(sql<number>`count(*)`.as('n'))
        .where('id', '=', afterId ?? '');
      const row = await counted(db, filter).select(known.as('known')).executeTakeFirstOrThrow();
      if (afterId !== undefined && Number(row.known) === 0) return undefined;
      total = Number(row.total);
    }
  } else {
    ({ rows, total } = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((trx) => deepPage(trx, filter, limit, offset)));
  }
  const named = await names.resolve(
    db,
    rows.map((r) => r.pipeline_id),
  );
  const out: RawSummary[] = [];
  for (const r of rows) {
    const n = named.get(r.pipeline_id);
    // A pipeline deleted since the page was read took its runs with it.
    if (!n) continue;
    // A literal of one fixed shape: spreading the driver's row objects cost ~5 µs a row (0.27 ms a page).
    out.push({
      id: r.id,
      project_slug: n.project_slug,
      pipeline_id: r.pipeline_id,
      pipeline_name: n.pipeline_name,
      counter: r.counter,
      status: r.status,
      cause: r.cause,
      git_ref: r.git_ref,
      revision: r.revision,
      created_at: r.created_at,
      started_at: r.started_at,
      finished_at: r.finished_at,
      waiting_for: r.waiting_for,
      superseded_by: r.superseded_by,
    });
  }
  return { rows: await annotated(db, out), total };
}

export async function runSummary(db: StoreDb, runId: string): Promise<RunSummaryRow | undefined> {
  const row = await summaries(db).where('r.id', '=', runId).executeTakeFirst();
  return row && (await annotated(db, [row]))[0];
}

/** The newest runs of a project (ProjectDetail's `recent_runs`). */
export async function recentRuns(db: StoreDb, projectId: string, limit: number) {
  const rows = await summaries(db)
    .where('r.project_id', '=', projectId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
  return annotated(db, rows);
}

/** The latest run of each pipeline of a project: the run whose counter is the pipeline's counter. */
export async function latestRuns(db: StoreDb, projectId: string) {
  const rows = await summaries(db)
    .where('p.project_id', '=', projectId)
    .whereRef('r.counter', '=', 'p.counter')
    .execute();
  return annotated(db, rows);
}

export interface RunDetailRows {
  parameters: string;
  triggered_by: string;
  version_id: string;
  pr_labels?: string | null;
  definition_error: string | null;
  stages: StageRunsTable[];
  jobs: JobRunsTable[];
  logs: DetailLogLine[];
}

/** A log line of the run detail with its run cursor (`run_seq`), by which lines are ordered. */
export type DetailLogLine = LogLinesTable & { run_seq: number | string | null };

/**
 * The last `logLines` lines of each job run, as one UNION ALL of per-job index range scans (each part reads
 * at most `logLines` index entries, whatever the size of the log), in chunks under SQLite's compound limit.
 * Lines come newest first per job.
 */
async function lastLogLines(db: StoreDb, jobIds: string[], logLines: number): Promise<DetailLogLine[]> {
  const out: DetailLogLine[] = [];
  for (let i = 0; i < jobIds.length; i += 200) {
    const parts = jobIds.slice(i, i + 200).map(
      (id) =>
        // The agent's last lines plus every control-plane notice of the job (negative seqs, a handful);
        // the caller orders them by cursor and keeps the last `logLines`.
        sql`select * from (select job_run_id, seq, stream, at, text, run_seq from log_lines
            where job_run_id = ${id} and seq > 0 order by seq desc limit ${logLines}) t
            union all select job_run_id, seq, stream, at, text, run_seq from log_lines
            where job_run_id = ${id} and seq < 0`,
    );
    const { rows } = await sql<DetailLogLine>`${sql.join(parts, sql` union all `)}`.execute(db);
    out.push(...rows);
  }
  return out;
}

export async function runDetailRows(
  db: StoreDb,
  runId: string,
  logLines: number,
): Promise<RunDetailRows | undefined> {
  const [run, stages, jobs] = await Promise.all([
    db
      .selectFrom('runs')
      .select(['parameters', 'triggered_by', 'version_id', 'pr_labels', 'definition_error'])
      .where('id', '=', runId)
      .executeTakeFirst(),
    db.selectFrom('stage_runs').selectAll().where('run_id', '=', runId).orderBy('position').execute(),
    db
      .selectFrom('job_runs')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('position')
      .orderBy('attempt')
      .execute(),
  ]);
  if (!run) return undefined;
  const logs =
    logLines > 0 && jobs.length > 0
      ? await lastLogLines(
          db,
          jobs.map((j) => j.id),
          logLines,
        )
      : [];
  return { ...run, stages, jobs, logs };
}

/** The recorded approve/reject decisions on the given gate job runs, oldest first. */
export async function gateDecisionRows(db: StoreDb, jobRunIds: string[]) {
  if (jobRunIds.length === 0) return [];
  return db
    .selectFrom('job_run_decisions')
    .select(['job_run_id', 'decision', 'actor', 'comment', 'at'])
    .where('job_run_id', 'in', jobRunIds)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

/** The stored definition (JSON text) of a pipeline version. */
export async function versionDefinition(db: StoreDb, versionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('pipeline_versions')
    .select('definition')
    .where('id', '=', versionId)
    .executeTakeFirst();
  return row?.definition;
}
