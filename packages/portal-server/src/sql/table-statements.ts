// Statements the table browser builds (issue 30 item 1 and 2): the page and row count of a table under
// per-column filters and sorts, and the UPDATE/INSERT/DELETE of an edit batch keyed by the primary key (or
// SQLite's rowid). Pure: no I/O; every column a request names is checked against the table's real columns
// and quoted in the dialect's own way.
//
// Reads bind filter values as parameters. Edit statements carry their values as literals instead, because the
// batch text is what governance classifies, what a reviewer approves (an approval window matches the exact
// text) and what the audit line records: with placeholders a reviewer would approve `SET a = ?` and never see
// the value. Literals go through `quoteLiteral` (quotes doubled, MySQL backslashes escaped); numbers must be
// finite, booleans become the dialect's own words, anything else (objects, arrays) is refused.
import type { SqlDialect } from './dialect.js';
import { type ParameterStyle, placeholder } from './placeholders.js';
import { quoteIdent, quoteLiteral } from './quote.js';

/** A request that names an unknown column, an unknown operator or a value the generator cannot write: 400. */
export class TableRequestError extends Error {}

export type CellValue = string | number | boolean | null;
export type RowValues = Record<string, CellValue>;

export interface TableColumn {
  name: string;
  type: string;
  isPrimary: boolean;
}

/** The table and how its rows are keyed: primary-key columns, or the engine's row id (SQLite `rowid`). */
export interface TableShape {
  /** Container parts then the table's name (a DatabaseObject path). */
  path: readonly string[];
  columns: readonly TableColumn[];
  /** Primary-key columns in key order; empty when `rowId` keys the rows, or when the table has no key. */
  key: readonly string[];
  /** The row id expression when rows are keyed by it (`rowid`), projected under ROW_ID_FIELD. */
  rowId?: string;
}

/** The field a rowid-keyed table's row id is answered under. */
export const ROW_ID_FIELD = '__rowid';

export const FILTER_OPS = [
  'contains',
  'starts_with',
  'equals',
  'not_equals',
  'gt',
  'gte',
  'lt',
  'lte',
  'is_null',
  'not_null',
] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

export interface ColumnFilter {
  column: string;
  op: FilterOp;
  value?: CellValue;
}

export interface ColumnSort {
  column: string;
  direction: 'asc' | 'desc';
}

export interface BrowseRequest {
  filters: readonly ColumnFilter[];
  sorts: readonly ColumnSort[];
  offset: number;
  limit: number;
  /** Columns that may not steer the order (masked): left out of the stable tie-break. */
  unsortable?: ReadonlySet<string>;
}

export interface BrowseStatements {
  select: string;
  count: string;
  /** Parameters of both statements (the count takes the same filters). */
  params: CellValue[];
}

export function qualifiedTable(dialect: SqlDialect, path: readonly string[]): string {
  if (path.length === 0 || path.some((p) => p === '')) throw new TableRequestError('path must name a table');
  return path.map((p) => quoteIdent(dialect, p)).join('.');
}

function checkColumn(shape: TableShape, name: unknown): string {
  if (typeof name !== 'string' || !shape.columns.some((c) => c.name === name))
    throw new TableRequestError(`Unknown column ${JSON.stringify(name)}`);
  return name;
}

/** The column as text, for the text operators (contains, starts with). */
function asText(dialect: SqlDialect, col: string): string {
  switch (dialect.name) {
    case 'mysql':
      return `CAST(${col} AS CHAR)`;
    case 'mssql':
      return `CAST(${col} AS NVARCHAR(MAX))`;
    case 'oracle':
      return `CAST(${col} AS VARCHAR2(4000))`;
    default:
      return `CAST(${col} AS TEXT)`;
  }
}

