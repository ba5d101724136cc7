// Splits a script into the statements the executor will run. The engines src/sql knows are split exactly
// as the executor splits them (src/sql/split.ts), so each classified text is a text that runs; the other
// engines use dbgate-query-splitter directly. Empty and comment-only pieces are dropped.
import {
  defaultSplitterOptions,
  mssqlSplitterOptions,
  mysqlSplitterOptions,
  postgreSplitterOptions,
  type SplitterOptions,
  splitQuery,
  sqliteSplitterOptions,
} from 'dbgate-query-splitter';
import { splitScript } from '../../sql/split.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './dialects.js';
import { lex } from './lexer.js';

const OPTIONS: Record<string, SplitterOptions> = {
  default: defaultSplitterOptions,
  mysql: mysqlSplitterOptions,
  mssql: mssqlSplitterOptions,
  sqlite: sqliteSplitterOptions,
  postgres: postgreSplitterOptions,
};

export function splitStatements(sql: string, dialect: Dialect): string[] {
  const info = CLASSIFIER_DIALECT_INFO[dialect];
  if ('sql' in info.split) return splitScript(info.split.sql, sql);
  const pieces = splitQuery(sql, OPTIONS[info.split.options]) as Array<string | { text: string }>;
  const out: string[] = [];
  for (const piece of pieces) {
    let text = (typeof piece === 'string' ? piece : piece.text).trim();
    while (text.endsWith(';')) text = text.slice(0, -1).trimEnd();
    const lx = lex(text, info.lex);
    if (lx.tokens.length === 0 && !lx.executableComment && !lx.unterminated) continue;
    out.push(text);
  }
  return out;
}
