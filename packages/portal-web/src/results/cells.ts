// How a value looks in the grid and how rows are copied — pure, so NULL-versus-empty, masking and the three
// copy formats are tested alone. NULL is a marker (never the text "NULL" in a copy as TSV/CSV — an empty
// field; JSON keeps null), an empty string stays empty, objects are JSON.

export type CellClass = 'null' | 'empty' | 'num' | 'bool' | 'json' | 'text' | 'masked';

export interface CellView {
  text: string;
  cls: CellClass;
}

const MAX_CELL = 300;

/** Values the server's masker produces (`****`, or the first character then `***`, or a hash). */
export function looksMasked(v: unknown): boolean {
  return typeof v === 'string' && (v === '****' || /^.\*\*\*$/su.test(v) || /^[0-9a-f]{16,64}$/.test(v));
}

export function cellView(v: unknown, masked = false): CellView {
  if (v === null || v === undefined) return { text: 'NULL', cls: 'null' };
  if (masked && looksMasked(v)) return { text: String(v), cls: 'masked' };
  if (typeof v === 'object') {
    const s = JSON.stringify(v);
    return { text: s.length > MAX_CELL ? `${s.slice(0, MAX_CELL)}…` : s, cls: 'json' };
  }
  if (typeof v === 'number' || typeof v === 'bigint') return { text: String(v), cls: 'num' };
  if (typeof v === 'boolean') return { text: String(v), cls: 'bool' };
  const s = String(v);
  if (s === '') return { text: '', cls: 'empty' };
  return { text: s.length > MAX_CELL ? `${s.slice(0, MAX_CELL)}…` : s, cls: 'text' };
}

/** Whether a value is worth opening in the JSON viewer (an object, or a string that parses to one). */
export function jsonOf(v: unknown): unknown | undefined {
  if (v && typeof v === 'object') return v;
  if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
    try {
      return JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A column's type: the engine's word when it reported one, else what the loaded values are. */
export function columnType(
  field: string,
  rows: Record<string, unknown>[],
  reported?: Record<string, string>,
): string {
  if (reported?.[field]) return reported[field];
  for (let i = 0; i < Math.min(rows.length, 50); i++) {
    const v = rows[i][field];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number' || typeof v === 'bigint') return 'number';
    if (typeof v === 'boolean') return 'boolean';
    if (typeof v === 'object') return 'json';
    return 'text';
  }
  return '';
}

function plain(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export type CopyFormat = 'tsv' | 'csv' | 'json';

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows as text for the clipboard; a header line for TSV/CSV. */
export function copyText(fields: string[], rows: Record<string, unknown>[], format: CopyFormat): string {
  if (format === 'json')
    return JSON.stringify(
      rows.map((r) => Object.fromEntries(fields.map((f) => [f, r[f] ?? null]))),
      null,
      2,
    );
  if (format === 'csv') {
    return [
      fields.map(csvField).join(','),
      ...rows.map((r) => fields.map((f) => csvField(plain(r[f]))).join(',')),
    ].join('\r\n');
  }
  // TSV: tabs and line breaks inside a value would break the layout a spreadsheet reads; they become spaces.
  const tsv = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
  return [
    fields.map(tsv).join('\t'),
    ...rows.map((r) => fields.map((f) => tsv(plain(r[f]))).join('\t')),
  ].join('\n');
}

/** Masked column names from a datasource policy (`table.column` or `*.column` → column). */
export function maskedColumnNames(policy: Record<string, unknown> | undefined): Set<string> {
  const out = new Set<string>();
  const rules = Array.isArray(policy?.masking) ? (policy.masking as unknown[]) : [];
  for (const r of rules) {
    const col = (r as { column?: unknown }).column;
    if (typeof col === 'string') out.add(col.split('.').pop()!.toLowerCase());
  }
  return out;
}
