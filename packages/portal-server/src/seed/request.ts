// Checks the bodies of the seed-data routes (JSON types checked, never coerced) and answers a clear 400
// naming the field. Pure.
import { HttpError } from '@app/kit';
import type { SeedRequest } from './types.js';

export const MAX_COUNT = 1_000_000;
export const MAX_RATIO = 1000;
const NAME_MAX = 200;

const bad = (message: string) => new HttpError(400, message, 'BAD_REQUEST');

function body(v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('The body must be a JSON object');
  return v as Record<string, unknown>;
}

function name(v: unknown, field: string, required: boolean): string | undefined {
  if (v === undefined || (v === null && !required)) {
    if (required) throw bad(`${field} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || v.trim() === '' || v.length > NAME_MAX) {
    throw bad(`${field} must be a non-empty string of at most ${NAME_MAX} characters`);
  }
  return v.trim();
}

function numbers(
  v: unknown,
  field: string,
  check: (n: number) => boolean,
  what: string,
): Record<string, number> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    throw bad(`${field} must be an object of table name to number`);
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
    if (typeof n !== 'number' || !Number.isFinite(n) || !check(n)) throw bad(`${field}.${k} must be ${what}`);
    out[k] = n;
  }
  return out;
}

export function parsePlanBody(
  v: unknown,
): Pick<SeedRequest, 'datasourceId' | 'schema' | 'counts' | 'ratios'> {
  const b = body(v);
  return {
    datasourceId: name(b.datasourceId, 'datasourceId', true) as string,
    schema: name(b.schema, 'schema', false),
    counts: numbers(
      b.counts,
      'counts',
      (n) => Number.isInteger(n) && n >= 0 && n <= MAX_COUNT,
      `an integer from 0 to ${MAX_COUNT}`,
    ),
    ratios: numbers(b.ratios, 'ratios', (n) => n >= 0 && n <= MAX_RATIO, `a number from 0 to ${MAX_RATIO}`),
  };
}

export function parseRunBody(v: unknown): SeedRequest {
  const b = body(v);
  const base = parsePlanBody(b);
  let mode: SeedRequest['mode'] = 'generate';
  if (b.mode !== undefined && b.mode !== null) {
    if (b.mode !== 'generate' && b.mode !== 'copy') throw bad('mode must be "generate" or "copy"');
    mode = b.mode;
  }
  if (b.truncate !== undefined && b.truncate !== null && typeof b.truncate !== 'boolean') {
    throw bad('truncate must be a boolean');
  }
  const sourceDatasourceId = name(b.sourceDatasourceId, 'sourceDatasourceId', false);
  if (mode === 'copy' && !sourceDatasourceId) {
    throw bad('Copy mode needs sourceDatasourceId: another datasource of the same engine to copy from');
  }
  if (mode === 'copy' && sourceDatasourceId === base.datasourceId) {
    throw bad('Copy mode needs a source other than the datasource being seeded');
  }
  return {
    ...base,
    mode,
    ...(mode === 'copy' ? { sourceDatasourceId } : {}),
    truncate: b.truncate === true,
  };
}
