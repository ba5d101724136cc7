// No import cycles in the portal server: neither between modules nor between folders (sql/ takes a dialect as a
// parameter and imports no engine; providers/ imports sql/, never the other way). Type-only imports do not
// count: the compiler erases them. Between modules, an engine descriptor's load of its provider on first use
// (`import('./index.js')`) is left out: the provider may import its descriptor back, which is evaluated first.
import { join } from 'node:path';
import { cycles, folderGraph, importGraph } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

describe('import cycles in packages/portal-server/src', () => {
  const graph = importGraph(SRC);

  it('reads the graph: the server imports its folders, an engine loads its provider on first use', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect([...(graph.get('server.ts') ?? [])].some((t) => t.startsWith('execution/'))).toBe(true);
    expect(graph.get('providers/postgres/engine.ts')?.has('providers/postgres/index.ts')).toBe(true);
    expect(
      importGraph(SRC, { lazy: false })
        .get('providers/postgres/engine.ts')
        ?.has('providers/postgres/index.ts'),
    ).toBe(false);
  });

  it('has no cycle between modules at start (lazy provider loads left out)', () => {
    expect(cycles(importGraph(SRC, { lazy: false }))).toEqual([]);
  });

  it('has no cycle between folders, lazy loads included', () => {
    expect(cycles(folderGraph(graph))).toEqual([]);
  });

  it('sql/ imports nothing of the portal (a dialect is a parameter)', () => {
    const out = [...graph].filter(([f]) => f.startsWith('sql/')).flatMap(([, t]) => [...t]);
    expect(out.filter((t) => !t.startsWith('sql/'))).toEqual([]);
  });
});
