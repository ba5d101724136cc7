// The table browser's pending changes, kept apart from the loaded page until they are applied: edited cells
// per row (keyed by the row's key or row id), rows marked for deletion, and new rows. Pure functions over a
// plain value, so the component only holds one state and the batch sent to the server is built in one place.

export type Cell = string | number | boolean | null;
export type Row = Record<string, unknown>;

export interface PendingEdits {
  /** Row key → column → new value. */
  updates: Record<string, Record<string, Cell>>;
  /** Row key → the row as read (deleted rows). */
  deletes: Record<string, Row>;
  /** New rows: their cells as typed, with a local id for React. */
  inserts: Array<{ id: number; values: Record<string, Cell> }>;
}

export const NO_EDITS: PendingEdits = { updates: {}, deletes: {}, inserts: [] };

/** The identity of a loaded row: its key columns' values (or its row id), as text. */
export function rowKey(row: Row, key: readonly string[], rowId?: string): string {
  return JSON.stringify(rowId ? [row[rowId]] : key.map((k) => row[k]));
}

export function pendingCount(p: PendingEdits): number {
  return (
    Object.values(p.updates).reduce((n, cells) => n + Object.keys(cells).length, 0) +
    Object.keys(p.deletes).length +
    p.inserts.length
  );
}

/** Sets a cell of a loaded row; setting it back to what was read removes the pending change. */
export function setCell(p: PendingEdits, k: string, row: Row, column: string, value: Cell): PendingEdits {
  const cells = { ...(p.updates[k] ?? {}) };
  const same =
    row[column] === value ||
    (row[column] !== null && value !== null && String(row[column]) === String(value));
  if (same) delete cells[column];
  else cells[column] = value;
  const updates = { ...p.updates };
  if (Object.keys(cells).length === 0) delete updates[k];
  else updates[k] = cells;
  return { ...p, updates };
}

export function toggleDelete(p: PendingEdits, k: string, row: Row): PendingEdits {
  const deletes = { ...p.deletes };
  if (deletes[k]) delete deletes[k];
  else deletes[k] = row;
  return { ...p, deletes };
}

let nextId = 1;
export function addRow(p: PendingEdits): PendingEdits {
  return { ...p, inserts: [{ id: nextId++, values: {} }, ...p.inserts] };
}

export function setNewCell(p: PendingEdits, id: number, column: string, value: Cell): PendingEdits {
  return {
    ...p,
    inserts: p.inserts.map((r) => (r.id === id ? { ...r, values: { ...r.values, [column]: value } } : r)),
  };
}

export function removeNewRow(p: PendingEdits, id: number): PendingEdits {
  return { ...p, inserts: p.inserts.filter((r) => r.id !== id) };
}

/** The batch the server turns into statements: updates of rows not also deleted, inserts, deletes. */
export function changesOf(p: PendingEdits, rows: readonly Row[], key: readonly string[], rowId?: string) {
  const byKey = new Map(rows.map((r) => [rowKey(r, key, rowId), r]));
  const changes: Array<Record<string, unknown>> = [];
  for (const [k, values] of Object.entries(p.updates)) {
    const original = byKey.get(k);
    if (original && !p.deletes[k]) changes.push({ op: 'update', original: plain(original), values });
  }
  for (const r of [...p.inserts].reverse()) changes.push({ op: 'insert', values: r.values });
  for (const original of Object.values(p.deletes)) changes.push({ op: 'delete', original: plain(original) });
  return changes;
}

/** A row's cells as the server takes them (scalars; a JSON value as its text). */
function plain(row: Row): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : (v as Cell);
  }
  return out;
}
