// The engines the classifier reads, and per engine: the parser family (PostgreSQL's own grammar through
// libpg-query, or node-sql-parser grammars tried in order), the lexical rules of the engine (comments,
// strings, quoting) and the alternative lexical readings whose disagreement makes a statement doubtful.
import type { Dialect as SqlDialect } from '../../sql/dialects.js';

export const CLASSIFIER_DIALECTS = [
  'postgres',
  'mysql',
  'sqlite',
  'libsql',
  'duckdb',
  'mssql',
  'oracle',
  'clickhouse',
  'trino',
  'athena',
  'cassandra',
  'druid',
  'elasticsearch',
  'opensearch',
  'couchbase',
] as const;
export type Dialect = (typeof CLASSIFIER_DIALECTS)[number];

export function isClassifierDialect(value: string): value is Dialect {
  return (CLASSIFIER_DIALECTS as readonly string[]).includes(value);
}

export interface LexOptions {
  /** `#` starts a line comment (MySQL, ClickHouse). */
  hashComments: boolean;
  /** `--` starts a comment only when followed by whitespace or a control character (MySQL). */
  dashNeedsSpace: boolean;
  /** Block comments nest (PostgreSQL, T-SQL). */
  nestedComments: boolean;
  /** MySQL and MariaDB executable comments (slash-star-bang) are code, not comments. */
  executableComments: boolean;
  /** Backslash escapes inside '…' (MySQL default; PostgreSQL with standard_conforming_strings off). */
  backslashEscapes: boolean;
  /** "…" is a string literal rather than a quoted identifier (MySQL without ANSI_QUOTES, N1QL). */
  doubleQuoteStrings: boolean;
  /** [x] is a quoted identifier (T-SQL, SQLite). */
  bracketIdentifiers: boolean;
  /** `x` is a quoted identifier (MySQL, SQLite, ClickHouse, Athena DDL, the search engines, N1QL). */
  backtickIdentifiers: boolean;
  /** $tag$ … $tag$ strings (PostgreSQL, DuckDB; `$$` only in CQL). */
  dollarQuotes: boolean;
  /** E'…' strings always take backslash escapes (PostgreSQL). */
  eStrings: boolean;
  /** q'[…]' alternative quoting (Oracle). */
  qQuotes: boolean;
  /** `//` line comments (CQL). */
  slashSlashComments: boolean;
  /** Hand [x] to the parser as "x" (SQLite: node-sql-parser's grammar has no bracket quoting). */
  bracketsAsQuotes?: boolean;
}

export interface ClassifierDialectInfo {
  family: 'pg' | 'nsp';
  /** node-sql-parser `database` options, tried in order (also the fallback grammar for DuckDB). */
  grammars: string[];
  /** Splitting under src/sql (the same split the executor uses), or a dbgate option set of our own. */
  split: { sql: SqlDialect } | { options: 'default' | 'mysql' | 'mssql' | 'sqlite' | 'postgres' };
  lex: LexOptions;
  /** Alternative lexical readings: when one of them sees different keywords or separators, the text is doubtful. */
  alternatives: Partial<LexOptions>[];
  /** MySQL-style `||` (logical OR) in the always-true evaluator. */
  pipesAreOr: boolean;
}

const BASE: LexOptions = {
  hashComments: false,
  dashNeedsSpace: false,
  nestedComments: false,
  executableComments: false,
  backslashEscapes: false,
  doubleQuoteStrings: false,
  bracketIdentifiers: false,
  backtickIdentifiers: false,
  dollarQuotes: false,
  eStrings: false,
  qQuotes: false,
  slashSlashComments: false,
};

const PG_LEX: LexOptions = { ...BASE, nestedComments: true, dollarQuotes: true, eStrings: true };
const MYSQL_LEX: LexOptions = {
  ...BASE,
  hashComments: true,
  dashNeedsSpace: true,
  executableComments: true,
  backslashEscapes: true,
  doubleQuoteStrings: true,
  backtickIdentifiers: true,
};
const SQLITE_LEX: LexOptions = {
  ...BASE,
  bracketIdentifiers: true,
  backtickIdentifiers: true,
  bracketsAsQuotes: true,
};
const TICK_LEX: LexOptions = { ...BASE, backtickIdentifiers: true };
const ANSI_LEX: LexOptions = { ...BASE };

