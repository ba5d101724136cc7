// SQL dialects the sql helpers understand. Each engine's dialect (splitter options, parser grammar, quoting,
// limit clause, comment and literal rules, transaction-control words) lives in its engine descriptor
// (providers/<engine>/engine.ts); this module names them for the helpers.
import { type Dialect, sqlDialect } from '../providers/registry.js';

export type { SqlDialect as DialectInfo } from '../providers/engine.js';
export type { Dialect };

/** The rules of `dialect` (from its engine descriptor). */
export function dialectInfo(dialect: Dialect) {
  return sqlDialect(dialect);
}
