// Identifiers for statements the server builds (maintenance targets, generated DDL/INSERT): a dotted name is
// split outside quotes, and each part is quoted in the dialect's own way.
import type { SqlDialect } from './dialect.js';

/** `a.b`, `"a.b".c`, `` `x`.`y` ``, `[s].[t]` → parts without their quotes. */
export function splitQualified(name: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: string | null = null;
  const closer: Record<string, string> = { '"': '"', '`': '`', '[': ']' };
  for (let i = 0; i < name.length; i++) {
    const ch = name[i];
    if (quote) {
      if (ch === closer[quote]) {
        if (name[i + 1] === closer[quote]) {
          cur += ch;
          i++;
        } else quote = null;
      } else cur += ch;
    } else if ((ch === '"' || ch === '`' || ch === '[') && cur.trim() === '') quote = ch;
    else if (ch === '.') {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim());
}

export function quoteIdent(dialect: Pick<SqlDialect, 'quote'>, name: string): string {
  return dialect.quote(name);
}

/** A possibly dotted target quoted part by part; empty parts are refused. */
export function quoteQualified(dialect: Pick<SqlDialect, 'quote'>, target: string): string {
  const parts = splitQualified(target);
  if (parts.length > 3 || parts.some((p) => p === '')) throw new Error(`Invalid object name: ${target}`);
  return parts.map((p) => quoteIdent(dialect, p)).join('.');
}

/** A string literal in standard SQL form (quotes doubled; MySQL also escapes backslashes). */
export function quoteLiteral(dialect: Pick<SqlDialect, 'backslashEscapes'>, value: string): string {
  const body = value.replaceAll("'", "''");
  return `'${dialect.backslashEscapes ? body.replaceAll('\\', '\\\\') : body}'`;
}
