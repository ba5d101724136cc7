// Oracle read forms the grammars the classifier borrows (DB2's, then PostgreSQL's: node-sql-parser has no
// Oracle grammar) do not know, as the SQL they mean for the parser's reading (SqlClassifierRules.reading; the
// allowlist still judges the statement as written). Every condition and expression stays in front of the
// parser; only syntax that shapes rows already read is rewritten:
// - a hierarchical query's `START WITH c1 CONNECT BY [NOCYCLE] c2` reads as `WHERE c1 AND c2` (or `AND …` after
//   the query's own WHERE), `PRIOR x` and `CONNECT_BY_ROOT x` as `x`, `ORDER SIBLINGS BY` as `ORDER BY`;
// - `SAMPLE [BLOCK] (n [, n]) [SEED (n)]` is dropped;
// - a q-quoted literal (`q'[it's]'`) reads as the ordinary literal it is;
// - `CAST(x AS VARCHAR2(n))`, `AS NVARCHAR2`, `AS NUMBER(p, s)` read with the standard type names.
// Anything else, and any CREATE or ALTER, is left as written: what no parser reads stays unverifiable.
import { applyReadingEdits, depths, isOp, isWord, type ReadingEdit } from '../classifier-reading.js';
import { type AllowlistToken, orderedAggregateReading } from '../classifier-rules.js';

const STANDARD_TYPES: Record<string, string> = {
  VARCHAR2: 'VARCHAR',
  NVARCHAR2: 'VARCHAR',
  NUMBER: 'NUMERIC',
};

export function oracleReading(text: string, tokens: readonly AllowlistToken[]): string {
  // Definitions meet the designed-DDL grammar (designed-ddl.ts), which must see exactly what was written.
  if (isWord(tokens[0], 'CREATE', 'ALTER')) return orderedAggregateReading(text);
  const edits: ReadingEdit[] = [];
  const depth = depths(tokens);
  const hierarchy = tokens.some((_, k) => hierarchical(tokens, k) > 0);
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const next = tokens[k + 1];
    const clause = hierarchical(tokens, k);
    if (clause > 0) {
      const join = hierarchyJoin(tokens, depth, k);
      if (join) edits.push({ from: t.start, to: tokens[clause].end, with: join });
      k = clause;
    } else if (
      isWord(t, 'PRIOR', 'CONNECT_BY_ROOT') &&
      hierarchy &&
      next &&
      !isOp(next, '(') &&
      !isOp(next, ',')
    ) {
      edits.push({ from: t.start, to: next.start, with: '' });
    } else if (isWord(t, 'SIBLINGS') && isWord(tokens[k - 1], 'ORDER') && isWord(next, 'BY')) {
      edits.push({ from: t.start, to: next.start, with: '' });
    } else if (isWord(t, 'SAMPLE') && k > 0) {
      const end = sampleEnd(tokens, k);
      if (end > 0) {
        edits.push({ from: t.start, to: tokens[end].end, with: ' ' });
        k = end;
      }
    } else if (t.kind === 'string' && /^n?q'/i.test(text.slice(t.start, t.start + 3))) {
      const prefix = /^n/i.test(text[t.start]) ? 'N' : '';
      edits.push({ from: t.start, to: t.end, with: `${prefix}'${t.value.replaceAll("'", "''")}'` });
    } else if (t.kind === 'word' && STANDARD_TYPES[t.value] && isWord(tokens[k - 1], 'AS')) {
      edits.push({ from: t.start, to: t.end, with: STANDARD_TYPES[t.value] });
    }
  }
  return orderedAggregateReading(applyReadingEdits(text, edits));
}

/** The last token of a hierarchical clause's head at `k` (`START WITH`, `CONNECT BY [NOCYCLE]`), or -1. */
function hierarchical(tokens: readonly AllowlistToken[], k: number): number {
  if (isWord(tokens[k], 'START') && isWord(tokens[k + 1], 'WITH')) return k + 1;
  if (!isWord(tokens[k], 'CONNECT') || !isWord(tokens[k + 1], 'BY')) return -1;
  return isWord(tokens[k + 2], 'NOCYCLE') ? k + 2 : k + 1;
}

/**
 * What a hierarchical clause at token `k` becomes: `WHERE` when it is its query's first condition, `AND` when
 * the query has a WHERE, or the other hierarchical clause, before it at the same depth. Outside a query
 * (`CREATE SEQUENCE s START WITH 1`) nothing: it is left as written.
 */
function hierarchyJoin(
  tokens: readonly AllowlistToken[],
  depth: readonly number[],
  k: number,
): string | undefined {
  for (let j = k - 1; j >= 0; j--) {
    if (depth[j] !== depth[k]) continue;
    const t = tokens[j];
    if (isWord(t, 'SELECT')) return ' WHERE ';
    if (isWord(t, 'WHERE') || hierarchical(tokens, j) > 0) return ' AND ';
  }
  return undefined;
}

/** The last token of `SAMPLE [BLOCK] (n [, n]) [SEED (n)]`, or -1 if it is not that. */
function sampleEnd(tokens: readonly AllowlistToken[], k: number): number {
  let open = k + 1;
  if (isWord(tokens[open], 'BLOCK')) open++;
  if (!isOp(tokens[open], '(') || tokens[open + 1]?.kind !== 'number') return -1;
  let close = open + 2;
  if (isOp(tokens[close], ',') && tokens[close + 1]?.kind === 'number') close += 2;
  if (!isOp(tokens[close], ')')) return -1;
  if (!isWord(tokens[close + 1], 'SEED')) return close;
  const seed = close + 2;
  return isOp(tokens[seed], '(') && tokens[seed + 1]?.kind === 'number' && isOp(tokens[seed + 2], ')')
    ? seed + 2
    : -1;
}
