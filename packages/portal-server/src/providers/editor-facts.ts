// What the web editor needs to know of an engine's text, declared once per engine (its descriptor's `editor`)
// and answered by POST /api/db/provider-meta, so the UI holds no engine list of its own: what the text is (SQL
// statements, one JSON request, one command line), the Monaco grammar to colour it with, the sql-formatter
// language of Format, and the words completion offers. The statement splitter the editor uses is the
// dialect's own (`sqlDialect.splitter`), answered beside these, so a text the editor runs as one statement is
// one statement to the server.
import type { SplitterOptions } from 'dbgate-query-splitter';

/** The Monaco grammars the web kit's editor loads (web-kit/src/monaco/setup.ts). */
export type EditorLanguage = 'sql' | 'pgsql' | 'mysql' | 'json' | 'redis';

export interface EditorFacts {
  /** `sql`: statements, a script may hold several; `json`: one JSON request; `command`: one command line. */
  readonly request: 'sql' | 'json' | 'command';
  readonly language: EditorLanguage;
  /**
   * How Format rewrites the text: an sql-formatter language (`postgresql`, `transactsql`, `sql` …), or
   * `json` (pretty-printed JSON); absent: the text is left as written.
   */
  readonly formatter?: string;
  /** The words completion offers besides the connection's objects. */
  readonly keywords: readonly string[];
}

/** The SQL words completion offers on every SQL engine. */
export const SQL_KEYWORDS: readonly string[] = [
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS NULL',
  'IS NOT NULL',
  'LIKE',
  'BETWEEN',
  'JOIN',
  'LEFT JOIN',
  'RIGHT JOIN',
  'INNER JOIN',
  'FULL OUTER JOIN',
  'ON',
  'GROUP BY',
  'HAVING',
  'ORDER BY',
  'ASC',
  'DESC',
  'LIMIT',
  'OFFSET',
  'DISTINCT',
  'AS',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'UNION',
  'UNION ALL',
  'WITH',
  'INSERT INTO',
  'VALUES',
  'UPDATE',
  'SET',
  'DELETE FROM',
  'CREATE TABLE',
  'CREATE INDEX',
  'ALTER TABLE',
  'DROP TABLE',
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'COALESCE',
  'CAST',
  'EXISTS',
];

/** The editor of a SQL engine: its closest Monaco grammar and sql-formatter language. */
export function sqlEditor(language: EditorLanguage = 'sql', formatter = 'sql'): EditorFacts {
  return { request: 'sql', language, formatter, keywords: SQL_KEYWORDS };
}

/**
 * The `editor` of an engine as provider-meta answers it: the facts above, the dialect's splitter options, and
 * its identifier quotes (read off the dialect's own quoting: `"x"`, `` `x` ``, `[x]`), so the UI quotes a name
 * as the server does (the closing quote doubled inside).
 */
export function editorMeta(f: {
  readonly editor: EditorFacts;
  readonly sqlDialect: { readonly splitter: SplitterOptions; quote(identifier: string): string };
}) {
  const quoted = f.sqlDialect.quote('x');
  return {
    ...f.editor,
    keywords: [...f.editor.keywords],
    splitter: { ...f.sqlDialect.splitter },
    quote: { open: quoted[0], close: quoted[quoted.length - 1] },
  };
}
