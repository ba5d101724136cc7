// A service's module graph read from its source files, for the house tests of both services: which module
// imports which at run time (type-only imports and `import('x').T` type references are erased by the compiler
// and make no cycle), the folder graph over it, the cycles in either, and a layer table checked against it.
// A small walk of our own: the files are few and the import forms we write are few.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { moduleFile, sourceFiles, typeOnly } from './layers.js';

/** file (relative to src) -> the relative modules it imports with a value import. */
export type ImportGraph = Map<string, Set<string>>;

// Static imports and re-exports, and dynamic imports; `import('x').Name` (not `.then`) is a type reference.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)(?!\.(?!then\b))/g;

/**
 * The value-import graph of `src`. `lazy: false` leaves out dynamic imports: a module loaded on first use by a
 * module it imports back is evaluated after it, so that pair is no cycle at start (the portal's engine
 * descriptors load their providers so).
 */
export function importGraph(src: string, options: { lazy?: boolean } = {}): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(src)) {
    const targets = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (m[1] !== undefined && typeOnly(m[1])) continue;
      if (m[3] !== undefined && options.lazy === false) continue;
      const target = moduleFile(file, m[2] ?? m[3]);
      if (target) targets.add(relative(src, target));
    }
    graph.set(relative(src, file), targets);
  }
  return graph;
}

/** The graph with each module replaced by its folder (files at the top level stay themselves). */
export function folderGraph(graph: ImportGraph): ImportGraph {
  const folder = (f: string) => (f.includes('/') ? f.split('/')[0] : f);
  const out: ImportGraph = new Map();
  for (const [from, targets] of graph) {
    const set = out.get(folder(from)) ?? new Set<string>();
    for (const t of targets) if (folder(t) !== folder(from)) set.add(folder(t));
    out.set(folder(from), set);
  }
  return out;
}

/** Every cycle as its strongly connected component (Tarjan), members sorted; [] when the graph is acyclic. */
export function cycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * A service's layers, top to bottom: each row a set of folders (or top-level files) that may import any row
 * below it and nothing beside or above it. Every folder of the source appears in exactly one row.
 */
export type LayerTable = readonly (readonly string[])[];

/**
 * What breaks `table` in a folder graph: each import that does not point to a lower row ("from -> to"),
 * each folder the table does not list ("folder: not in the layer table") and each row entry with no folder.
 */
export function layerViolations(folders: ImportGraph, table: LayerTable): string[] {
  const row = new Map<string, number>();
  table.forEach((names, i) => {
    for (const n of names) row.set(n, i);
  });
  const out: string[] = [];
  for (const [from, targets] of folders) {
    const r = row.get(from);
    if (r === undefined) {
      out.push(`${from}: not in the layer table`);
      continue;
    }
    for (const t of targets) if ((row.get(t) ?? -1) <= r) out.push(`${from} -> ${t}`);
  }
  for (const n of row.keys()) if (!folders.has(n)) out.push(`${n}: in the layer table, not in the source`);
  return out.sort();
}

/** The table as the docs print it: rows top to bottom, joined by arrows. */
export function layerLine(table: LayerTable): string {
  return table.map((names) => names.join(' / ')).join(' → ');
}
