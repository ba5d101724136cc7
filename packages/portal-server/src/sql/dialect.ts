// What one SQL dialect is, as the sql/ helpers take it: splitter options, parser grammar, quoting, limit clause,
// comment and literal rules, transaction-control words. Each engine's descriptor (providers/<engine>/engine.ts)
// holds its dialect and callers pass it in, so sql/ knows no engine and imports nothing of the portal's.
import type { SplitterOptions } from 'dbgate-query-splitter';
import type { StatementFacts } from './analyze.js';

/** How statements are checked, split, quoted and limited in one SQL dialect. */
export interface SqlDialect {
  /** The dialect's name (the engines' `dialect`; libSQL speaks SQLite's): memo keys, and the few statement
   * builders that still branch on it (test/execution/engines.test.ts lists them). */
  readonly name: string;
  splitter: SplitterOptions;
  /** `libpg-query` (PostgreSQL's own grammar; DuckDB's parser derives from it) or a node-sql-parser database. */
  parser: { kind: 'libpg' } | { kind: 'nsp'; database: string };
  quote: (identifier: string) => string;
  /** Row-limit clause appended to a statement (after a newline, so a trailing line comment cannot swallow it). */
  limitClause: (limit: number, offset: number, hasOrderBy: boolean) => string;
  /**
   * The transaction-control keyword a statement starts with beyond the common ones (COMMIT, ROLLBACK,
   * SAVEPOINT, RELEASE, START/SET TRANSACTION), from its first two words and its comment-free text.
   */
  transactionControl: (w1: string, w2: string, body: string) => string | null;
  /** `#` starts a line comment and `/*! … *\/` is executed code (MySQL, MariaDB). */
  mysqlComments?: boolean;
  /** Statements keep their trailing semicolon, and PL/SQL blocks get theirs back (Oracle). */
  plsqlBlocks?: boolean;
  /** Backslashes in string literals are escapes (MySQL). */
  backslashEscapes?: boolean;
  /** Booleans are written 1 and 0 (no boolean literal: T-SQL, Oracle). */
  numericBooleans?: boolean;
  /**
   * Statement facts from the engine's own request reader, for an engine whose statements no SQL parser reads
   * (a document engine's JSON request): whether it only reads, limits or orders its rows.
   */
  analyze?: (statement: string) => StatementFacts;
  /** The statement with a row limit (and offset) applied, for an engine whose limit is not an appended clause. */
  applyLimit?: (statement: string, limit: number, offset: number) => string;
  /** How the table designer writes this dialect's DDL (sql/table-ddl.ts); absent: the engine has no designer. */
  tableDesign?: TableDesignRules;
}

/** The DDL facts of a dialect the table designer needs (issue 30 item 3). */
export interface TableDesignRules {
  /** Type names a column may be declared with (a length or precision may follow). */
  columnTypes: readonly string[];
  /** DDL runs inside BEGIN … COMMIT (PostgreSQL, SQLite); false: each DDL statement commits by itself. */
  transactionalDdl: boolean;
  /**
   * A column's type, nullability or default changes by `parts` (ALTER COLUMN … TYPE / SET NOT NULL / SET
   * DEFAULT), by `modify` (MODIFY COLUMN restating the whole column), or not in place at all: `rebuild`.
   */
  alterColumn: 'parts' | 'modify' | 'rebuild';
  /** Keys change only by rebuilding the table (SQLite): adding a primary key or a foreign key, dropping one. */
  keysNeedRebuild?: boolean;
  /** ADD COLUMN cannot add NOT NULL without a non-null default, nor an expression default (SQLite). */
  addColumnLimited?: boolean;
  /** An index name carries the schema and CREATE INDEX … ON names the bare table (SQLite). */
  indexSchemaOnName?: boolean;
  /** DROP INDEX names the table (`DROP INDEX i ON t`, MySQL) instead of the schema-qualified index. */
  dropIndexOnTable?: boolean;
  /** REFERENCES names a table of the same schema, unqualified (SQLite). */
  bareReferences?: boolean;
  /** How ALTER TABLE drops a foreign key: DROP FOREIGN KEY (MySQL) or DROP CONSTRAINT. */
  dropForeignKey: 'FOREIGN KEY' | 'CONSTRAINT';
  /** Expression defaults other than CURRENT_TIMESTAMP are written in parentheses (MySQL/MariaDB). */
  parenthesizedDefaults?: boolean;
}

/** Identifier quoting styles. */
export const quoteStyles = {
  double: (id: string) => `"${id.replaceAll('"', '""')}"`,
  backtick: (id: string) => `\`${id.replaceAll('`', '``')}\``,
  bracket: (id: string) => `[${id.replaceAll(']', ']]')}]`,
};

/** Limit clauses. */
export const limitClauses = {
  limitOffset: (limit: number, offset: number) =>
    offset > 0 ? `LIMIT ${limit} OFFSET ${offset}` : `LIMIT ${limit}`,
  offsetFetch: (limit: number, offset: number) => `OFFSET ${offset} ROWS FETCH NEXT ${limit} ROWS ONLY`,
};

/** PostgreSQL-style transaction words (PostgreSQL, DuckDB, SQLite): BEGIN, END, ABORT, PREPARE TRANSACTION. */
export function beginEndAbort(w1: string, w2: string): string | null {
  if (w1 === 'BEGIN' || w1 === 'END' || w1 === 'ABORT') return w1;
  if (w1 === 'PREPARE' && w2 === 'TRANSACTION') return 'PREPARE TRANSACTION';
  return null;
}
