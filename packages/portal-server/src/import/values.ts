// Values of an import: what type a source field's values look like (shown in the preview beside the target
// column's type), and the parameter a source value is bound as for its target column. Values are always
// bound as parameters, never pasted into statement text; text stays text and the engine converts it to the
// column's type (so a bad value fails with the engine's own reason), except booleans and JSON documents,
// which need a form every driver binds the same way.
import type { ParamValue } from '../providers/types.js';

export type ValueKind = 'empty' | 'integer' | 'number' | 'boolean' | 'date' | 'timestamp' | 'text' | 'json';

const INTEGER = /^[-+]?\d+$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const BOOLEAN_WORDS = new Set(['true', 'false']);

export function kindOf(v: unknown): ValueKind {
  if (v === null || v === undefined) return 'empty';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'json';
  const s = String(v).trim();
  if (s === '') return 'empty';
  if (INTEGER.test(s)) return 'integer';
  if (NUMBER.test(s)) return 'number';
  if (BOOLEAN_WORDS.has(s.toLowerCase())) return 'boolean';
  if (DATE.test(s)) return 'date';
  if (TIMESTAMP.test(s)) return 'timestamp';
  return 'text';
}

/** The kind all of a column's sample values fit: integer and number widen to number, anything mixed to text. */
export function commonKind(values: readonly unknown[]): ValueKind {
  let kind: ValueKind = 'empty';
  for (const v of values) {
    const k = kindOf(v);
    if (k === 'empty' || k === kind) continue;
    if (kind === 'empty') kind = k;
    else if ((kind === 'integer' && k === 'number') || (kind === 'number' && k === 'integer'))
      kind = 'number';
    else if ((kind === 'date' && k === 'timestamp') || (kind === 'timestamp' && k === 'date'))
      kind = 'timestamp';
    else kind = 'text';
  }
  return kind;
}

const BOOL_TRUE = new Set(['true', 't', 'yes', 'y', '1', 'on']);
const BOOL_FALSE = new Set(['false', 'f', 'no', 'n', '0', 'off']);

/** How a target column takes its values. */
export type ColumnTarget = 'boolean' | 'other';

/** Boolean columns: PostgreSQL/SQLite/DuckDB `boolean`, MySQL's `BOOLEAN` (reported as `tinyint(1)`), `bit(1)`. */
export function targetOf(columnType: string): ColumnTarget {
  return /^(bool|boolean|tinyint\(1\)( unsigned)?|bit(\(1\))?)$/i.test(columnType.trim())
    ? 'boolean'
    : 'other';
}

/**
 * The parameter for a source value written into a column of kind `target`: null stays null, a boolean
 * column takes the usual words (true/false, t/f, yes/no, 1/0), objects and arrays become JSON text,
 * numbers and booleans of JSON lines stay as they are, everything else is the text as read.
 */
export function paramOf(v: unknown, target: ColumnTarget): ParamValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (target === 'boolean') {
    if (typeof v === 'boolean') return v;
    const w = String(v).trim().toLowerCase();
    if (BOOL_TRUE.has(w)) return true;
    if (BOOL_FALSE.has(w)) return false;
    return String(v);
  }
  if (typeof v === 'boolean') return v;
  return String(v);
}
