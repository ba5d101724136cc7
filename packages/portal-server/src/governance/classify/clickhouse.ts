// The columnar engine's own forms, read as the standard SQL they mean before the generic classifier sees them
// (no SQL grammar the classifier has knows them):
// - a trailing `SETTINGS name = value, …` and/or `FORMAT name` clause changes how the answer is computed or
//   written out, never whether the statement reads or writes, so the statement is judged without it;
// - `ALTER TABLE t DELETE WHERE e` and `ALTER TABLE t UPDATE a = x, … WHERE e` are mutations that delete or
//   update rows: they are judged as `DELETE FROM t WHERE e` and `UPDATE t SET a = x, … WHERE e`, so the
//   delete, delete-without-where (an always-true `e`) and update guardrails and object rules apply to them.
// Anything that does not match these shapes exactly (several commands in one ALTER, IN PARTITION, data
// after FORMAT) is left as written, where it stays a doubtful write held by every keyword guardrail.
import type { LexOptions } from './dialects.js';
import { lex, type Token } from './lexer.js';

const isWord = (t: Token | undefined, w?: string) => t?.kind === 'word' && (w === undefined || t.value === w);
const isOp = (t: Token | undefined, op: string) => t?.kind === 'op' && t.value === op;
const isName = (t: Token | undefined) => t?.kind === 'word' || t?.kind === 'qident';

/** Parenthesis depth before each token. */
function depths(tokens: Token[]): number[] {
  const out: number[] = [];
  let d = 0;
  for (const t of tokens) {
    if (isOp(t, ')')) d--;
    out.push(d);
    if (isOp(t, '(')) d++;
  }
  return out;
}

/** `name = value` starting at i; the index after it, or -1. */
function assignment(tokens: Token[], i: number): number {
  if (!isName(tokens[i]) || !isOp(tokens[i + 1], '=')) return -1;
  let k = i + 2;
  if (isOp(tokens[k], '-')) k++;
  const v = tokens[k];
  return v && (v.kind === 'number' || v.kind === 'string' || v.kind === 'word') ? k + 1 : -1;
}

/** Whether tokens[i..] is exactly `[SETTINGS a = v {, a = v}] [FORMAT name]` (at least one of them). */
function isTail(tokens: Token[], i: number): boolean {
  let k = i;
  if (isWord(tokens[k], 'SETTINGS')) {
    k = assignment(tokens, k + 1);
    if (k < 0) return false;
    while (isOp(tokens[k], ',')) {
      k = assignment(tokens, k + 1);
      if (k < 0) return false;
    }
  }
  if (isWord(tokens[k], 'FORMAT')) {
    if (!isName(tokens[k + 1])) return false;
    k += 2;
  }
  return k > i && k === tokens.length;
}

/** The statement without a trailing SETTINGS/FORMAT clause (the text itself when there is none). */
function withoutTail(text: string, lx: Token[]): string {
  const d = depths(lx);
  for (let i = 1; i < lx.length; i++) {
    if (d[i] !== 0 || !(isWord(lx[i], 'SETTINGS') || isWord(lx[i], 'FORMAT'))) continue;
    if (isTail(lx, i)) return text.slice(0, lx[i].start).trimEnd();
  }
  return text;
}

/** `ALTER TABLE t [ON CLUSTER c] DELETE|UPDATE …` as DELETE/UPDATE, or undefined when it is anything else. */
function mutationAsDml(text: string, lx: Token[]): string | undefined {
  if (!isWord(lx[0], 'ALTER') || !isWord(lx[1], 'TABLE') || !isName(lx[2])) return undefined;
  let k = 3;
  while (isOp(lx[k], '.') && isName(lx[k + 1])) k += 2;
  const table = text.slice(lx[2].start, lx[k - 1].end);
  if (
    isWord(lx[k], 'ON') &&
    isWord(lx[k + 1], 'CLUSTER') &&
    (isName(lx[k + 2]) || lx[k + 2]?.kind === 'string')
  )
    k += 3;
  const d = depths(lx);
  const verb = lx[k];
  const where = lx.findIndex((t, i) => i > k && d[i] === 0 && isWord(t, 'WHERE'));
  if (where < 0 || where === lx.length - 1) return undefined;
  // A second command after the condition (`…, DROP COLUMN x`) is not read here.
  if (lx.some((t, i) => i > where && d[i] === 0 && isOp(t, ','))) return undefined;
  const condition = text.slice(lx[where + 1].start);
  if (isWord(verb, 'DELETE') && where === k + 1) return `DELETE FROM ${table} WHERE ${condition}`;
  if (isWord(verb, 'UPDATE') && where > k + 1) {
    const assignments = text.slice(lx[k + 1].start, lx[where - 1].end);
    return `UPDATE ${table} SET ${assignments} WHERE ${condition}`;
  }
  return undefined;
}

