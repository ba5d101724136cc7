// The runs list's page statements: which runs a filter matches (an ordered range of one index per filter
// combination, see 0002_core), their total summed from run_stats, and a near page's SQL compiled once per
// shape and reused with each request's values. On PostgreSQL first and keyset pages filtered by nothing but
// a status are marked as prepared statements, so they are parsed and planned once per connection.
import { preparePostgresStatement } from '@app/kit';
import { CompiledQuery, PostgresAdapter, sql } from 'kysely';
import type { RunStatus } from '../domain/index.js';
import type { StoreDb } from './database.js';
import type { RunsTable } from './schema.js';

export interface RunFilter {
  status?: RunStatus;
  projectId?: string;
  pipelineId?: string;
}

export const LIST_COLUMNS = [
  'id',
  'pipeline_id',
  'counter',
  'status',
  'cause',
  'git_ref',
  'revision',
  'created_at',
  'started_at',
  'finished_at',
  'waiting_for',
  'superseded_by',
] as const;

export type ListRow = Pick<RunsTable, (typeof LIST_COLUMNS)[number]>;

/** The runs matching a filter; every combination is an ordered range of one index (see 0002_core). */
export function matching(db: StoreDb, f: RunFilter) {
  let q = db.selectFrom('runs');
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
  if (f.pipelineId !== undefined) q = q.where('pipeline_id', '=', f.pipelineId);
  return q;
}

/** How many runs match: a sum over at most five rows per pipeline of run_stats, never a count of runs. */
export function counted(db: StoreDb, f: RunFilter) {
  let q = db.selectFrom('run_stats').select(sql<number>`coalesce(sum(n), 0)`.as('total'));
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.projectId !== undefined) q = q.where('project_id', '=', f.projectId);
  if (f.pipelineId !== undefined) q = q.where('pipeline_id', '=', f.pipelineId);
  return q;
}

/** The largest page a prepared page statement serves (its literal inner LIMIT); the route allows 200. */
export const PREPARED_LIMIT_MAX = 200;

/** Every run status (the check constraint of 0002_core): the only values written into a statement's text. */
const RUN_STATUSES: readonly RunStatus[] = ['queued', 'running', 'success', 'failed', 'canceled'];

// Stand-ins for the values of a near page, by which a compiled statement's parameters are told apart.
const SLOT = {
  status: '\u0000status',
  projectId: '\u0000project',
  pipelineId: '\u0000pipeline',
  afterId: '\u0000after',
  limit: -1,
  offset: -2,
} as const;
type Slot = keyof typeof SLOT;
/** A near page's values, by stand-in. */
export type PageValues = Record<Slot, unknown>;

interface PageStatement {
  query: string;
  /** Which value goes into each parameter, in order. */
  slots: Slot[];
}

/**
 * A near page as Kysely builds it (see listRuns), with stand-ins for the values. `nested` wraps the range
 * in a literal `LIMIT 200` and applies the page's limit outside it: the same rows, but a plan PostgreSQL can
 * cost without knowing the limit, so a prepared statement gets a generic plan (a `LIMIT $n` is costed as a
 * tenth of the range, which would keep it planning every call).
 */
function buildPage(
  db: StoreDb,
  shape: { filter: RunFilter; keyset: boolean; nested: boolean; literalStatus?: RunStatus },
) {
  const f = shape.filter;
  const standIn: RunFilter = {
    status: f.status === undefined || shape.literalStatus ? undefined : (SLOT.status as RunStatus),
    projectId: f.projectId === undefined ? undefined : SLOT.projectId,
    pipelineId: f.pipelineId === undefined ? undefined : SLOT.pipelineId,
  };
  let q = matching(db, standIn);
  let total = counted(db, standIn);
  if (shape.literalStatus) {
    // In the text, so the plan is made for this status: the (status, created_at, id) range for a rare one,
    // the (created_at, id) range with a filter for one most runs have.
    q = q.where('status', '=', sql.lit(shape.literalStatus));
    total = total.where('status', '=', sql.lit(shape.literalStatus));
  }
  if (shape.keyset) {
    // A row-value comparison, not `a < x OR (a = x AND b < y)`: PostgreSQL turns only the former into an
    // index range (the OR form scanned from the newest run, 95× /healthz at depth 50,000). The cursor's
    // created_at is a scalar subquery (an InitPlan on PostgreSQL): an unknown id makes it NULL and the
    // page empty, told apart from the end of the list in listRuns.
    const at = db.selectFrom('runs').select('created_at').where('id', '=', SLOT.afterId);
    q = q.where(sql<boolean>`(created_at, id) < ((${at}), ${SLOT.afterId})`);
  }
  const range = q
    .select(LIST_COLUMNS)
    .select(total.as('total'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  // Nested, the order is stated again, as SQL promises none from a subquery (PostgreSQL sees the rows come
  // sorted: no Sort).
  if (shape.nested)
    return db
      .selectFrom(range.limit(sql.lit(PREPARED_LIMIT_MAX)).as('page'))
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(SLOT.limit);
  return range.limit(SLOT.limit).offset(SLOT.offset);
}

// Compiled near-page statements per database handle and shape: building and compiling the query through
// Kysely cost ~0.09 ms a request, a tenth of a page on PostgreSQL.
const compiledPages = new WeakMap<StoreDb, Map<string, PageStatement>>();

export function pageStatement(
  db: StoreDb,
  filter: RunFilter,
  keyset: boolean,
  limit: number,
  offset: number,
) {
  // A first or keyset page is prepared when nothing but its status is filtered. Unfiltered, its one ordered
  // index range depends on no value; a status is written into the text (five statuses, two statements
  // each), so the plan is made for it. Project and pipeline pages stay planned per call: a generic plan,
  // blind to the id, was measured to pick the (created_at, id) range and walk it past every other
  // pipeline's runs.
  // SQLite keeps the plain form: better-sqlite3 plans each statement anyway, and nothing is prepared there.
  const prepare =
    db.getExecutor().adapter instanceof PostgresAdapter &&
    filter.projectId === undefined &&
    filter.pipelineId === undefined &&
    (filter.status === undefined || RUN_STATUSES.includes(filter.status)) &&
    offset === 0 &&
    limit <= PREPARED_LIMIT_MAX;
  const literalStatus = prepare ? filter.status : undefined;
  const key = `${filter.status !== undefined}${filter.projectId !== undefined}${filter.pipelineId !== undefined}${keyset}${prepare}${literalStatus}`;
  let cache = compiledPages.get(db);
  if (!cache) {
    cache = new Map();
    compiledPages.set(db, cache);
  }
  let statement = cache.get(key);
  if (!statement) {
    const compiled = buildPage(db, { filter, keyset, nested: prepare, literalStatus }).compile();
    const bySentinel = new Map<unknown, Slot>(Object.entries(SLOT).map(([k, v]) => [v, k as Slot]));
    const slots = compiled.parameters.map((v) => {
      const slot = bySentinel.get(v);
      if (!slot) throw new Error(`runs page: a parameter that is no value of the page (${String(v)})`);
      return slot;
    });
    if (prepare) preparePostgresStatement(compiled.sql);
    statement = { query: compiled.sql, slots };
    cache.set(key, statement);
  }
  return statement;
}

/** The statement with this request's values in its parameters, for `db.executeQuery`. */
export function boundPage(statement: PageStatement, values: PageValues) {
  return CompiledQuery.raw(
    statement.query,
    statement.slots.map((slot) => values[slot]),
  );
}
