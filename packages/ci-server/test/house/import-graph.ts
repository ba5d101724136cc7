// The control plane's module graph read from its source files, for the house tests: which module imports
// which at run time (type-only imports are erased by the compiler and make no cycle), and the cycles in it.
// A small walk of our own: the files are few and the import forms we write are few.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { moduleFile, sourceFiles, typeOnly } from '@app/kit/testing';

/** file (relative to src) -> the relative modules it imports with a value import. */
export type ImportGraph = Map<string, Set<string>>;

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

export function importGraph(src: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of sourceFiles(src)) {
    const targets = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      if (m[1] !== undefined && typeOnly(m[1])) continue;
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
