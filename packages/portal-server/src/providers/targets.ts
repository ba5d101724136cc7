// Validation of maintenance targets shared by the engine modules.

import { quoteQualified } from '../sql/quote.js';
import { configError } from './errors.js';

export function requireTarget(type: string, target: string | undefined): string {
  if (!target || target.trim() === '') throw configError(`Maintenance ${type} requires a target`);
  return target.trim();
}

/** A maintenance target, dotted parts quoted with the engine's `quote` (sql/dialect.ts quoteStyles). */
export function objectTarget(
  quote: (id: string) => string,
  type: string,
  target: string | undefined,
): string {
  const t = requireTarget(type, target);
  try {
    return quoteQualified({ quote }, t);
  } catch (err) {
    throw configError((err as Error).message);
  }
}

export function integerTarget(type: string, target: string | undefined): number {
  const t = requireTarget(type, target);
  if (!/^\d{1,12}$/.test(t)) throw configError(`Maintenance ${type} needs a numeric session id as target`);
  return Number(t);
}

export function unknownOperation(type: string, allowed: ReadonlyArray<{ type: string }>): Error {
  return configError(
    `Unknown maintenance operation ${type}; this engine offers: ${allowed.map((o) => o.type).join(', ') || 'none'}`,
  );
}
