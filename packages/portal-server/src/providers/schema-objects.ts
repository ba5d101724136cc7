// Inventory and per-kind counts for engines whose objects sit directly under a schema (SQL Server, Oracle):
// both are derived from one object listing, so each provider only supplies that listing.
import type { DatabaseObject, Inventory, KindCount } from './types.js';

/** Containers are the distinct first path segments (schemas or owners) of the listed objects. */
export function schemaInventory(objects: DatabaseObject[], truncated: boolean): Inventory {
  const schemas = [...new Set(objects.map((o) => o.path[0]))];
  return {
    containers: schemas.map((s) => ({ path: [s], name: s, kind: 'schema' })),
    objects,
    truncated,
  };
}

/** One count per (schema, kind). */
export function countBySchemaAndKind(objects: DatabaseObject[]): KindCount[] {
  const m = new Map<string, { path: string[]; kind: string; count: number }>();
  for (const o of objects) {
    const k = `${o.path[0]}\u0000${o.kind}`;
    const e = m.get(k) ?? { path: [o.path[0]], kind: o.kind, count: 0 };
    e.count++;
    m.set(k, e);
  }
  return [...m.values()];
}