/** `%`, `_` and the escape character itself are taken literally in a LIKE pattern built from a user's text. */
function likeEscaped(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

const COMPARE: Partial<Record<FilterOp, string>> = {
  equals: '=',
  not_equals: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
};

function filterValue(f: ColumnFilter): CellValue {
  const v = f.value;
  if (v === undefined || v === null)
    throw new TableRequestError(`Filter ${f.op} on ${f.column} needs a value`);
  if (typeof v === 'number' && !Number.isFinite(v))
    throw new TableRequestError('Filter values must be finite');
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
    throw new TableRequestError('Filter values are strings, numbers or booleans');
  return v;
}

/** The WHERE clause of the filters, with the values as parameters starting at `start`. */
function whereOf(
  dialect: SqlDialect,
  style: ParameterStyle,
  shape: TableShape,
  filters: readonly ColumnFilter[],
): { sql: string; params: CellValue[] } {
  const parts: string[] = [];
  const params: CellValue[] = [];
  const next = (v: CellValue) => {
    params.push(v);
    return placeholder(style, params.length);
  };
  for (const f of filters) {
    const col = quoteIdent(dialect, checkColumn(shape, f.column));
    if (!(FILTER_OPS as readonly string[]).includes(f.op))
      throw new TableRequestError(`Unknown filter operator ${JSON.stringify(f.op)}`);
    if (f.op === 'is_null') parts.push(`${col} IS NULL`);
    else if (f.op === 'not_null') parts.push(`${col} IS NOT NULL`);
    else if (f.op === 'contains' || f.op === 'starts_with') {
      const text = String(filterValue(f));
      const pattern = `${f.op === 'contains' ? '%' : ''}${likeEscaped(text)}%`;
      const p = next(pattern);
      // Case-insensitive where the engine's LIKE is not already (PostgreSQL, DuckDB, Oracle).
      if (dialect.name === 'postgres' || dialect.name === 'duckdb')
        parts.push(`${asText(dialect, col)} ILIKE ${p} ESCAPE '!'`);
      else if (dialect.name === 'oracle')
        parts.push(`UPPER(${asText(dialect, col)}) LIKE UPPER(${p}) ESCAPE '!'`);
      else parts.push(`${asText(dialect, col)} LIKE ${p} ESCAPE '!'`);
    } else parts.push(`${col} ${COMPARE[f.op]} ${next(filterValue(f))}`);
  }
  return { sql: parts.length ? ` WHERE ${parts.join(' AND ')}` : '', params };
}

/** One page of the table (filters, sorts, then the key as a stable tie-break) and its filtered row count. */
export function browseStatements(
  dialect: SqlDialect,
  style: ParameterStyle,
  shape: TableShape,
  req: BrowseRequest,
): BrowseStatements {
  if (!Number.isSafeInteger(req.offset) || req.offset < 0) throw new TableRequestError('offset must be ≥ 0');
  if (!Number.isSafeInteger(req.limit) || req.limit < 1) throw new TableRequestError('limit must be ≥ 1');
  const table = qualifiedTable(dialect, shape.path);
  const where = whereOf(dialect, style, shape, req.filters);
  const order: string[] = [];
  const seen = new Set<string>();
  for (const s of req.sorts) {
    const name = checkColumn(shape, s.column);
    if (s.direction !== 'asc' && s.direction !== 'desc')
      throw new TableRequestError('sort direction is asc or desc');
    if (seen.has(name)) continue;
    seen.add(name);
    order.push(`${quoteIdent(dialect, name)} ${s.direction.toUpperCase()}`);
  }
  for (const k of shape.key) {
    if (!seen.has(k) && !req.unsortable?.has(k)) order.push(quoteIdent(dialect, k));
  }
  if (shape.rowId) order.push(shape.rowId);
  const rowId = shape.rowId ? `${shape.rowId} AS ${quoteIdent(dialect, ROW_ID_FIELD)}, ` : '';
  let select = `SELECT ${rowId}* FROM ${table}${where.sql}`;
  if (dialect.name === 'mssql' || dialect.name === 'oracle') {
    // OFFSET … FETCH needs an ORDER BY; a keyless page is ordered by nothing in particular.
    const by = order.length ? order.join(', ') : dialect.name === 'mssql' ? '(SELECT NULL)' : '1';
    select += ` ORDER BY ${by} OFFSET ${req.offset} ROWS FETCH NEXT ${req.limit} ROWS ONLY`;
  } else {
    if (order.length) select += ` ORDER BY ${order.join(', ')}`;
    select += ` LIMIT ${req.limit} OFFSET ${req.offset}`;
  }
  const count = `SELECT COUNT(*) AS ${quoteIdent(dialect, 'total')} FROM ${table}${where.sql}`;
  return { select, count, params: where.params };
}

// ---------- edits ----------

export type RowChange =
  | { op: 'update'; original: RowValues; values: RowValues }
  | { op: 'insert'; values: RowValues }
  | { op: 'delete'; original: RowValues };

/** A value as a literal of the dialect. */
export function literal(dialect: SqlDialect, v: unknown): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return quoteLiteral(dialect, v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TableRequestError('Numbers must be finite');
    return String(v);
  }
  if (typeof v === 'boolean') {
    if (dialect.name === 'postgres' || dialect.name === 'duckdb') return v ? 'TRUE' : 'FALSE';
    return v ? '1' : '0';
  }
  throw new TableRequestError('Cell values are strings, numbers, booleans or null');
}

/**
 * Types whose values do not survive the round trip through JSON text exactly (approximate numbers, binary,
 * documents, arrays, large objects) or cannot be compared with `=` on some engine: not part of the
 * concurrent-change check. The key and the other columns still are.
 */
