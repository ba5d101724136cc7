// T-SQL read forms node-sql-parser's grammar does not know, as the SQL they mean for the parser's reading
// (SqlClassifierRules.reading; the allowlist still judges the statement as written). Each edit keeps every
// expression the statement computes in front of the parser, and only drops what steers a plan:
// - `TRY_CAST(x AS t)`, `TRY_PARSE(x AS t)`, `PARSE(x AS t [USING 'culture'])` read as `CAST(x AS t)`;
// - `x AT TIME ZONE z` reads as `x + z` (both operands stay);
// - a query's `OPTION (MAXDOP 1, RECOMPILE, MAXRECURSION 300)` of names and numbers only is dropped;
// - `TABLESAMPLE [SYSTEM] (n PERCENT|ROWS) [REPEATABLE (n)]` and join hints (`INNER HASH JOIN`) are dropped;
// - `OFFSET n ROWS` without FETCH gets a FETCH the grammar requires.
// Anything else, and any CREATE or ALTER, is left as written: what no parser reads stays unverifiable.
import {
  applyReadingEdits,
  closingParen,
  depths,
  isOp,
  isWord,
  plainList,
  type ReadingEdit,
} from '../classifier-reading.js';
import { type AllowlistToken, orderedAggregateReading } from '../classifier-rules.js';

const AS_CAST = ['TRY_CAST', 'TRY_PARSE', 'PARSE'];
const JOIN_HINTS = ['HASH', 'LOOP', 'MERGE', 'REMOTE'];
const JOIN_KINDS = ['INNER', 'LEFT', 'RIGHT', 'FULL', 'OUTER'];

export function mssqlReading(text: string, tokens: readonly AllowlistToken[]): string {
  // Definitions meet the designed-DDL grammar (designed-ddl.ts), which must see exactly what was written.
  if (isWord(tokens[0], 'CREATE', 'ALTER')) return orderedAggregateReading(text);
  const edits: ReadingEdit[] = [];
  const depth = depths(tokens);
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const next = tokens[k + 1];
    if (isWord(t, ...AS_CAST) && isOp(next, '(') && !isOp(tokens[k - 1], '.')) {
      edits.push({ from: t.start, to: t.end, with: 'CAST' });
      const close = closingParen(tokens, k + 1);
      // PARSE's culture is a string naming a locale: not an expression.
      if (close > 0 && isWord(tokens[close - 2], 'USING') && tokens[close - 1].kind === 'string')
        edits.push({ from: tokens[close - 2].start, to: tokens[close - 1].end, with: '' });
    } else if (isWord(t, 'AT') && isWord(next, 'TIME') && isWord(tokens[k + 2], 'ZONE')) {
      edits.push({ from: t.start, to: tokens[k + 2].end, with: '+' });
      k += 2;
    } else if (isWord(t, 'OPTION') && isOp(next, '(') && depth[k] === 0) {
      const close = closingParen(tokens, k + 1);
      if (close > 0 && plainList(tokens, k + 2, close - 1)) {
        edits.push({ from: t.start, to: tokens[close].end, with: ' ' });
        k = close;
      }
    } else if (isWord(t, 'TABLESAMPLE')) {
      const end = sampleEnd(tokens, k);
      if (end > 0) {
        edits.push({ from: t.start, to: tokens[end].end, with: ' ' });
        k = end;
      }
    } else if (isWord(t, ...JOIN_HINTS) && isWord(next, 'JOIN') && isWord(tokens[k - 1], ...JOIN_KINDS)) {
      edits.push({ from: t.start, to: next.start, with: '' });
    } else if (
      isWord(t, 'OFFSET') &&
      next?.kind === 'number' &&
      isWord(tokens[k + 2], 'ROW', 'ROWS') &&
      !isWord(tokens[k + 3], 'FETCH')
    ) {
      edits.push({ from: tokens[k + 2].end, to: tokens[k + 2].end, with: ' FETCH NEXT 1 ROWS ONLY' });
    }
  }
  return orderedAggregateReading(applyReadingEdits(text, edits));
}

/** The last token of `TABLESAMPLE [SYSTEM] (n [PERCENT|ROWS]) [REPEATABLE (n)]`, or -1 if it is not that. */
function sampleEnd(tokens: readonly AllowlistToken[], k: number): number {
  let open = k + 1;
  if (isWord(tokens[open], 'SYSTEM')) open++;
  if (!isOp(tokens[open], '(') || tokens[open + 1]?.kind !== 'number') return -1;
  let close = open + 2;
  if (isWord(tokens[close], 'PERCENT', 'ROWS')) close++;
  if (!isOp(tokens[close], ')')) return -1;
  if (!isWord(tokens[close + 1], 'REPEATABLE')) return close;
  const seed = close + 2;
  return isOp(tokens[seed], '(') && tokens[seed + 1]?.kind === 'number' && isOp(tokens[seed + 2], ')')
    ? seed + 2
    : -1;
}
