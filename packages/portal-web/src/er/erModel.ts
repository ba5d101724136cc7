// The ER model of a schema, without drawing: tables with their columns (key marks) and the foreign-key edges
// between them, read from the object surface's descriptions. Pure so edge building is tested alone.
import type { ObjectDetail } from '../lib/types';

export interface ErTable {
  id: string;
  name: string;
  path: string[];
  columns: { name: string; type: string; pk: boolean; fk: boolean }[];
}

export interface ErEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

export const tableId = (path: readonly string[]) => path.join('.');

export function erModel(details: ObjectDetail[]): { tables: ErTable[]; edges: ErEdge[] } {
  const byName = new Map<string, string>();
  for (const d of details) {
    byName.set(tableId(d.object.path).toLowerCase(), tableId(d.object.path));
    byName.set(d.object.name.toLowerCase(), tableId(d.object.path));
  }
  const tables: ErTable[] = details.map((d) => {
    const fkCols = new Set(d.foreignKeys.map((f) => f.columnName));
    return {
      id: tableId(d.object.path),
      name: d.object.name,
      path: d.object.path,
      columns: d.columns.map((c) => ({
        name: c.name,
        type: c.type,
        pk: c.isPrimary,
        fk: fkCols.has(c.name),
      })),
    };
  });
  const edges: ErEdge[] = [];
  const seen = new Set<string>();
  for (const d of details) {
    for (const fk of d.foreignKeys) {
      const ref = fk.referencedPath?.length
        ? byName.get(tableId(fk.referencedPath).toLowerCase())
        : fk.referencedTable
          ? byName.get(fk.referencedTable.toLowerCase())
          : undefined;
      if (!ref) continue;
      const id = `${tableId(d.object.path)}.${fk.columnName}->${ref}`;
      if (seen.has(id)) continue;
      seen.add(id);
      edges.push({
        id,
        source: tableId(d.object.path),
        target: ref,
        label: `${fk.columnName} → ${fk.referencedColumn ?? ''}`,
      });
    }
  }
  return { tables, edges };
}
