// SQL dialects the sql helpers understand, and per dialect: the script splitter options, the parser used to
// decide auto-limit and read-only-ness, identifier quoting and the row-limit clause.
import {
  mssqlSplitterOptions,
  mysqlSplitterOptions,
  oracleSplitterOptions,
  postgreSplitterOptions,
  type SplitterOptions,
  sqliteSplitterOptions,
} from 'dbgate-query-splitter';

export type Dialect = 'postgres' | 'mysql' | 'sqlite' | 'duckdb' | 'mssql' | 'oracle';

export interface DialectInfo {
  splitter: SplitterOptions;
  /** `libpg-query` (PostgreSQL's own grammar; DuckDB's parser derives from it) or a node-sql-parser database. */
  parser: { kind: 'libpg' } | { kind: 'nsp'; database: string };
  quote: (identifier: string) => string;
  /** Row-limit clause appended to a statement (after a newline, so a trailing line comment cannot swallow it). */
  limitClause: (limit: number, offset: number, hasOrderBy: boolean) => string;
}

const dq = (id: string) => `"${id.replaceAll('"', '""')}"`;
const bq = (id: string) => `\`${id.replaceAll('`', '``')}\``;
const br = (id: string) => `[${id.replaceAll(']', ']]')}]`;

const limitOffset = (limit: number, offset: number) =>
  offset > 0 ? `LIMIT ${limit} OFFSET ${offset}` : `LIMIT ${limit}`;
const offsetFetch = (limit: number, offset: number) => `OFFSET ${offset} ROWS FETCH NEXT ${limit} ROWS ONLY`;

export const DIALECTS: Record<Dialect, DialectInfo> = {
  postgres: {
    splitter: postgreSplitterOptions,
    parser: { kind: 'libpg' },
    quote: dq,
    limitClause: limitOffset,
  },
  duckdb: {
    splitter: postgreSplitterOptions,
    parser: { kind: 'libpg' },
    quote: dq,
    limitClause: limitOffset,
  },
  mysql: {
    // Routine bodies (BEGIN … END) stay one statement even without a DELIMITER line.
    splitter: { ...mysqlSplitterOptions, skipSeparatorBeginEnd: true },
    parser: { kind: 'nsp', database: 'mariadb' },
    quote: bq,
    limitClause: limitOffset,
  },
  sqlite: {
    splitter: { ...sqliteSplitterOptions, skipSeparatorBeginEnd: true },
    parser: { kind: 'nsp', database: 'sqlite' },
    quote: dq,
    limitClause: limitOffset,
  },
  mssql: {
    // T-SQL scripts separate batches with GO and statements with semicolons.
    splitter: {
      ...mssqlSplitterOptions,
      allowSemicolon: true,
      keepSemicolonInCommands: false,
      skipSeparatorBeginEnd: true,
    },
    parser: { kind: 'nsp', database: 'transactsql' },
    quote: br,
    // OFFSET/FETCH needs an ORDER BY in T-SQL; ORDER BY (SELECT NULL) keeps the engine's own order.
    limitClause: (limit, offset, hasOrderBy) =>
      `${hasOrderBy ? '' : 'ORDER BY (SELECT NULL) '}${offsetFetch(limit, offset)}`,
  },
  oracle: {
    splitter: { ...oracleSplitterOptions, skipSeparatorBeginEnd: true },
    // node-sql-parser has no Oracle grammar; DB2's is the closest (FETCH FIRST, no LIMIT). A failed parse
    // means no limit is injected and the driver-level cap still bounds the rows.
    parser: { kind: 'nsp', database: 'db2' },
    quote: dq,
    limitClause: (limit, offset) => offsetFetch(limit, offset),
  },
};
