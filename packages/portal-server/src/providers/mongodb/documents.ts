// Documents as the spec's query result: BSON values made JSON-safe without losing anything (ObjectId as its
// hex text, dates as ISO text, 64-bit integers as numbers when exact and strings otherwise, Decimal128 as
// its decimal text, binary as 0x-hex like every engine, UUIDs as their text), nested documents and arrays kept
// as JSON, and `fields` as the union of top-level keys in the order they first appear (`_id` first). Exports
// flatten nested documents into dotted columns (`address.city`) so CSV gets one column per leaf.
import type { ExecResult } from '../types.js';
import { jsonValue } from '../values.js';

type Doc = Record<string, unknown>;

/**
 * A JSON-safe copy of one BSON value. Types are told by their `_bsontype` tag rather than `instanceof`, so a
 * value built by another copy of the `bson` package (the driver's own) is recognised all the same.
 */
export function bsonToJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object') return jsonValue(v);
  if (v instanceof Date || v instanceof Uint8Array) return jsonValue(v);
  if (v instanceof RegExp) return String(v);
  if (Array.isArray(v)) return v.map(bsonToJson);
  const t = v as Record<string, any>;
  switch (t._bsontype as string | undefined) {
    case undefined: {
      const out: Doc = {};
      for (const [k, x] of Object.entries(v as Doc)) out[k] = bsonToJson(x);
      return out;
    }
    case 'ObjectId':
      return t.toHexString();
    case 'Long':
      return jsonValue(BigInt(t.toString()));
    case 'Double':
    case 'Int32':
      return Number(t.value);
    case 'Binary': {
      const bytes = Buffer.from(t.buffer.subarray(0, t.position));
      if (t.sub_type === 4 && bytes.length === 16) {
        const hex = bytes.toString('hex');
        return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      }
      return `0x${bytes.toString('hex')}`;
    }
    case 'BSONRegExp':
      return `/${t.pattern}/${t.options}`;
    default:
      // Decimal128, Timestamp, Code, MinKey, MaxKey, DBRef, BSONSymbol: their own text form.
      return t._bsontype === 'Code'
        ? String(t.code)
        : t._bsontype === 'DBRef'
          ? JSON.stringify(t.toJSON())
          : String(t);
  }
}

/** Top-level keys of `docs` in first-seen order, `_id` first. */
export function fieldsOf(docs: readonly Doc[]): string[] {
  const seen = new Set<string>();
  for (const d of docs) for (const k of Object.keys(d)) seen.add(k);
  const list = [...seen];
  return seen.has('_id') ? ['_id', ...list.filter((k) => k !== '_id')] : list;
}

/** Documents as a query result (absent fields are null), at most `maxRows` of them. */
export function documentsResult(docs: readonly Doc[], maxRows: number): ExecResult {
  const truncated = docs.length > maxRows;
  const kept = truncated ? docs.slice(0, maxRows) : docs;
  const fields = fieldsOf(kept);
  const rows = kept.map((d) => Object.fromEntries(fields.map((f) => [f, bsonToJson(d[f])])));
  return { fields, rows, rowCount: rows.length, truncated };
}

/** Values as a one-column result (`count`, `distinct`). */
export function valuesResult(field: string, values: readonly unknown[], maxRows: number): ExecResult {
  const truncated = values.length > maxRows;
  const kept = truncated ? values.slice(0, maxRows) : values;
  return {
    fields: [field],
    rows: kept.map((v) => ({ [field]: bsonToJson(v) })),
    rowCount: kept.length,
    truncated,
  };
}

function isPlain(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** One JSON-safe document flattened into dotted leaf paths (arrays and empty documents stay one value). */
export function flatten(doc: Doc, prefix = '', out: Doc = {}): Doc {
  for (const [k, v] of Object.entries(doc)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlain(v) && Object.keys(v).length > 0) flatten(v, path, out);
    else out[path] = v;
  }
  return out;
}
