// What one engine is, in one object: the engine descriptor every providers/<engine>/engine.ts exports and
// the registry lists. It carries the id, capabilities, default port, descriptor validation, whether the
// engine is a file on the server, how the engine itself is made read-only, and the SQL dialect (splitter,
// parser grammar, quoting, limit clause, comment and literal rules, transaction-control words). The provider
// implementation (drivers, WASM) is loaded by `create` on first use, so an engine no datasource uses costs
// no memory. The classifier's rules (grammars, lexical rules, the engine's own statement forms, or the reader
// of a request language) are the descriptor's `classifier` (classifier-rules.ts).
import type { SplitterOptions } from 'dbgate-query-splitter';
import type { ProviderFactory } from './types.js';

/** How statements are checked, split, quoted and limited in one SQL dialect. */
export interface SqlDialect {
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
  analyze?: (statement: string) => import('../sql/analyze.js').StatementFacts;
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

/**
 * How a guarded write is tried in a transaction that is rolled back (issue 27, "guardrails judged by effect";
 * execution/dry-run.ts): what bounds its waits, and how the engine counts the rows an upsert updates.
 */
export interface DryRunRules {
  /** Run right after BEGIN: lock and statement timeouts (transaction-scoped, or session-scoped and `reset`). */
  readonly enter: readonly string[];
  /** Run after the rollback to restore the session settings `enter` changed (a pooled connection). */
  readonly reset?: readonly string[];
  /** Savepoints exist: a dry run inside the caller's own open transaction is rolled back to one. */
  readonly savepoints: boolean;
  /** Affected rows the engine reports per existing row an upsert updates (MySQL: 2). */
  readonly updatedRowWeight: number;
  /** DDL commits implicitly (MySQL): a script holding a non-DML write is never dry-run. */
  readonly implicitCommit: boolean;
  /**
   * A query answering the rows this transaction has inserted, updated and deleted so far per table, with
   * the columns `relid`, `root` (the partitioned table a partition belongs to, else relid), `name`
   * (schema-qualified and quoted), `ins`, `upd`, `del`. Read before and after a guarded statement, it counts
   * the rows triggers and cascades changed in every table (PostgreSQL's pg_stat_xact_all_tables). Engines
   * without it count the statement's own table only (docs/portal-governance.md "Dry runs").
   */
  readonly changedRows?: string;
  /** A query answering `relid` of the table named by parameter 1 (as `changedRows` names it). */
  readonly tableId?: string;
}

/**
 * How an engine refuses writes: a READ ONLY transaction (`SET TRANSACTION READ ONLY` after BEGIN), one begun
 * read-only (`BEGIN TRANSACTION READ ONLY`, DuckDB), a READ ONLY session, `PRAGMA query_only`, or `provider`:
 * the provider's own `readOnlyView()` (per-request settings, a command filter).
 */
export type ReadOnlyMode = 'transaction' | 'begin-read-only' | 'session' | 'pragma' | 'provider';

/**
 * One engine, everything about it: the provider factory's fields (id, capabilities, default port, descriptor
 * validation, statement guard, dialect name, `create`) with the id and dialect as literal types, so the
 * registry can derive `EngineId` and `Dialect` from its list.
 */
export type EngineDescriptor<Id extends string, D extends string> = Omit<
  ProviderFactory,
  'engine' | 'dialect'
> & {
  readonly engine: Id;
  readonly dialect: D;
  readonly fileBased: boolean;
};

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
