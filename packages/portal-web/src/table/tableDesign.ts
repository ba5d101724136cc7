// The table designer's form state and the request it becomes, decided without React so it can be tested
// alone: a new table's `create` description, or — for an existing table read from `/api/db/objects/describe`
// — the list of `alter` changes between the table as read and the form as edited. Changes are ordered so
// engines accept them: foreign keys and indexes are dropped first (MariaDB refuses to change a column a key
// uses), then columns are dropped, renamed, changed and added, then keys and indexes are added, and the
// table is renamed last. The server checks and quotes everything again (POST /api/db/tables/ddl).
import type { ObjectDetail } from '../lib/types';

export interface ColumnRow {
  /** Stable id for React keys. */
  id: string;
  /** The column as read, for an existing column (absent: a new one). */
  original?: { name: string; type: string; nullable: boolean; defaultText: string };
  name: string;
  type: string;
  nullable: boolean;
  /** The default as typed: empty for none, NULL, a number, an allowed expression, otherwise a string. */
  defaultText: string;
  primary: boolean;
}
export interface IndexRow {
  id: string;
  original?: string;
  name: string;
  /** Column names separated by commas. */
  columns: string;
  unique: boolean;
}
export interface ForeignKeyRow {
  id: string;
  original?: string;
  name: string;
  column: string;
  /** The referenced table's name (in the same container). */
  refTable: string;
  refColumn: string;
  onDelete: string;
}
export interface DesignState {
  name: string;
  columns: ColumnRow[];
  indexes: IndexRow[];
  foreignKeys: ForeignKeyRow[];
  /** Primary-key columns as read (an existing key is kept; the designer only adds one to a table without). */
  originalKey: string[];
}

let seq = 0;
export const newId = () => `r${++seq}`;

export const emptyColumn = (): ColumnRow => ({
  id: newId(),
  name: '',
  type: '',
  nullable: true,
  defaultText: '',
  primary: false,
});

export function newDesign(firstType: string): DesignState {
  return {
    name: '',
    columns: [{ ...emptyColumn(), name: 'id', type: firstType, nullable: false, primary: true }],
    indexes: [],
    foreignKeys: [],
    originalKey: [],
  };
}

/** A catalog default as the form shows it: quotes and casts taken off (`'new'::character varying` → new). */
export function defaultTextOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  let s = String(v).trim();
  const cast = /^('(?:[^']|'')*')::[\w\s]+$/.exec(s);
  if (cast) s = cast[1];
  if (/^'(?:[^']|'')*'$/.test(s)) return s.slice(1, -1).replaceAll("''", "'");
  return s.replace(/\(\)$/, '');
}

export function designFromDetail(name: string, d: ObjectDetail): DesignState {
  const fks = new Map<string, ForeignKeyRow>();
  for (const f of d.foreignKeys) {
    const key = f.constraintName ?? `${f.columnName}`;
    if (fks.has(key)) continue; // one row per constraint (a composite key keeps its first column here)
    fks.set(key, {
      id: newId(),
      original: f.constraintName,
      name: f.constraintName ?? '',
      column: f.columnName,
      refTable: f.referencedPath?.at(-1) ?? f.referencedTable ?? '',
      refColumn: f.referencedColumn ?? '',
      onDelete: (f.onDelete ?? '').toUpperCase() === 'NO ACTION' ? '' : (f.onDelete ?? '').toUpperCase(),
    });
  }
  return {
    name,
    columns: d.columns.map((c) => {
      const defaultText = defaultTextOf(c.defaultValue);
      return {
        id: newId(),
        original: { name: c.name, type: c.type, nullable: c.nullable, defaultText },
        name: c.name,
        type: c.type,
        nullable: c.nullable,
        defaultText,
        primary: c.isPrimary,
      };
    }),
    // Indexes that back a key are the engine's own (PRIMARY, sqlite_autoindex_…): not designed here.
    indexes: d.indexes
      .filter((i) => !/^(primary|sqlite_autoindex_)/i.test(i.name) && !/_pkey$/.test(i.name))
      .map((i) => ({
        id: newId(),
        original: i.name,
        name: i.name,
        columns: i.columns.join(', '),
        unique: i.unique,
      })),
    foreignKeys: [...fks.values()],
    originalKey: d.columns.filter((c) => c.isPrimary).map((c) => c.name),
  };
}

type Default = { literal: string | number | boolean | null } | { expression: string };

/** The default a typed text stands for (undefined: none). */
export function defaultOf(text: string, expressions: readonly string[]): Default | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const expr = expressions.find((e) => e.toLowerCase() === t.toLowerCase().replace(/\(\)$/, ''));
  if (expr) return { expression: expr };
  if (t.toUpperCase() === 'NULL') return { literal: null };
  if (/^-?\d+(\.\d+)?$/.test(t) && Number.isFinite(Number(t))) return { literal: Number(t) };
  return { literal: text };
}