/** `EXISTS [TEMPORARY] [TABLE|DICTIONARY|VIEW] name` reads whether the object exists: as DESCRIBE name. */
function existsAsDescribe(text: string, lx: Token[]): string | undefined {
  if (!isWord(lx[0], 'EXISTS')) return undefined;
  let k = 1;
  if (isWord(lx[k], 'TEMPORARY')) k++;
  if (isWord(lx[k], 'TABLE') || isWord(lx[k], 'DICTIONARY') || isWord(lx[k], 'VIEW')) k++;
  if (!isName(lx[k])) return undefined;
  let end = k + 1;
  while (isOp(lx[end], '.') && isName(lx[end + 1])) end += 2;
  if (end !== lx.length) return undefined;
  return `DESCRIBE ${text.slice(lx[k].start, lx[end - 1].end)}`;
}

/** Words that end a LIMIT … BY list or an ARRAY JOIN list at the same depth. */
const CLAUSE_WORDS = new Set([
  'LIMIT',
  'SETTINGS',
  'FORMAT',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'WHERE',
  'PREWHERE',
  'GROUP',
  'ORDER',
  'HAVING',
  'JOIN',
  'LEFT',
  'INNER',
  'ARRAY',
  'WINDOW',
  'QUALIFY',
]);

/** ClickHouse's join strictness words (standard SQL has none; they change which matches are kept). */
const STRICTNESS = new Set(['ANY', 'ALL', 'ASOF', 'SEMI', 'ANTI']);
/** Join kind words that may stand between a strictness word and JOIN. */
const JOIN_KINDS = new Set(['LEFT', 'RIGHT', 'INNER', 'FULL', 'OUTER', 'CROSS', 'GLOBAL', ...STRICTNESS]);

/** Whether the words after lx[k] are join kind words ending in JOIN (`ANY LEFT JOIN`, `GLOBAL ALL JOIN`). */
function joinKind(lx: Token[], k: number): boolean {
  let i = k + 1;
  while (lx[i]?.kind === 'word' && JOIN_KINDS.has(lx[i].value)) i++;
  return isWord(lx[i], 'JOIN');
}

/** Index of the first token after a comma list starting at `from` (at the depth of `from`). */
function listEnd(lx: Token[], d: number[], from: number): number {
  let k = from;
  for (; k < lx.length; k++) {
    if (d[k] < d[from]) break;
    if (d[k] === d[from] && lx[k].kind === 'word' && CLAUSE_WORDS.has(lx[k].value) && k > from) break;
  }
  return k;
}

/**
 * Read-only SELECT clauses of ClickHouse that no SQL grammar the classifier has knows, as standard SQL:
 * `PREWHERE a [WHERE b]` as `WHERE a [AND b]`, `LIMIT n BY …` and `[LEFT] ARRAY JOIN …` dropped (they
 * reshape rows, never reach another table: a list holding a subquery is left as written), `WITH expr AS
 * name` as a CTE, join strictness (`ANY`, `ALL`, `ASOF`, `SEMI`, `ANTI`) and `GLOBAL` dropped (they choose
 * matches and where a subquery runs, never what is reached), and array literals `[…]` as `array(…)` (indexing `x[i]` as arithmetic). The allowlist still
 * reads the statement as written.
 */
