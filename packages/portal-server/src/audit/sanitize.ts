// Makes an audit event safe to print and keep: credential-named fields are replaced by "[redacted]" at any
// depth, long strings are cut, and deep or wide structures are bounded, so no event can carry a secret or
// grow without limit. Pure.

const SECRET_KEY =
  /(password|passwd|secret|token|apikey|authorization|cookie|connectionstring|privatekey|credentials?)$/;
const MAX_STRING = 8192;
const MAX_ARRAY = 100;
const MAX_KEYS = 100;
const MAX_DEPTH = 6;

export const REDACTED = '[redacted]';

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[_-]/g, ''));
}

function clip(s: string): string {
  return s.length > MAX_STRING ? `${s.slice(0, MAX_STRING)}…[${s.length - MAX_STRING} more characters]` : s;
}

export function sanitizeValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clip(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const out = value.slice(0, MAX_ARRAY).map((v) => sanitizeValue(v, depth + 1));
    if (value.length > MAX_ARRAY) out.push(`[${value.length - MAX_ARRAY} more entries]`);
    return out;
  }
  if (value instanceof Error) return clip(value.message);
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (n++ >= MAX_KEYS) break;
    if (isSecretKey(k)) {
      if (v !== undefined && v !== null) out[k] = REDACTED;
      continue;
    }
    const clean = sanitizeValue(v, depth + 1);
    if (clean !== undefined) out[k] = clean;
  }
  return out;
}
