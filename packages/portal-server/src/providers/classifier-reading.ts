// How an engine rewrites its own read forms for the parser (SqlClassifierRules.reading), on the statement's
// lexer tokens rather than its text. A text pattern cannot tell code from a comment or a string: MariaDB's
// `SELECT * FROM a # NATURAL⏎JOIN secret` once became `… # CROSS JOIN secret`, moving the join into the comment
// so the parser never saw `secret` (a table the datasource's object rules could deny). Edits here only match
// code tokens and only replace the span from one token's start to another's end, so what lies between (a
// comment, at most) is never code the parser would lose.
import type { AllowlistToken } from './classifier-rules.js';

/** Characters `from`..`to` of the statement replaced by `with` in the parser's reading. */
export interface ReadingEdit {
  from: number;
  to: number;
  with: string;
}

export const isWord = (t: AllowlistToken | undefined, ...values: string[]): boolean =>
  t?.kind === 'word' && values.includes(t.value);

export const isOp = (t: AllowlistToken | undefined, value: string): boolean =>
  t?.kind === 'op' && t.value === value;

/** Index of the `)` closing the `(` at `open`, or -1 when the statement ends first. */
export function closingParen(tokens: readonly AllowlistToken[], open: number): number {
  let depth = 0;
  for (let k = open; k < tokens.length; k++) {
    if (isOp(tokens[k], '(')) depth++;
    else if (isOp(tokens[k], ')') && --depth === 0) return k;
  }
  return -1;
}

/** Parenthesis depth before each token (a `(` has the depth outside it). */
export function depths(tokens: readonly AllowlistToken[]): number[] {
  let d = 0;
  return tokens.map((t) => {
    if (isOp(t, ')')) d--;
    const at = d;
    if (isOp(t, '(')) d++;
    return at;
  });
}

/** True when tokens[from..to] (inclusive) are only names, numbers, commas and `=`: no call, subquery or string. */
export function plainList(tokens: readonly AllowlistToken[], from: number, to: number): boolean {
  for (let k = from; k <= to; k++) {
    const t = tokens[k];
    if (t.kind === 'word' || t.kind === 'number') continue;
    if (isOp(t, ',') || isOp(t, '=')) continue;
    return false;
  }
  return true;
}

/** The statement with the edits applied (they may come in any order; overlapping ones are a caller's bug). */
export function applyReadingEdits(text: string, edits: readonly ReadingEdit[]): string {
  if (edits.length === 0) return text;
  const sorted = [...edits].sort((a, b) => a.from - b.from);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.from < at) throw new Error('overlapping reading edits');
    out += `${text.slice(at, e.from)}${e.with}`;
    at = e.to;
  }
  return out + text.slice(at);
}
