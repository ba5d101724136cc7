// The strings that give a secret value away in a log line, shared by the CI agent (which masks every line
// it ships) and the CI control plane (which masks again before storing): the value itself; its base64 in
// both alphabets, whole and inside a longer encoded text at each byte alignment; its URL encoding; and the
// shell's quoted spellings of a value with special characters — bash `set -x` writes `'it'\''s'` and
// `printf %q` writes `it\'s\ a` — which would otherwise print a quoted secret in clear.
//
// Values shorter than MIN_MASKED_LENGTH characters are not masked (masking `1` or `on` would shred every
// line while protecting nothing). A multi-line value is masked line by line, as logs are masked per line.

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

/** Characters bash's `printf %q` escapes with a backslash (`~` and `#` only at the start of a word). */
const PRINTF_Q = /[ \t'"$()[\]{},^&*?!;<>|`\\]/g;

/** `value` as bash's `printf %q` spells it (printable text; control characters use `$'…'` and are left). */
export function printfQuoted(value: string): string {
  const escaped = value.replace(PRINTF_Q, '\\$&');
  return /^[~#]/.test(escaped) ? `\\${escaped}` : escaped;
}

/** `value` inside the single quotes of a bash `set -x` trace: each `'` becomes `'\''`. */
export function xtraceQuoted(value: string): string {
  return value.replace(/'/g, "'\\''");
}

/** The strings that give a secret away: the value, its usual encodings and its shell-quoted spellings. */
export function secretForms(value: string): string[] {
  const forms = new Set<string>();
  for (const line of value.split(/\r?\n/)) {
    if (line.length < MIN_MASKED_LENGTH) continue;
    forms.add(line);
    forms.add(xtraceQuoted(line));
    forms.add(printfQuoted(line));
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
