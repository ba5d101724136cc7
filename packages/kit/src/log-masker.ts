// Secret masking in CI logs, one masker for the agent and the control plane: each secret value, and the forms
// a script is likely to print (base64, URL encoding, `set -x` and `printf %q` quoting: secret-forms.ts), is
// replaced with `***`. The agent masks every line that leaves its executor (and uses `splitParts` to catch a
// value printed across two lines, ci-agent executor/log.ts); the control plane masks again before storing
// (createMasker), the second line of defence against an older or modified agent.
import { MIN_MASKED_LENGTH, secretForms } from './secret-forms.js';

export const MASK = '***';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Masker {
  private readonly pattern?: RegExp;
  /** Length of the longest form; a cut this far from a match cannot split it. */
  readonly maxFormLength: number;

  /** The plain values (each line of a multi-line value) whose split across two lines is caught. */
  private readonly plain: string[];

  constructor(values: Iterable<string>) {
    const forms = new Set<string>();
    const plain = new Set<string>();
    for (const v of values) {
      for (const f of secretForms(v)) forms.add(f);
      for (const line of v.split(/\r?\n/)) if (line.length >= MIN_MASKED_LENGTH) plain.add(line);
    }
    this.plain = [...plain];
    // Longest first, so a form that contains a shorter one is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.maxFormLength = sorted[0]?.length ?? 0;
    if (sorted.length > 0) this.pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  }

  get active(): boolean {
    return this.pattern !== undefined;
  }

  mask(text: string): string {
    return this.pattern ? text.replace(this.pattern, MASK) : text;
  }

  /** Whether `line` ends with the beginning of a secret value, which the next line might complete. */
  mayContinue(line: string): boolean {
    for (const v of this.plain)
      for (let k = Math.min(v.length - 1, line.length); k >= 1; k--)
        if (line.endsWith(v.slice(0, k))) return true;
    return false;
  }

  /**
   * A secret value printed across two lines: where the first line's part starts and the second line's part
   * ends (the longest split wins), or undefined when `first` + `second` do not join into one.
   */
  splitParts(first: string, second: string): { firstFrom: number; secondTo: number } | undefined {
    let best: { firstFrom: number; secondTo: number; length: number } | undefined;
    for (const v of this.plain) {
      for (let k = 1; k < v.length; k++) {
        if (
          first.endsWith(v.slice(0, k)) &&
          second.startsWith(v.slice(k)) &&
          (!best || v.length > best.length)
        )
          best = { firstFrom: first.length - k, secondTo: v.length - k, length: v.length };
      }
    }
    return best && { firstFrom: best.firstFrom, secondTo: best.secondTo };
  }

  /**
   * Where to cut `text` at or before `limit` so that no secret form spans the cut (used when an over-long
   * line is split into pieces, each masked on its own). Returns `limit` when nothing straddles it.
   */
  safeCut(text: string, limit: number): number {
    if (limit >= text.length || !this.pattern) return Math.min(limit, text.length);
    const window = text.slice(0, limit + this.maxFormLength);
    const re = new RegExp(this.pattern.source, 'g');
    for (let m = re.exec(window); m; m = re.exec(window)) {
      const start = m.index;
      const end = start + m[0].length;
      if (start >= limit) break;
      if (end > limit) return start > 0 ? start : end;
    }
    return limit;
  }
}

export type MaskFn = (text: string) => string;

export const noMask: MaskFn = (text) => text;

/** A function replacing every form of every value with `***` (identity when there is nothing to mask). */
export function createMasker(values: Iterable<string>): MaskFn {
  const masker = new Masker(values);
  return masker.active ? (text) => masker.mask(text) : noMask;
}
