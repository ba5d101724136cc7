// The classifier rules an engine descriptor carries (governance/classify reads them through the registry and
// never names an engine): which parser family and node-sql-parser grammars read the engine's SQL, how the
// text is split, the engine's lexical rules (comments, strings, quoting), the alternative readings whose
// disagreement makes a statement doubtful, and the engine's own statement forms the SQL grammars do not know.
// An engine without SQL names the reader of its own request language instead. The shared rule sets below are
// named after the SQL family they describe, so descriptors of one family share them.

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

/** A dbgate-query-splitter option set of the classifier's own (for engines it splits unlike the executor). */
export type SplitterPreset = 'default' | 'mysql' | 'mssql' | 'sqlite' | 'postgres';

export interface SqlClassifierRules {
  /** `pg`: PostgreSQL's own grammar (libpg-query); `nsp`: node-sql-parser grammars. */
  family: 'pg' | 'nsp';
  /** node-sql-parser `database` options, tried in order (also the fallback grammar of the `pg` family). */
  grammars: string[];
  /** `executor`: split exactly as the executor splits (the engine's sqlDialect), or a preset of our own. */
  split: 'executor' | { options: SplitterPreset };
  lex: LexOptions;
  /** Alternative lexical readings: when one of them sees different keywords or separators, the text is doubtful. */
  alternatives: Partial<LexOptions>[];
  /** MySQL-style `||` (logical OR) in the always-true evaluator. */
  pipesAreOr: boolean;
  /** SQLite/DuckDB PRAGMAs: the reporting ones read. */
  pragmas?: boolean;
  /** DuckDB's FROM-first form (`FROM t` = `SELECT * FROM t`). */
  fromFirst?: boolean;
  /** CQL's trailing ALLOW FILTERING (only relaxes a read's restrictions). */
  allowFiltering?: boolean;
  /** Session statements (USE, SET SESSION) are answered by the provider and never reach the engine (Trino). */
  providerSessionStatements?: boolean;
  /** Columnar forms (trailing SETTINGS/FORMAT, ALTER TABLE … DELETE/UPDATE mutations) read as the SQL they mean. */
  columnarForms?: boolean;
  /**
   * The engine's own read forms no grammar knows, rewritten as the SQL they mean before the parser reads them
   * (MariaDB's NATURAL JOIN, CHECKSUM TABLE), given the statement's lexer tokens so that only code is edited
   * (classifier-reading.ts). The allowlist still judges the statement as written.
   */
  reading?: (text: string, tokens: readonly AllowlistToken[]) => string;
  /**
   * Fail closed by allowlist, judged on the statement's tokens (MySQL/MariaDB, ClickHouse: their grammars
   * read too little of the engine's SQL for a tree walk): what is positively known to read.
   */
  tokenAllowlist?: SqlAllowlist;
  /**
   * Fail closed by allowlist, judged on the parsed tree (PostgreSQL, SQLite, libSQL, DuckDB;
   * providers/<engine>/allowlist.ts). With one, a function or relation outside it is unverifiable: a write of
   * the most dangerous class (guardrail `unverifiable`).
   */
  allowlist?: EngineAllowlist;
  /**
   * The table designer's own DDL forms, read by an exact token grammar where the engine's grammars do not read
   * them (SQL Server, Oracle; governance/classify/designed-ddl.ts): a statement of these forms is a plain DDL
   * write; anything outside them stays unverifiable.
   */
  designedDdl?: DesignedDdlForms;
  /**
   * Name prefixes (lower-case) of the engine's system routines and packages that run SQL text, reach files or
   * other servers (T-SQL `sp_`, `xp_`, OPENROWSET…; Oracle `DBMS_`, `UTL_`): a call of one, or a reference
   * into such a package, is unverifiable in any statement (governance/classify/system-routines.ts).
   */
  systemRoutinePrefixes?: readonly string[];
}