const UNCOMPARABLE =
  /float|real|double|json|blob|bytea|binary|image|geometry|geography|point|xml|clob|\[\]|array|hstore|money/i;

function comparable(col: TableColumn, value: unknown): boolean {
  if (UNCOMPARABLE.test(col.type)) return false;
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

export interface EditOptions {
  /** Columns whose values the caller sees masked: never written, never compared. */
  locked: ReadonlySet<string>;
}

/** `WHERE key = … AND every other original value still matches`: 0 rows affected means someone changed it. */
function rowMatch(
  dialect: SqlDialect,
  shape: TableShape,
  original: RowValues,
  locked: ReadonlySet<string>,
): string {
  const parts: string[] = [];
  if (shape.rowId) {
    const id = original[ROW_ID_FIELD];
    if (typeof id !== 'number' && typeof id !== 'string')
      throw new TableRequestError(`The row's ${ROW_ID_FIELD} is missing`);
    parts.push(`${shape.rowId} = ${literal(dialect, id)}`);
  } else {
    if (shape.key.length === 0)
      throw new TableRequestError('The table has no primary key: its rows cannot be edited here');
    for (const k of shape.key) {
      const v = original[k];
      if (v === undefined || v === null) throw new TableRequestError(`The row's key ${k} is missing`);
      if (locked.has(k))
        throw new TableRequestError(`The key column ${k} is masked: the row cannot be edited`);
      parts.push(`${quoteIdent(dialect, k)} = ${literal(dialect, v)}`);
    }
  }
  for (const col of shape.columns) {
    if (shape.key.includes(col.name) || locked.has(col.name) || !(col.name in original)) continue;
    const v = original[col.name];
    if (!comparable(col, v)) continue;
    const q = quoteIdent(dialect, col.name);
    parts.push(v === null ? `${q} IS NULL` : `${q} = ${literal(dialect, v)}`);
  }
  return parts.join(' AND ');
}

function writableColumn(shape: TableShape, name: string, locked: ReadonlySet<string>): string {
  checkColumn(shape, name);
  if (locked.has(name)) throw new TableRequestError(`Column ${name} is masked and cannot be edited`);
  return name;
}

const same = (a: unknown, b: unknown) => (a === null || b === null ? a === b : String(a) === String(b));

export interface EditStatement {
  op: RowChange['op'];
  /** Index of the change it was built from. */
  change: number;
  text: string;
}

/**
 * The statements of an edit batch, in the order given. An update sets only the values that differ from the
 * original (so an engine reporting changed rather than matched rows, MySQL, still reports 1); an update
 * with nothing left to set is dropped. Each UPDATE and DELETE must affect exactly one row when run.
 */
export function editStatements(
  dialect: SqlDialect,
  shape: TableShape,
  changes: readonly RowChange[],
  options: EditOptions,
): EditStatement[] {
  const table = qualifiedTable(dialect, shape.path);
  const out: EditStatement[] = [];
  for (const [change, c] of changes.entries()) {
    const text = editStatement(dialect, shape, table, c, options);
    if (text) out.push({ op: c.op, change, text });
  }
  return out;
}

function editStatement(
  dialect: SqlDialect,
  shape: TableShape,
  table: string,
  c: RowChange,
  options: EditOptions,
): string | undefined {
  if (c.op === 'insert') {
    const names = Object.keys(c.values).map((n) => writableColumn(shape, n, options.locked));
    if (names.length === 0)
      return dialect.name === 'mysql'
        ? `INSERT INTO ${table} () VALUES ()`
        : `INSERT INTO ${table} DEFAULT VALUES`;
    const cols = names.map((n) => quoteIdent(dialect, n)).join(', ');
    const vals = names.map((n) => literal(dialect, c.values[n])).join(', ');
    return `INSERT INTO ${table} (${cols}) VALUES (${vals})`;
  } else if (c.op === 'update') {
    const set = Object.keys(c.values)
      .map((n) => writableColumn(shape, n, options.locked))
      .filter((n) => !(n in c.original) || !same(c.original[n], c.values[n]))
      .map((n) => `${quoteIdent(dialect, n)} = ${literal(dialect, c.values[n])}`);
    if (set.length === 0) return undefined;
    return `UPDATE ${table} SET ${set.join(', ')} WHERE ${rowMatch(dialect, shape, c.original, options.locked)}`;
  } else if (c.op === 'delete') {
    return `DELETE FROM ${table} WHERE ${rowMatch(dialect, shape, c.original, options.locked)}`;
  }
  throw new TableRequestError('A change is an update, insert or delete');
}
