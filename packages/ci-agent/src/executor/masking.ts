// Secret masking: every line that leaves the executor passes through a Masker, which replaces each secret
// value, and the encoded forms a script is likely to print (base64 standard and URL-safe at every byte
// alignment, URL encoding), with `***`.
//
// Values shorter than MIN_MASKED_LENGTH characters are not masked: masking `1` or `on` would shred every
// log line while protecting nothing (such a value is guessable anyway). A multi-line secret is masked line
// by line, because logs are masked one line at a time.

export const MASK = '***';
export const MIN_MASKED_LENGTH = 4;

/** base64 of `value` as it appears inside a longer encoded text, for the given byte offset (0..2). */
function base64AtOffset(value: Buffer, offset: number): string {
  const padded = Buffer.concat([Buffer.alloc(offset), value]);
  const text = padded.toString('base64').replace(/=+$/, '');
  // Characters mixing bits of the unknown prefix (offset 1: two chars, offset 2: three) or of the unknown
  // suffix (the last char when the input does not end on a 3-byte boundary) differ in context; drop them.
  const start = offset === 0 ? 0 : offset === 1 ? 2 : 3;
  const end = padded.length % 3 === 0 ? text.length : text.length - 1;
  return text.slice(start, end);
}

const urlSafe = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_');

/** The strings that give a secret away: the value and its usual encodings. */
export function secretForms(value: string): string[] {
  const forms = new Set<string>();
  for (const line of value.split(/\r?\n/)) {
    if (line.length < MIN_MASKED_LENGTH) continue;
    forms.add(line);
    const bytes = Buffer.from(line, 'utf8');
    const whole = bytes.toString('base64');
    forms.add(whole);
    forms.add(urlSafe(whole));
    for (let offset = 0; offset < 3; offset++) {
      const inner = base64AtOffset(bytes, offset);
      forms.add(inner);
      forms.add(urlSafe(inner));
    }
    const uri = encodeURIComponent(line);
    forms.add(uri);
    forms.add(uri.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
    forms.add(uri.replace(/%20/g, '+')); // application/x-www-form-urlencoded
  }
  return [...forms].filter((f) => f.length >= MIN_MASKED_LENGTH);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class Masker {
  private readonly pattern?: RegExp;
  /** Length of the longest form; a cut this far from a match cannot split it. */
  readonly maxFormLength: number;

  constructor(values: Iterable<string>) {
    const forms = new Set<string>();
    for (const v of values) for (const f of secretForms(v)) forms.add(f);
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
