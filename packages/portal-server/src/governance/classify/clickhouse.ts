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

/** The text the classifier judges for one columnar-engine statement. */
export function columnarReading(text: string, lexOptions: LexOptions): string {
  const first = lex(text, lexOptions).tokens;
  const trimmed = withoutTail(text, first);
  const tokens = trimmed === text ? first : lex(trimmed, lexOptions).tokens;
  return mutationAsDml(trimmed, tokens) ?? trimmed;
}