// A server setting (standard_conforming_strings, NO_BACKSLASH_ESCAPES, ANSI_QUOTES) or a differently minded
// tool can read the same text another way; a statement must mean the same thing under each reading.
const PG_ALTS: Partial<LexOptions>[] = [{ nestedComments: false }, { backslashEscapes: true }];
// (`#` comments need no alternative: a `;` plus a write keyword inside any comment is doubtful on its own.)
const MYSQL_ALTS: Partial<LexOptions>[] = [
  { backslashEscapes: false },
  { dashNeedsSpace: false },
  { doubleQuoteStrings: false },
];
const ESCAPE_ALTS: Partial<LexOptions>[] = [{ backslashEscapes: true }];

export const CLASSIFIER_DIALECT_INFO: Record<Dialect, ClassifierDialectInfo> = {
  postgres: {
    family: 'pg',
    grammars: [],
    split: { sql: 'postgres' },
    lex: PG_LEX,
    alternatives: PG_ALTS,
    pipesAreOr: false,
  },
  // DuckDB's parser derives from PostgreSQL's; its own forms (FROM-first, DESCRIBE, PRAGMA) have fallbacks.
  duckdb: {
    family: 'pg',
    grammars: [],
    split: { sql: 'duckdb' },
    lex: PG_LEX,
    alternatives: PG_ALTS,
    pipesAreOr: false,
  },
  mysql: {
    family: 'nsp',
    grammars: ['mariadb', 'mysql'],
    split: { sql: 'mysql' },
    lex: MYSQL_LEX,
    alternatives: MYSQL_ALTS,
    pipesAreOr: true,
  },
  sqlite: {
    family: 'nsp',
    grammars: ['sqlite'],
    split: { sql: 'sqlite' },
    lex: SQLITE_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  libsql: {
    family: 'nsp',
    grammars: ['sqlite'],
    split: { sql: 'sqlite' },
    lex: SQLITE_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  mssql: {
    family: 'nsp',
    grammars: ['transactsql'],
    split: { sql: 'mssql' },
    lex: { ...BASE, bracketIdentifiers: true, nestedComments: true },
    alternatives: [{ nestedComments: false }, { backslashEscapes: true }],
    pipesAreOr: false,
  },
  // node-sql-parser has no Oracle grammar: DB2's is closest, PostgreSQL's reads the ANSI remainder.
  oracle: {
    family: 'nsp',
    grammars: ['db2', 'postgresql'],
    split: { sql: 'oracle' },
    lex: { ...BASE, qQuotes: true },
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  clickhouse: {
    family: 'nsp',
    grammars: ['mysql', 'postgresql'],
    split: { options: 'mysql' },
    lex: { ...TICK_LEX, hashComments: true, backslashEscapes: true },
    alternatives: [{ backslashEscapes: false }],
    pipesAreOr: false,
  },
  trino: {
    family: 'nsp',
    grammars: ['trino', 'postgresql'],
    split: { options: 'default' },
    lex: ANSI_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  athena: {
    family: 'nsp',
    grammars: ['athena', 'trino'],
    split: { options: 'default' },
    lex: TICK_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  cassandra: {
    family: 'nsp',
    grammars: ['mysql', 'postgresql'],
    split: { sql: 'cassandra' },
    lex: { ...BASE, slashSlashComments: true, dollarQuotes: true },
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  druid: {
    family: 'nsp',
    grammars: ['postgresql', 'mysql'],
    split: { options: 'default' },
    lex: ANSI_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  elasticsearch: {
    family: 'nsp',
    grammars: ['mysql', 'postgresql'],
    split: { options: 'default' },
    lex: TICK_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  opensearch: {
    family: 'nsp',
    grammars: ['mysql', 'postgresql'],
    split: { options: 'default' },
    lex: TICK_LEX,
    alternatives: ESCAPE_ALTS,
    pipesAreOr: false,
  },
  couchbase: {
    family: 'nsp',
    grammars: ['mysql'],
    split: { options: 'default' },
    lex: { ...TICK_LEX, doubleQuoteStrings: true, backslashEscapes: true },
    alternatives: [{ backslashEscapes: false }],
    pipesAreOr: false,
  },
};
