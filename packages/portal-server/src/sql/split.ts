// Script splitting under each engine's grammar (dbgate-query-splitter): strings, quoted identifiers,
// dollar quotes, comments, GO batches and routine bodies stay intact. Comment-only pieces are dropped.
import { splitQuery } from 'dbgate-query-splitter';
import type { SqlDialect } from './dialect.js';

/** The statement's text with leading comments and whitespace removed (`#` comments only in MySQL). */
export function stripLeadingComments(sql: string, dialect: Pick<SqlDialect, 'mysqlComments'>): string {
  const mysqlComments = dialect.mysqlComments === true;
  let i = 0;
  const n = sql.length;
  for (;;) {
    while (i < n && /\s/.test(sql[i])) i++;
    if (sql.startsWith('--', i) || (mysqlComments && sql[i] === '#')) {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (sql.startsWith('/*', i)) {
      // MySQL executes `/*! … */` bodies: that is code, not a comment.
      if (mysqlComments && sql[i + 2] === '!') return sql.slice(i);
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else {
      return sql.slice(i);
    }
  }
}

/** Upper-cased leading words of a statement (after comments), e.g. `['START', 'TRANSACTION']`. */
export function leadingWords(sql: string, dialect: Pick<SqlDialect, 'mysqlComments'>, count = 3): string[] {
  const body = stripLeadingComments(sql, dialect);
  const words: string[] = [];
  const re = /[A-Za-z_][A-Za-z0-9_@.]*|\S/g;
  let m: RegExpExecArray | null = re.exec(body);
  while (m && words.length < count) {
    words.push(m[0].toUpperCase());
    m = re.exec(body);
  }
  return words;
}

const PLSQL_BLOCK =
  /^(BEGIN|DECLARE|CREATE(\s+OR\s+REPLACE)?\s+(EDITIONABLE\s+|NONEDITIONABLE\s+)?(PROCEDURE|FUNCTION|PACKAGE|TRIGGER|TYPE\s+BODY))\b/i;

// The executor's split and the classifier's (which splits as the executor does, to classify exactly the
// texts that run) are one split: the last scripts' statements are kept and handed out as copies.
const SPLIT_MEMO_ENTRIES = 16;
const SPLIT_MEMO_MAX_TEXT = 64 * 1024;
const splits = new Map<string, readonly string[]>();

/** How many times a script was really split (memo misses): the proof a request's text is split once. */
export const splitRuns = { count: 0 };

/** Splits a script into statements in order; empty and comment-only pieces are dropped. */
export function splitScript(dialect: SqlDialect, sql: string): string[] {
  const key = `${dialect.name}\u0000${sql}`;
  const known = splits.get(key);
  if (known) return [...known];
  const out = split(dialect, sql);
  if (sql.length <= SPLIT_MEMO_MAX_TEXT) {
    if (splits.size >= SPLIT_MEMO_ENTRIES) splits.delete(splits.keys().next().value as string);
    splits.set(key, Object.freeze([...out]));
  }
  return out;
}

function split(dialect: SqlDialect, sql: string): string[] {
  splitRuns.count++;
  const info = dialect;
  const pieces = splitQuery(sql, info.splitter) as Array<string | { text: string }>;
  const out: string[] = [];
  for (const piece of pieces) {
    let text = (typeof piece === 'string' ? piece : piece.text).trim();
    while (text.endsWith(';') && !info.plsqlBlocks) text = text.slice(0, -1).trimEnd();
    if (stripLeadingComments(text, dialect).trim() === '') continue;
    // A PL/SQL block needs its final semicolon, which the splitter consumed.
    if (info.plsqlBlocks && PLSQL_BLOCK.test(stripLeadingComments(text, dialect)) && !text.endsWith(';')) {
      text += ';';
    }
    out.push(text);
  }
  return out;
}
