// Server-side masking of secret values in log lines, before they are stored or streamed. The agent masks
// every line already; this is the second line of defence (an older or modified agent, a secret printed in
// a form the agent missed). The forms are @app/kit's secretForms, the same the agent masks: the value, its
// base64 and URL encodings, and its `set -x` / `printf %q` quoted spellings.
import { secretForms } from '@app/kit';

export const MASK = '***';
/** The forms of a value that are masked (shared with the agent). */
export const maskForms = secretForms;

export type MaskFn = (text: string) => string;

export const noMask: MaskFn = (text) => text;

/** A function replacing every form of every value with `***` (identity when there is nothing to mask). */
export function createMasker(values: Iterable<string>): MaskFn {
  const forms = new Set<string>();
  for (const v of values) for (const f of maskForms(v)) forms.add(f);
  if (forms.size === 0) return noMask;
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (text) => text.replace(pattern, MASK);
}