function selectClauses(text: string, lx: Token[]): string {
  const d = depths(lx);
  const edits: Array<{ from: number; to: number; with: string }> = [];
  const hasSelectIn = (a: number, b: number) => lx.slice(a, b).some((t) => isWord(t, 'SELECT'));
  for (let k = 0; k < lx.length; k++) {
    const t = lx[k];
    if (isWord(t, 'PREWHERE')) {
      edits.push({ from: t.start, to: t.end, with: 'WHERE (' });
      const where = lx.findIndex((x, i) => i > k && d[i] === d[k] && isWord(x, 'WHERE'));
      const end = listEnd(lx, d, k + 1);
      const close = where > 0 ? where : end;
      const at = close < lx.length ? lx[close].start : text.length;
      edits.push({ from: at, to: where > 0 ? lx[where].end : at, with: where > 0 ? ') AND ' : ') ' });
    } else if (isWord(t, 'LIMIT') && lx[k + 1]?.kind === 'number') {
      let by = k + 2;
      if ((isOp(lx[by], ',') || isWord(lx[by], 'OFFSET')) && lx[by + 1]?.kind === 'number') by += 2;
      if (!isWord(lx[by], 'BY')) continue;
      const end = listEnd(lx, d, by + 1);
      if (hasSelectIn(by, end)) continue;
      edits.push({ from: t.start, to: end < lx.length ? lx[end].start : text.length, with: ' ' });
    } else if (isWord(t, 'ARRAY') && isWord(lx[k + 1], 'JOIN')) {
      const from = isWord(lx[k - 1], 'LEFT') || isWord(lx[k - 1], 'INNER') ? lx[k - 1].start : t.start;
      const end = listEnd(lx, d, k + 2);
      if (hasSelectIn(k, end)) continue;
      edits.push({ from, to: end < lx.length ? lx[end].start : text.length, with: ' ' });
    } else if (isName(t) && isOp(lx[k + 1], '(') && !isOp(lx[k - 1], '.')) {
      // A parametric aggregate `quantile(0.5)(x)`: its parameters are constants; read as `quantile(x)`.
      let c = k + 1;
      while (c < lx.length && !(isOp(lx[c], ')') && d[c] === d[k + 1])) c++;
      if (isOp(lx[c + 1], '(') && !hasSelectIn(k + 1, c))
        edits.push({ from: lx[k + 1].start, to: lx[c].end, with: '' });
    } else if (
      isWord(t, 'GLOBAL') &&
      (isWord(lx[k + 1], 'IN') || isWord(lx[k + 1], 'NOT') || joinKind(lx, k))
    ) {
      // `GLOBAL IN`, `GLOBAL JOIN`: where a distributed subquery is computed, never what it reaches.
      edits.push({ from: t.start, to: lx[k + 1].start, with: '' });
    } else if (t.kind === 'word' && STRICTNESS.has(t.value) && joinKind(lx, k)) {
      // `ANY LEFT JOIN`, `LEFT SEMI JOIN`, `ASOF JOIN`: which matches are kept, never what is reached.
      edits.push({ from: t.start, to: lx[k + 1].start, with: '' });
    } else if (isOp(t, '[')) {
      const prev = lx[k - 1];
      const indexes = prev && (isName(prev) || isOp(prev, ')') || isOp(prev, ']'));
      edits.push({ from: t.start, to: t.end, with: indexes ? ' + (' : 'array(' });
    } else if (isOp(t, ']')) {
      edits.push({ from: t.start, to: t.end, with: ')' });
    }
  }
  // `WITH <expression> AS name[, …] SELECT`: ClickHouse's expression aliases, read as CTEs of one value.
  if (isWord(lx[0], 'WITH') && !(isName(lx[1]) && isWord(lx[2], 'AS') && isOp(lx[3], '('))) {
    const select = lx.findIndex((x, i) => d[i] === 0 && isWord(x, 'SELECT'));
    if (select > 1) {
      const items: string[] = [];
      let start = 1;
      for (let i = 1; i <= select; i++) {
        if (i === select || (d[i] === 0 && isOp(lx[i], ','))) {
          const as = i - 2;
          if (!isWord(lx[as], 'AS') || !isName(lx[i - 1]) || as <= start) return text;
          items.push(
            `${text.slice(lx[i - 1].start, lx[i - 1].end)} AS (SELECT ${text.slice(lx[start].start, lx[as - 1].end)})`,
          );
          start = i + 1;
        }
      }
      edits.push({ from: lx[1].start, to: lx[select].start, with: `${items.join(', ')} ` });
    }
  }
  if (edits.length === 0) return text;
  let out = '';
  let at = 0;
  for (const e of edits.sort((a, b) => a.from - b.from)) {
    if (e.from < at) return text;
    out += text.slice(at, e.from) + e.with;
    at = e.to;
  }
  return out + text.slice(at);
}

/** The text the classifier judges for one columnar-engine statement. */
export function columnarReading(text: string, lexOptions: LexOptions): string {
  const first = lex(text, lexOptions).tokens;
  const trimmed = withoutTail(text, first);
  const tokens = trimmed === text ? first : lex(trimmed, lexOptions).tokens;
  const exists = existsAsDescribe(trimmed, tokens);
  if (exists) return exists;
  const mutation = mutationAsDml(trimmed, tokens);
  if (mutation) return mutation;
  const head = tokens.find((t) => t.kind === 'word')?.value;
  return head === 'SELECT' || head === 'WITH' ? selectClauses(trimmed, tokens) : trimmed;
}
