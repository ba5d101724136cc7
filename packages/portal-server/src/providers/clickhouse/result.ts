// A ClickHouse answer as the spec's query result. The provider asks for JSONCompact (`meta` names and types,
// `data` rows as arrays); a statement with its own FORMAT clause answers in that format: the JSON document
// formats are read the same way, JSONEachRow line by line, and any other text is one row per line in an
// `output` column. 64-bit (and wider) integers arrive quoted and stay exact: a safe integer becomes a number,
// a wider one stays a digit string; arrays, tuples and maps stay JSON.
import type { ExecResult } from '../types.js';
import { arrayResult } from '../values.js';

interface Meta {
  name: string;
  type: string;
}

/** Integer types ClickHouse quotes in JSON output (output_format_json_quote_64bit_integers). */
const WIDE_INT = /^(?:Nullable\(|LowCardinality\()*U?Int(?:64|128|256)\)*$/;

function exactInteger(v: unknown): unknown {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
}

function documentResult(doc: { meta: Meta[]; data: unknown[] }, maxRows: number): ExecResult {
  const names = doc.meta.map((m) => m.name);
  const wide = doc.meta.map((m) => WIDE_INT.test(m.type));
  const rows = doc.data.map((row) => {
    const cells = Array.isArray(row) ? row : names.map((n) => (row as Record<string, unknown>)[n]);
    return cells.map((v, i) => (wide[i] ? exactInteger(v) : v));
  });
  return arrayResult(
    names,
    rows,
    maxRows,
    null,
    doc.meta.map((m) => m.type),
  );
}

function isDocument(v: unknown): v is { meta: Meta[]; data: unknown[] } {
  const o = v as { meta?: unknown; data?: unknown };
  return typeof v === 'object' && v !== null && Array.isArray(o.meta) && Array.isArray(o.data);
}

/** The rows of an answer body; `affected` is the row count of a statement that returned none. */
export function answerResult(text: string, maxRows: number, affected: number): ExecResult {
  const body = text.trim();
  if (body === '') return { fields: [], rows: [], rowCount: affected, truncated: false };
  if (body.startsWith('{')) {
    try {
      const doc = JSON.parse(body);
      if (isDocument(doc)) return documentResult(doc, maxRows);
    } catch {
      // Not one document: JSONEachRow (one object per line) is tried next.
    }
    const lines = body.split('\n').filter((l) => l.trim() !== '');
    try {
      const objects = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const names = Object.keys(objects[0] ?? {});
      return arrayResult(
        names,
        objects.map((o) => names.map((n) => o[n])),
        maxRows,
        null,
      );
    } catch {
      // Some other text that starts with a brace: shown line by line below.
    }
  }
  const lines = body.split('\n');
  return arrayResult(
    ['output'],
    lines.map((l) => [l]),
    maxRows,
    null,
  );
}