/**
 * The DDL the table designer writes for an engine, as the classifier's exact grammar reads it: CREATE TABLE
 * with column definitions (a listed type, NULL / NOT NULL, a DEFAULT literal or keyword, PRIMARY KEY, UNIQUE,
 * FOREIGN KEY … REFERENCES, CONSTRAINT names), CREATE [UNIQUE] INDEX … ON t (…), and ALTER TABLE's ADD and
 * DROP COLUMN / CONSTRAINT plus the engine's own column-change and rename forms. No call, no expression.
 */
export interface DesignedDdlForms {
  /** Column types a definition may name, as unquoted words (multi-word types as written, any case). */
  columnTypes: readonly string[];
  /** Keywords a DEFAULT may name besides literals (`CURRENT_TIMESTAMP`; never a call). */
  defaultKeywords: readonly string[];
  /** `N'…'` national string literals (adjacent `N` and string). */
  nationalStrings: boolean;
  /** How a column changes: T-SQL `ALTER COLUMN c type [NOT] NULL`, Oracle `MODIFY (c [type] [DEFAULT v] [NULL])`. */
  alterColumn: 'ALTER COLUMN' | 'MODIFY';
  /** `ALTER TABLE t RENAME TO n` and `RENAME COLUMN a TO b` (Oracle; SQL Server renames by sp_rename, unread). */
  renames: boolean;
}

/** A lexer token as the classifier hands it to an engine's allowlist (governance/classify/lexer.ts). */
export interface AllowlistToken {
  kind: 'word' | 'qident' | 'string' | 'number' | 'op' | 'semi' | 'param';
  /** Upper-cased for words; unquoted content for strings and quoted identifiers. */
  value: string;
  start: number;
  end: number;
}

/**
 * What an engine's allowlist finds in one statement (governance/classify/token-allowlist.ts applies it):
 * `unverifiable` something not positively known to read (an unknown or user function, dynamic SQL, a
 * script, a file or network address): a doubtful write of the most dangerous class; `write` a known
 * change of state; `guarded` a write held by `guardrails`; `reach` objects the server cannot place (a
 * catalog naming every object): refused under object rules; `opaque` output a by-name masker cannot trace
 * (whole-row serialisers, statistics, user variables): every field masked under masking rules.
 */
export interface AllowlistFinding {
  effect: 'unverifiable' | 'write' | 'guarded' | 'reach' | 'opaque';
  subject: string;
  reason: string;
  /** Guardrail values (database-portal.md) a `guarded` finding holds the statement by. */
  guardrails?: readonly string[];
}

/**
 * An engine's allowlist (providers/<engine>/allowlist.ts): the functions and table functions known to be
 * reads, the words that may stand before `(` without being a call (syntax, types, table engines), and the
 * engine's own statement rules. A call to anything not listed is `unverifiable`.
 */
export interface SqlAllowlist {
  /** Functions and table functions known to read only (lower-case). */
  readFunctions: ReadonlySet<string>;
  /** Upper-case words before `(` that are syntax, type names or table engines, not calls. */
  syntax: ReadonlySet<string>;
  /**
   * Upper-case type names the engine does not reserve, so a user routine may carry the name (Oracle's
   * `TIMESTAMP`, `NVARCHAR2`): before `(` they are a type only after `AS` (a cast) or a quoted column name;
   * anywhere else the word is judged as a call.
   */
  typeWords?: ReadonlySet<string>;
  /**
   * Where a `syntax` word before `(` (at token `k`) is syntax. Without it, everywhere: right where the engine
   * reserves the words or calls user routines only by a qualified name (T-SQL). Oracle resolves an unqualified
   * call in the user's schema first, and does not reserve `SAMPLE`, `PIVOT` or `ROLLUP`: a function may carry
   * such a name, so there the word is syntax only where the grammar puts it.
   */
  syntaxPlace?: (tokens: readonly AllowlistToken[], k: number) => boolean;
  /** Calls with a known effect other than reading (lower-case name → finding without subject). */
  knownCalls?: ReadonlyMap<string, Omit<AllowlistFinding, 'subject'>>;
  /** Aggregate-function suffixes that keep a function's effect (ClickHouse combinators: -If, -State, …). */
  combinators?: readonly string[];
  /** The engine's own statement rules over the statement's code tokens. */
  statementRules?: (tokens: readonly AllowlistToken[], text: string) => AllowlistFinding[];
}

