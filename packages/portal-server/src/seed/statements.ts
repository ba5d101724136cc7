// The SQL a seed run sends, per engine family: quoting, multi-row INSERTs with the family's placeholders,
// truncation of the planned tables, and the reads of parent keys, sequence starts and row counts. Pure
// text builders; identifiers come from the catalog and are always quoted.
import type { SeedFamily, SeedTable } from './types.js';

export function quoteIdent(family: SeedFamily, id: string): string {
  return family === 'postgres' ? `"${id.replaceAll('"', '""')}"` : `\`${id.replaceAll('`', '``')}\``;
}

/** `schema.table`, or an already qualified `other.table` of a parent outside the schema. */
export function tableRef(family: SeedFamily, schema: string, table: string): string {
  const dot = table.indexOf('.');
  if (dot > 0)
    return `${quoteIdent(family, table.slice(0, dot))}.${quoteIdent(family, table.slice(dot + 1))}`;
  return `${quoteIdent(family, schema)}.${quoteIdent(family, table)}`;
}

/** Rows per INSERT: bounded by the placeholder limit of both protocols (65535) with room to spare. */
export function batchRows(columns: number): number {
  return Math.max(1, Math.min(1000, Math.floor(30_000 / Math.max(1, columns))));
}

export function insertSql(
  family: SeedFamily,
  schema: string,
  table: string,
  columns: string[],
  rows: number,
  options: { overridingSystemValue?: boolean } = {},
): string {
  const cols = columns.map((c) => quoteIdent(family, c)).join(', ');
  const tuples: string[] = [];
  let n = 1;
  for (let r = 0; r < rows; r++) {
    const marks: string[] = [];
    for (let c = 0; c < columns.length; c++) marks.push(family === 'postgres' ? `$${n++}` : '?');
    tuples.push(`(${marks.join(', ')})`);
  }
  const head = `INSERT INTO ${tableRef(family, schema, table)} (${cols})`;
  const overriding = options.overridingSystemValue && family === 'postgres' ? ' OVERRIDING SYSTEM VALUE' : '';
  // A table whose every column the database fills still takes rows.
  if (columns.length === 0) {
    return family === 'postgres'
      ? `INSERT INTO ${tableRef(family, schema, table)} DEFAULT VALUES`
      : `INSERT INTO ${tableRef(family, schema, table)} () VALUES ()`;
  }
  return `${head}${overriding} VALUES ${tuples.join(', ')}`;
}

/** Statements that empty the planned tables (foreign keys among them included). */
export function truncateSql(family: SeedFamily, schema: string, tables: string[]): string[] {
  if (tables.length === 0) return [];
  if (family === 'postgres') {
    return [`TRUNCATE TABLE ${tables.map((t) => tableRef(family, schema, t)).join(', ')} RESTART IDENTITY`];
  }
  // MySQL refuses TRUNCATE of a referenced table unless the session stops checking foreign keys.
  return [
    'SET FOREIGN_KEY_CHECKS = 0',
    ...tables.map((t) => `TRUNCATE TABLE ${tableRef(family, schema, t)}`),
    'SET FOREIGN_KEY_CHECKS = 1',
  ];
}

/** Distinct parent key tuples a child's foreign key may take (bounded). */
export function poolSql(
  family: SeedFamily,
  schema: string,
  table: string,
  columns: string[],
  limit: number,
): string {
  const cols = columns.map((c) => quoteIdent(family, c));
  return `SELECT DISTINCT ${cols.join(', ')} FROM ${tableRef(family, schema, table)} WHERE ${cols.map((c) => `${c} IS NOT NULL`).join(' AND ')} LIMIT ${limit}`;
}

export function maxSql(family: SeedFamily, schema: string, table: string, column: string): string {
  return `SELECT MAX(${quoteIdent(family, column)}) AS m FROM ${tableRef(family, schema, table)}`;
}

export function countSql(family: SeedFamily, schema: string, table: string): string {
  return `SELECT COUNT(*) AS n FROM ${tableRef(family, schema, table)}`;
}

/** Rows of this run whose deferred key is still null, newest first (the run's own rows for serial keys). */
export function pendingKeysSql(
  family: SeedFamily,
  schema: string,
  t: SeedTable,
  fkColumns: string[],
  limit: number,
): string {
  const pk = t.primaryKey.map((c) => quoteIdent(family, c));
  return `SELECT ${pk.join(', ')} FROM ${tableRef(family, schema, t.name)} WHERE ${fkColumns
    .map((c) => `${quoteIdent(family, c)} IS NULL`)
    .join(' AND ')} ORDER BY ${pk.map((c) => `${c} DESC`).join(', ')} LIMIT ${limit}`;
}

export function updateKeySql(family: SeedFamily, schema: string, t: SeedTable, fkColumns: string[]): string {
  let n = 1;
  const mark = () => (family === 'postgres' ? `$${n++}` : '?');
  const set = fkColumns.map((c) => `${quoteIdent(family, c)} = ${mark()}`).join(', ');
  const where = t.primaryKey.map((c) => `${quoteIdent(family, c)} = ${mark()}`).join(' AND ');
  return `UPDATE ${tableRef(family, schema, t.name)} SET ${set} WHERE ${where}`;
}

/** PostgreSQL: moves the sequence behind a serial or identity column past the copied values. */
export function resetSequenceSql(schema: string, table: string, column: string): string {
  const q = (s: string) => `"${s.replaceAll('"', '""')}"`;
  const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;
  return `SELECT setval(pg_get_serial_sequence(${lit(`${q(schema)}.${q(table)}`)}, ${lit(column)}), m) FROM (SELECT MAX(${q(column)}) AS m FROM ${q(schema)}.${q(table)}) x WHERE m IS NOT NULL`;
}
