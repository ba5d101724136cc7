// The fill order of a seed run (pure): parents before children through foreign keys. A cycle is broken
// through a foreign key whose columns are all nullable — the child is inserted with that key null and the
// key is filled by an update once the parent has rows — and the plan says so in `notes`. A cycle with no
// nullable key cannot be broken; the plan still orders it (alphabetically) and says that it will need
// existing parent rows. Row counts come from `counts`, then `ratios` (rows per row of the first parent),
// then the default.
import type { PlannedTable, SeedPlan, SeedSchema, SeedTable } from './types.js';

export const DEFAULT_ROWS = 20;

export interface PlanOptions {
  counts?: Record<string, number>;
  ratios?: Record<string, number>;
  defaultRows?: number;
}

interface Edge {
  child: string;
  parent: string;
  fk: string;
  nullable: boolean;
}

function edgesOf(schema: SeedSchema): Edge[] {
  const names = new Set(schema.tables.map((t) => t.name));
  const out: Edge[] = [];
  for (const t of schema.tables) {
    for (const fk of t.foreignKeys) {
      if (!names.has(fk.refTable)) continue;
      const nullable = fk.columns.every((c) => t.columns.find((col) => col.name === c)?.nullable);
      out.push({ child: t.name, parent: fk.refTable, fk: fk.name, nullable });
    }
  }
  return out;
}

/** A cycle through `start` among the live edges (DFS), as table names, for the note. */
function cycleThrough(start: string, live: Edge[]): string[] {
  const seen = new Set<string>();
  const path: string[] = [];
  const walk = (node: string): boolean => {
    path.push(node);
    for (const e of live.filter((x) => x.child === node).sort((a, b) => a.parent.localeCompare(b.parent))) {
      if (e.parent === start) return true;
      if (!seen.has(e.parent)) {
        seen.add(e.parent);
        if (walk(e.parent)) return true;
      }
    }
    path.pop();
    return false;
  };
  return walk(start) ? [...path, start] : [start];
}

export function planSeed(schema: SeedSchema, options: PlanOptions = {}): SeedPlan {
  const byName = new Map<string, SeedTable>(schema.tables.map((t) => [t.name, t]));
  const notes: string[] = [];
  let live = edgesOf(schema);
  const deferred = new Map<string, string[]>();
  // Self-references: always a one-table cycle.
  for (const e of live.filter((x) => x.child === x.parent)) {
    if (e.nullable) {
      deferred.set(e.child, [...(deferred.get(e.child) ?? []), e.fk]);
      notes.push(
        `${e.child} references itself: ${e.fk} is left null on insert and filled once ${e.child} has rows`,
      );
    } else {
      notes.push(
        `${e.child} references itself through ${e.fk}, which is not nullable: new rows need existing ones`,
      );
    }
  }
  live = live.filter((x) => x.child !== x.parent);
  const order: string[] = [];
  const remaining = new Set(byName.keys());
  while (remaining.size) {
    const ready = [...remaining]
      .filter((n) => !live.some((e) => e.child === n && remaining.has(e.parent)))
      .sort((a, b) => a.localeCompare(b));
    if (ready.length) {
      for (const n of ready) {
        order.push(n);
        remaining.delete(n);
      }
      continue;
    }
    // Stuck: every remaining table waits on another remaining one — a cycle.
    const inCycle = live.filter((e) => remaining.has(e.child) && remaining.has(e.parent));
    const breakable = inCycle
      .filter((e) => e.nullable)
      .sort((a, b) => `${a.child}.${a.fk}`.localeCompare(`${b.child}.${b.fk}`));
    if (breakable.length) {
      const e = breakable[0];
      const cycle = cycleThrough(e.child, inCycle);
      live = live.filter((x) => x !== e);
      deferred.set(e.child, [...(deferred.get(e.child) ?? []), e.fk]);
      notes.push(
        `cycle ${cycle.join(' -> ')} broken through the nullable key ${e.child}.${e.fk}: ${e.child} is inserted with it null and it is filled once ${e.parent} has rows`,
      );
    } else {
      const n = [...remaining].sort((a, b) => a.localeCompare(b))[0];
      const cycle = cycleThrough(n, inCycle);
      notes.push(
        `cycle ${cycle.join(' -> ')} has no nullable key and cannot be broken: ${n} is filled first and needs existing parent rows`,
      );
      live = live.filter((x) => x.child !== n);
    }
  }
  const rowsOf = new Map<string, number>();
  const fallback = options.defaultRows ?? DEFAULT_ROWS;
  const tables: PlannedTable[] = order.map((name) => {
    const t = byName.get(name) as SeedTable;
    const dependsOn = [...new Set(live.filter((e) => e.child === name).map((e) => e.parent))].sort((a, b) =>
      a.localeCompare(b),
    );
    let rows = fallback;
    const ratio = options.ratios?.[name];
    if (options.counts?.[name] !== undefined) rows = options.counts[name];
    else if (ratio !== undefined) {
      const base = dependsOn.length ? (rowsOf.get(dependsOn[0]) ?? fallback) : fallback;
      rows = Math.round(base * ratio);
    }
    rowsOf.set(name, rows);
    const deferredKeys = deferred.get(name);
    return {
      name,
      columns: t.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable })),
      dependsOn,
      rows,
      ...(deferredKeys ? { deferredKeys } : {}),
    };
  });
  return { schema: schema.schema, tables, notes };
}
