// Turning driver values into JSON-safe values with no precision loss, and driver column lists into unique
// field names (a second `id` becomes `id (2)`), shared by every engine module.

/** JSON-safe form of one driver value: exact big integers as strings, bytes as 0x-hex, dates as ISO text. */
export function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint':
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER)
        ? Number(v)
        : v.toString();
    case 'number':
      return Number.isFinite(v) ? v : String(v);
    case 'object':
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
      if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
      if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
      if (v instanceof ArrayBuffer) return `0x${Buffer.from(v).toString('hex')}`;
      if (Array.isArray(v)) return v.map(jsonValue);
      return v;
    default:
      return v;
  }
}

/**
 * A JSON integer parameter (`[42]`) is a JS number, which drivers of engines that tell INTEGER from REAL
 * (better-sqlite3, libsql, mysql2) would bind as a double. Safe integers are whole numbers the client meant
 * as integers, so each such driver binds them as its integer type; larger or fractional numbers stay doubles.
 */
export function isIntegerParam(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

/** Unique field names in column order: repeats get ` (2)`, ` (3)`, … */
export function uniqueFields(names: readonly string[]): string[] {
  const seen = new Map<string, number>();
  const taken = new Set(names);
  return names.map((name, i) => {
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    if (n === 1 && names.indexOf(name) === i) return name;
    let k = n;
    let candidate = `${name} (${k})`;
    while (taken.has(candidate)) candidate = `${name} (${++k})`;
    taken.add(candidate);
    return candidate;
  });
}

/** Row arrays → row objects keyed by the unique field names, values made JSON-safe. */
export function toObjects(fields: readonly string[], rows: readonly unknown[][]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const o: Record<string, unknown> = {};
    for (let c = 0; c < fields.length; c++) o[fields[c]] = jsonValue(row[c]);
    out[r] = o;
  }
  return out;
}

/** Human size in the style of pg_size_pretty. */
export function prettyBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return 'unknown';
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 10240 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.round(v)} ${units[i]}`;
}

export function ratio(hit: number, total: number): string {
  if (!(total > 0)) return 'n/a';
  return `${((hit / total) * 100).toFixed(2)}%`;
}

/** An ExecResult from column names and row arrays, keeping at most `maxRows` rows. */
export function arrayResult(
  names: readonly string[],
  rows: readonly unknown[][],
  maxRows: number,
  affected: number | null | undefined,
  types?: readonly string[],
): import('./types.js').ExecResult {
  const fields = uniqueFields(names);
  const truncated = rows.length > maxRows;
  const kept = truncated ? rows.slice(0, maxRows) : rows;
  const columnTypes = types ? Object.fromEntries(fields.map((f, i) => [f, types[i]])) : undefined;
  return {
    fields,
    rows: toObjects(fields, kept),
    rowCount: names.length > 0 ? kept.length : (affected ?? 0),
    truncated,
    ...(columnTypes ? { columnTypes } : {}),
  };
}
