// Statements a table import runs (issue 30 item 2; docs/portal-import.md): one multi-row INSERT per batch
// with a placeholder per value in the engine's own style, and the text governance classifies and a reviewer
// approves for the whole import — the single-row form of that INSERT, after a comment naming the file by
// its size and SHA-256 (so an approval covers exactly that file, and the same upload after approval runs).
// Pure: identifiers are checked by the caller against the table and quoted here per dialect; values are
// never part of the text.
import type { SqlDialect } from './dialect.js';
import { type ParameterStyle, placeholder } from './placeholders.js';
import { quoteIdent } from './quote.js';
import { qualifiedTable } from './table-statements.js';

/**
 * Rows per INSERT: the asked batch size, bounded so a statement binds at most 30,000 values (below the
 * 32,766 of SQLite and the 65,535 of the PostgreSQL and MySQL protocols; SQL Server's 2,100 for `@pn`).
 */
export function rowsPerStatement(style: ParameterStyle, columns: number, asked: number): number {
  const cap = style === '@pn' ? 2000 : 30_000;
  return Math.max(1, Math.min(asked, Math.floor(cap / Math.max(1, columns))));
}

/** `INSERT INTO t (a, b) VALUES (p1, p2), (p3, p4), …` for `rows` rows. */
export function importInsertSql(
  dialect: SqlDialect,
  style: ParameterStyle,
  path: readonly string[],
  columns: readonly string[],
  rows: number,
): string {
  const table = qualifiedTable(dialect, path);
  const cols = columns.map((c) => quoteIdent(dialect, c)).join(', ');
  const tuples: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) {
    const ps: string[] = [];
    for (let c = 0; c < columns.length; c++) ps.push(placeholder(style, ++n));
    tuples.push(`(${ps.join(', ')})`);
  }
  if (dialect.name === 'oracle' && rows > 1) {
    // Oracle has no multi-row VALUES: INSERT ALL INTO … VALUES (…) … SELECT 1 FROM dual.
    const into = tuples.map((t) => `INTO ${table} (${cols}) VALUES ${t}`).join(' ');
    return `INSERT ALL ${into} SELECT 1 FROM dual`;
  }
  return `INSERT INTO ${table} (${cols}) VALUES ${tuples.join(', ')}`;
}

export interface ImportFileFacts {
  format: string;
  /** The file's name as uploaded (reduced to printable characters for the comment). */
  name: string;
  bytes: number;
  sha256: string;
}

/** The import as one request: what is classified, held for approval and audited. */
export function importRequestText(
  dialect: SqlDialect,
  style: ParameterStyle,
  path: readonly string[],
  columns: readonly string[],
  file: ImportFileFacts,
): string {
  const name = file.name.replace(/[^\x20-\x7e]/g, '?').slice(0, 120);
  const comment = `-- import ${file.format} file "${name}" (${file.bytes} bytes, sha256 ${file.sha256})`;
  return `${comment}\n${importInsertSql(dialect, style, path, columns, 1)}`;
}
