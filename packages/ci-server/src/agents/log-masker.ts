// Server-side masking of secret values in log lines, before they are stored or streamed. The agent masks
// every line already; this is the second line of defence (an older or modified agent, a secret printed in
// a form the agent missed). Same forms as the agent's masker (packages/ci-agent/src/executor/masking.ts):
// the value, its base64 in both alphabets (whole, and inside a longer encoded text at each byte alignment)
// and its URL encoding; values shorter than 4 characters are not masked.

export const MASK = '***';
const MIN = 4;

function base64Inner(value: Buffer, offset: number): string {
  const padded = Buffer.concat([Buffer.alloc(offset), value]);
  const text = padded.toString('base64').replace(/=+$/, '');
  const start = offset === 0 ? 0 : offset === 1 ? 2 : 3;
  const end = padded.length % 3 === 0 ? text.length : text.length - 1;
  return text.slice(start, end);
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

export function maskForms(value: string): string[] {
  const forms = new Set<string>();
  for (const line of value.split(/\r?\n/)) {
    if (line.length < MIN) continue;
    const bytes = Buffer.from(line, 'utf8');
    const b64 = bytes.toString('base64');
    const uri = encodeURIComponent(line);
    for (const f of [line, b64, urlSafe(b64), uri, uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())])
      forms.add(f);
    forms.add(uri.replace(/%20/g, '+'));
    for (let offset = 0; offset < 3; offset++) {
      const inner = base64Inner(bytes, offset);
      forms.add(inner);
      forms.add(urlSafe(inner));
    }
  }
  return [...forms].filter((f) => f.length >= MIN);
}

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
