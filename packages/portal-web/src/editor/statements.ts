// Where the statements of a script are (dbgate-query-splitter, the splitter the server also uses, under the
// engine's grammar: strings, quoted identifiers, comments, dollar quotes), and which one the cursor is in —
// so Ctrl/Cmd-Enter runs exactly the statement a person is looking at.
import {
  defaultSplitterOptions,
  mssqlSplitterOptions,
  mysqlSplitterOptions,
  noSplitSplitterOptions,
  oracleSplitterOptions,
  postgreSplitterOptions,
  type SplitterOptions,
  splitQuery,
  sqliteSplitterOptions,
} from 'dbgate-query-splitter';

interface RichItem {
  text: string;
  start: { position: number };
  end: { position: number };
  trimStart?: { position: number };
  trimEnd?: { position: number };
}

export interface StatementSpan {
  text: string;
  /** Offsets into the script (start inclusive, end exclusive), trimmed of surrounding blanks. */
  start: number;
  end: number;
}

/** Engines whose `sql` field is one request (JSON or a command), never a script of several statements.
 * (Elasticsearch and OpenSearch take SQL text, split on semicolons like the other SQL engines.) */
const SINGLE = new Set(['mongodb', 'redis', 'leveldb']);

/**
 * The splitter options of each engine exactly as its server descriptor sets them
 * (portal-server/src/providers/<engine>/engine.ts `sqlDialect.splitter`): a text the editor sees as one
 * statement must be one statement to the server, or the server refuses it as several
 * (test/statements-match-server.test.ts compares the two).
 */
function optionsFor(engine: string): SplitterOptions {
  if (SINGLE.has(engine)) return noSplitSplitterOptions;
  switch (engine) {
    case 'postgres':
    case 'duckdb':
      return postgreSplitterOptions;
    case 'mysql':
      return { ...mysqlSplitterOptions, skipSeparatorBeginEnd: true };
    case 'clickhouse':
      return mysqlSplitterOptions;
    // SQL++ strings take backslash escapes and `…` quotes identifiers, as MySQL text does.
    case 'couchbase':
      return { ...mysqlSplitterOptions, allowCustomDelimiter: false };
    // T-SQL separates batches with GO and statements with semicolons.
    case 'mssql':
      return {
        ...mssqlSplitterOptions,
        allowSemicolon: true,
        keepSemicolonInCommands: false,
        skipSeparatorBeginEnd: true,
      };
    case 'oracle':
      return { ...oracleSplitterOptions, skipSeparatorBeginEnd: true };
    case 'sqlite':
    case 'libsql':
      return { ...sqliteSplitterOptions, skipSeparatorBeginEnd: true };
    case 'cassandra':
      return { ...defaultSplitterOptions, javaScriptComments: true, allowDollarDollarString: true };
    default:
      return defaultSplitterOptions;
  }
}

/** The statements of `script` with their offsets; blank text has none. */
export function splitStatements(script: string, engine: string): StatementSpan[] {
  if (!script.trim()) return [];
  const items = splitQuery(script, { ...optionsFor(engine), returnRichInfo: true }) as unknown as (
    | RichItem
    | string
  )[];
  const out: StatementSpan[] = [];
  for (const item of items) {
    if (typeof item === 'string' || !item.text.trim()) continue;
    const start = (item.trimStart ?? item.start).position;
    const end = (item.trimEnd ?? item.end).position;
    out.push({ text: item.text.trim(), start, end: Math.max(end, start + item.text.trim().length) });
  }
  return out;
}

/**
 * The statement at `offset`: the one containing it, else the nearest one ending before it on the cursor's
 * side (a cursor after the final semicolon still means the statement just written).
 */
export function statementAt(script: string, engine: string, offset: number): StatementSpan | undefined {
  const all = splitStatements(script, engine);
  if (all.length === 0) return undefined;
  const inside = all.find((s) => offset >= s.start && offset <= s.end);
  if (inside) return inside;
  const before = all.filter((s) => s.end <= offset);
  return before.length > 0 ? before[before.length - 1] : all[0];
}
