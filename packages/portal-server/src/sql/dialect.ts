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

/** The DDL facts of a dialect the table designer needs (issue 30 item 3); each engine's folder holds its own. */
export interface TableDesignRules {
  /** Type names a column may be declared with (a length or precision may follow). */
  columnTypes: readonly string[];
  /** DDL runs inside BEGIN … COMMIT (PostgreSQL, SQLite, DuckDB, SQL Server); false: each DDL statement commits by itself. */
  transactionalDdl: boolean;
  /**
   * How a column's type, nullability or default changes: the statements for one alterColumn (the builder
   * hands the parts written already: quoted table and column, the checked type, the default's SQL). Absent:
   * the engine cannot change a column in place (SQLite: `rebuild` below, if present, does it).
   */
  alterColumn?: (c: ColumnChange) => string[];
  /** Changes the engine refuses, with the reason (the text of the 400). */
  refuse?: Partial<Record<AlterOp, string>>;
  /** ADD COLUMN is written `ADD` (SQL Server, Oracle) instead of `ADD COLUMN`. */
  addColumnWord?: string;
  /** ADD COLUMN cannot add NOT NULL without a non-null default, nor an expression default (SQLite). */
  addColumnLimited?: boolean;
  /** ADD COLUMN takes no NOT NULL (DuckDB): the column is added, then SET NOT NULL in a second statement. */
  addColumnNotNullApart?: boolean;
  /** An index name carries the schema and CREATE INDEX … ON names the bare table (SQLite). */
  indexSchemaOnName?: boolean;
  /** The index name carries the schema and the table is qualified too (Oracle: an index is a schema object). */
  indexQualified?: boolean;
  /** DROP INDEX names the table (`DROP INDEX i ON t`, MySQL, SQL Server) instead of the schema-qualified index. */
  dropIndexOnTable?: boolean;
  /** REFERENCES names a table of the same schema, unqualified (SQLite). */
  bareReferences?: boolean;
  /** How ALTER TABLE drops a foreign key: DROP FOREIGN KEY (MySQL) or DROP CONSTRAINT. */
  dropForeignKey: 'FOREIGN KEY' | 'CONSTRAINT';
  /** Expression defaults other than CURRENT_TIMESTAMP are written in parentheses (MySQL/MariaDB). */
  parenthesizedDefaults?: boolean;
  /** How a default expression is written where it differs (`null`: the engine has none; refused). */
  defaultExpressions?: Partial<Record<string, string | null>>;
  /** DEFAULT comes before NOT NULL in a column definition (Oracle requires it). */
  defaultFirst?: boolean;
  /** String literals are national (`N'…'`, SQL Server: nvarchar keeps every character). */
  nationalStrings?: boolean;
  /** Referential actions the engine takes (others are refused); absent: all of FK_ACTIONS. */
  fkActions?: { onDelete: readonly string[]; onUpdate: readonly string[] };
  /** Renames written other than `ALTER TABLE … RENAME …` (SQL Server's sp_rename). */
  renameTable?: (r: { table: string; path: readonly string[]; to: string }) => string;
  renameColumn?: (r: { table: string; path: readonly string[]; from: string; to: string }) => string;
  /** The engine rebuilds a table for the changes ALTER TABLE cannot make (SQLite's 12-step procedure). */
  rebuild?: TableRebuild;
}

/** The alter ops of the designer (sql/table-ddl.ts `AlterChange`). */
export type AlterOp =
  | 'renameTable'
  | 'addColumn'
  | 'dropColumn'
  | 'renameColumn'
  | 'alterColumn'
  | 'addPrimaryKey'
  | 'addIndex'
  | 'dropIndex'
  | 'addForeignKey'
  | 'dropForeignKey';

/** One alterColumn as the engine's rule writes it; every part is checked and quoted already. */
export interface ColumnChange {
  /** The quoted table. */
  table: string;
  /** The quoted column. */
  column: string;
  changed: ReadonlyArray<'type' | 'nullable' | 'default'>;
  /** The canonical type. */
  type: string;
  nullable: boolean;
  /** The default's SQL, or undefined for none. */
  default?: string;
  /** The whole column definition (`"c" type NOT NULL DEFAULT …`), for engines that restate it. */
  definition: string;
}

/** What a change script is: its statements, and how the route runs them. */
export interface DdlScript {
  statements: string[];
  /** The script opens and ends its own transaction at these statement indexes (the route adds none). */
  ownTransaction?: { begin: number; commit: number };
  /** Statements that check: any row in their answer fails the script, which is rolled back. */
  checks?: number[];
}

/** Reads rows of the engine's catalog (the route hands the provider's query). */
export type RowReader = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** A table rebuild: reads the table as it stands, says whether changes need it, and writes the script. */
export interface TableRebuild {
  read(rows: RowReader, path: readonly string[]): Promise<unknown>;
  /** The reason the changes need a rebuild, or undefined when ALTER TABLE makes them in place. */
  needed(changes: ReadonlyArray<{ op: string }>, table: unknown): string | undefined;
  script(
    dialect: SqlDialect,
    path: readonly string[],
    table: unknown,
    changes: readonly unknown[],
  ): DdlScript;
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
