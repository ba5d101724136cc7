// Reads the query string of `GET /api/admin/audit` into an AuditQuery, or names the first malformed value.
// Pure, so the rules are tested table-driven: limit 1..500 (default 100; above 500 is malformed,
// as the spec's maximum says),
// offset ≥ 0 (default 0), result success|failure, from/to ISO-8601 instants with a zone (inclusive, from ≤ to),
// type/actor/connection at most 200 characters; an empty value counts as absent; a repeated one is malformed.
import type { AuditQuery } from './types.js';

export const AUDIT_DEFAULT_LIMIT = 100;
export const AUDIT_MAX_LIMIT = 500;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const INTEGER = /^\d{1,15}$/;

export type ParsedAuditQuery =
  | { ok: true; query: AuditQuery; source?: 'store' | 'buffer' }
  | { ok: false; error: string };

function instant(name: string, v: string): string | { error: string } {
  const ms = Date.parse(v);
  if (!ISO_INSTANT.test(v) || Number.isNaN(ms)) {
    return { error: `${name} must be an ISO-8601 instant such as 2030-01-31T18:00:00Z` };
  }
  return new Date(ms).toISOString();
}

export function parseAuditQuery(raw: Record<string, unknown> | undefined): ParsedAuditQuery {
  const q = raw ?? {};
  const one = (name: string): string | undefined | { error: string } => {
    const v = q[name];
    if (v === undefined) return undefined;
    if (Array.isArray(v)) return { error: `${name} may be given once` };
    const s = String(v).trim();
    return s === '' ? undefined : s;
  };
  const out: AuditQuery = { limit: AUDIT_DEFAULT_LIMIT, offset: 0 };
  for (const name of ['type', 'actor', 'connection'] as const) {
    const v = one(name);
    if (typeof v === 'object') return { ok: false, error: v.error };
    if (v !== undefined && v.length > 200)
      return { ok: false, error: `${name} must be at most 200 characters` };
    if (v !== undefined) out[name] = v;
  }
  const result = one('result');
  if (typeof result === 'object') return { ok: false, error: result.error };
  if (result !== undefined) {
    if (result !== 'success' && result !== 'failure')
      return { ok: false, error: 'result must be success or failure' };
    out.result = result;
  }
  for (const name of ['from', 'to'] as const) {
    const v = one(name);
    if (typeof v === 'object') return { ok: false, error: v.error };
    if (v === undefined) continue;
    const parsed = instant(name, v);
    if (typeof parsed === 'object') return { ok: false, error: parsed.error };
    out[name] = parsed;
  }
  if (out.from && out.to && out.from > out.to) return { ok: false, error: 'from must not be after to' };
  const limit = one('limit');
  if (typeof limit === 'object') return { ok: false, error: limit.error };
  if (limit !== undefined) {
    if (!INTEGER.test(limit) || Number(limit) < 1 || Number(limit) > AUDIT_MAX_LIMIT) {
      return { ok: false, error: `limit must be an integer from 1 to ${AUDIT_MAX_LIMIT}` };
    }
    out.limit = Number(limit);
  }
  const offset = one('offset');
  if (typeof offset === 'object') return { ok: false, error: offset.error };
  if (offset !== undefined) {
    if (!INTEGER.test(offset)) return { ok: false, error: 'offset must be a non-negative integer' };
    out.offset = Number(offset);
  }
  const source = one('source');
  if (typeof source === 'object') return { ok: false, error: source.error };
  if (source !== undefined && source !== 'store' && source !== 'buffer') {
    return { ok: false, error: 'source must be store or buffer' };
  }
  return { ok: true, query: out, source: source as 'store' | 'buffer' | undefined };
}