/**
 * An engine's classifier allowlist (issue 27, "fail closed by allowlist"): the functions (scalar, aggregate,
 * window and table functions) known to read only what their arguments and FROM clause name — no file, no
 * network address, no SQL text, no session or server state. A call to anything else (a user-defined function,
 * an extension, a function taking SQL text or a path) cannot be verified and is classified as such.
 */
export interface EngineAllowlist {
  /** Lower-case function names without schema. */
  functions: ReadonlySet<string>;
  /** Schemas an explicitly qualified built-in lives in (`pg_catalog.lower`); any other qualifier is unknown. */
  functionSchemas: readonly string[];
  /** Relations holding column values or server state object rules and masking cannot see through. */
  unverifiableRelations: ReadonlySet<string>;
  /** Schemas of catalogs that name every object (a datasource with hidden objects refuses reads of them). */
  catalogSchemas: readonly string[];
  /** Unqualified relation-name prefixes that resolve to those catalogs (`pg_`, `sqlite_`, `duckdb_`). */
  catalogPrefixes: readonly string[];
  /**
   * Object addresses (issue 27: a hidden table is hidden in existence too). `builtinTypes`: type names a cast
   * may name without naming an object (any other type may be a table's row type: `NULL::secret`).
   * `addressTypes`: types whose input resolves an object's name (`'secret'::regclass`): a literal is that
   * object, any other value an object the server cannot place. `addressFunctions`: functions resolving or
   * describing an object by name or number (`to_regclass('secret')`, `has_table_privilege('secret', …)`,
   * `format_type(16390, NULL)`): their literal arguments are objects, any other argument unplaceable.
   */
  addresses?: {
    builtinTypes: ReadonlySet<string>;
    addressTypes: Readonly<Record<string, 'relation' | 'schema'>>;
    addressFunctions: ReadonlySet<string>;
  };
  /**
   * Operator symbols known to be built in (or of the extensions an administrator installs: pg_trgm, PostGIS);
   * any other, or one qualified outside `functionSchemas` (`OPERATOR(public.+)`), is a user-defined operator,
   * whose function runs like a call: unverifiable. Without it operators are not judged.
   */
  operators?: ReadonlySet<string>;
}

/** A set of the whitespace-separated words of `text` (the allowlists are published as word lists). */
export function wordSet(...texts: string[]): ReadonlySet<string> {
  return new Set(texts.flatMap((t) => t.split(/\s+/)).filter(Boolean));
}

/**
 * The reader of an engine's own request language, for engines without SQL (or whose SQL only the engine's
 * own statement reader reads): `command-flags` a key-value command judged by the client library's command
 * table, `ordered-keys` the small command grammar of an ordered key store, `document-request` a JSON
 * document request, `sqlpp` SQL++ statements.
 */
export type RequestReader = 'command-flags' | 'ordered-keys' | 'document-request' | 'sqlpp';