const cols = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function columnBody(c: ColumnRow, expressions: readonly string[]) {
  const def = defaultOf(c.defaultText, expressions);
  return { name: c.name.trim(), type: c.type.trim(), nullable: c.nullable, ...(def ? { default: def } : {}) };
}

function fkBody(f: ForeignKeyRow, container: string[]) {
  return {
    ...(f.name.trim() ? { name: f.name.trim() } : {}),
    columns: [f.column.trim()],
    referencedPath: [...container, f.refTable.trim()],
    referencedColumns: [f.refColumn.trim()],
    ...(f.onDelete ? { onDelete: f.onDelete } : {}),
  };
}

/** The `create` description of a new table. */
export function createBody(s: DesignState, container: string[], expressions: readonly string[]) {
  const primaryKey = s.columns.filter((c) => c.primary).map((c) => c.name.trim());
  return {
    columns: s.columns.map((c) => columnBody(c, expressions)),
    ...(primaryKey.length ? { primaryKey } : {}),
    ...(s.indexes.length
      ? {
          indexes: s.indexes.map((i) => ({
            name: i.name.trim(),
            columns: cols(i.columns),
            unique: i.unique,
          })),
        }
      : {}),
    ...(s.foreignKeys.length ? { foreignKeys: s.foreignKeys.map((f) => fkBody(f, container)) } : {}),
  };
}

/** The `alter` changes from the table as read (`before`) to the form (`after`), in an order engines accept. */
export function alterChanges(
  before: DesignState,
  after: DesignState,
  container: string[],
  expressions: readonly string[],
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const keptIndex = new Set(after.indexes.map((i) => i.original).filter(Boolean));
  const keptFk = new Set(after.foreignKeys.map((f) => f.original).filter(Boolean));
  const sameIndex = (i: IndexRow) => {
    const o = before.indexes.find((b) => b.original === i.original);
    return o && o.name === i.name && o.columns === i.columns && o.unique === i.unique;
  };
  const sameFk = (f: ForeignKeyRow) => {
    const o = before.foreignKeys.find((b) => b.original === f.original);
    return o && JSON.stringify({ ...o, id: '' }) === JSON.stringify({ ...f, id: '' });
  };
  // A changed index or key is dropped and added again.
  for (const f of before.foreignKeys)
    if (
      f.original &&
      (!keptFk.has(f.original) ||
        !sameFk(after.foreignKeys.find((a) => a.original === f.original) as ForeignKeyRow))
    )
      out.push({ op: 'dropForeignKey', name: f.original });
  for (const i of before.indexes)
    if (
      i.original &&
      (!keptIndex.has(i.original) ||
        !sameIndex(after.indexes.find((a) => a.original === i.original) as IndexRow))
    )
      out.push({ op: 'dropIndex', name: i.original });
  const keptColumns = new Set(after.columns.map((c) => c.original?.name).filter(Boolean));
  for (const c of before.columns)
    if (c.original && !keptColumns.has(c.original.name))
      out.push({ op: 'dropColumn', name: c.original.name });
  for (const c of after.columns) {
    if (!c.original) continue;
    const name = c.name.trim();
    if (name !== c.original.name) out.push({ op: 'renameColumn', name: c.original.name, to: name });
    const changed: string[] = [];
    if (c.type.trim() !== c.original.type) changed.push('type');
    if (c.nullable !== c.original.nullable) changed.push('nullable');
    if (c.defaultText.trim() !== c.original.defaultText.trim()) changed.push('default');
    if (changed.length) out.push({ op: 'alterColumn', name, column: columnBody(c, expressions), changed });
  }
  for (const c of after.columns)
    if (!c.original) out.push({ op: 'addColumn', column: columnBody(c, expressions) });
  const key = after.columns.filter((c) => c.primary).map((c) => c.name.trim());
  if (before.originalKey.length === 0 && key.length) out.push({ op: 'addPrimaryKey', columns: key });
  for (const i of after.indexes)
    if (!i.original || !sameIndex(i))
      out.push({
        op: 'addIndex',
        index: { name: i.name.trim(), columns: cols(i.columns), unique: i.unique },
      });
  for (const f of after.foreignKeys)
    if (!f.original || !sameFk(f)) out.push({ op: 'addForeignKey', foreignKey: fkBody(f, container) });
  if (after.name.trim() !== before.name) out.push({ op: 'renameTable', to: after.name.trim() });
  return out;
}