/** What the classifier knows of an engine; an engine whose descriptor names none is classified as a doubtful write. */
export interface ClassifierRules {
  /** The SQL rules (lexing, splitting, grammars); absent for an engine without SQL. */
  sql?: SqlClassifierRules;
  /** Judges the whole text instead of the SQL grammars. */
  reader?: RequestReader;
  /** Other engine names read with these rules (a MariaDB server speaks MySQL). */
  aliases?: readonly string[];
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

/** Lexical rule sets shared by engines of one SQL family. */
export const lexicalRules = {
  /** Nothing beyond ANSI: '…' strings, "…" identifiers, -- and block comments. */
  ansi: BASE,
  /** ANSI plus `x` identifiers (Athena DDL, the search engines). */
  backtick: { ...BASE, backtickIdentifiers: true },
  pg: { ...BASE, nestedComments: true, dollarQuotes: true, eStrings: true },
  mysql: {
    ...BASE,
    hashComments: true,
    dashNeedsSpace: true,
    executableComments: true,
    backslashEscapes: true,
    doubleQuoteStrings: true,
    backtickIdentifiers: true,
  },
  sqlite: { ...BASE, bracketIdentifiers: true, backtickIdentifiers: true, bracketsAsQuotes: true },
} satisfies Record<string, LexOptions>;

// A server setting (standard_conforming_strings, NO_BACKSLASH_ESCAPES, ANSI_QUOTES) or a differently minded
// tool can read the same text another way; a statement must mean the same thing under each reading.
/** Alternative readings shared by engines of one SQL family. */
export const alternativeReadings = {
  /** Backslashes might escape after all. */
  escapes: [{ backslashEscapes: true }],
  pg: [{ nestedComments: false }, { backslashEscapes: true }],
  // (`#` comments need no alternative: a `;` plus a write keyword inside any comment is doubtful on its own.)
  mysql: [{ backslashEscapes: false }, { dashNeedsSpace: false }, { doubleQuoteStrings: false }],
} satisfies Record<string, Partial<LexOptions>[]>;

/**
 * Ordered-set aggregate clauses the SQL Server and Oracle grammars do not read, taken out of the parser's
 * reading (`STRING_AGG(a, ',') WITHIN GROUP (ORDER BY a)`, Oracle `LISTAGG … WITHIN GROUP (ORDER BY …)` and
 * `MAX(x) KEEP (DENSE_RANK FIRST ORDER BY …)`): they only order the rows an aggregate already reads. Only a
 * plain ordering on one line is taken out (names, dots, commas, ASC/DESC/NULLS): no parenthesis, subquery,
 * quote or comment marker can stand in it, so nothing the parser must see is removed. The allowlist still
 * judges the statement as written.
 */
export function orderedAggregateReading(text: string): string {
  return text.replace(
    /\b(?:WITHIN[ \t]+GROUP[ \t]*\(|KEEP[ \t]*\([ \t]*DENSE_RANK[ \t]+(?:FIRST|LAST))[ \t]*ORDER[ \t]+BY[ \t]+[\w \t.,]*\)/gi,
    ' ',
  );
}

/** The rules of the PostgreSQL family (PostgreSQL; DuckDB adds its own forms). */
export const pgFamilyRules: SqlClassifierRules = {
  family: 'pg',
  grammars: [],
  split: 'executor',
  lex: lexicalRules.pg,
  alternatives: alternativeReadings.pg,
  pipesAreOr: false,
};

/** The rules of the SQLite family (SQLite and libSQL). */
export const sqliteFamilyRules: SqlClassifierRules = {
  family: 'nsp',
  // The SQLite grammar of node-sql-parser lacks named windows (`WINDOW w AS (…)`); PostgreSQL's reads them
  // the same way, and is only tried when SQLite's fails (the lexical and keyword checks still apply).
  grammars: ['sqlite', 'postgresql'],
  split: 'executor',
  lex: lexicalRules.sqlite,
  alternatives: alternativeReadings.escapes,
  pipesAreOr: false,
  pragmas: true,
};

/** The rules of the search engines' SQL (Elasticsearch and OpenSearch). */
export const searchSqlRules: SqlClassifierRules = {
  family: 'nsp',
  grammars: ['mysql', 'postgresql'],
  split: { options: 'default' },
  lex: lexicalRules.backtick,
  alternatives: alternativeReadings.escapes,
  pipesAreOr: false,
};
