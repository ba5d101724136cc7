// No import cycles in the control plane: neither between modules nor between folders (agents/ is the gRPC
// face and imports dispatch/, never the other way; store/ imports no feature folder). Type-only imports
// do not count: the compiler erases them.
import { join } from 'node:path';
import { cycles, folderGraph, type ImportGraph, importGraph, typeOnly } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

describe('import cycles in packages/ci-server/src', () => {
  const graph = importGraph(SRC);

  it('reads the graph: the server imports its folders', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...(graph.get('server.ts') ?? [])].some((t) => t.startsWith('agents/'))).toBe(true);
  });

  it('has no cycle between modules', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cycles(folderGraph(graph))).toEqual([]);
  });

  it('the walk finds a cycle when there is one, and ignores type-only imports', () => {
    const g: ImportGraph = new Map([
      ['a/x.ts', new Set(['b/y.ts'])],
      ['b/y.ts', new Set(['a/z.ts'])],
      ['a/z.ts', new Set<string>()],
    ]);
    expect(cycles(g)).toEqual([]);
    expect(cycles(folderGraph(g))).toEqual([['a', 'b']]);
    g.get('a/z.ts')!.add('a/x.ts');
    expect(cycles(g)).toEqual([['a/x.ts', 'a/z.ts', 'b/y.ts']]);
    expect(typeOnly('type { A }')).toBe(true);
    expect(typeOnly('{ type A, type B }')).toBe(true);
    expect(typeOnly('{ type A, B }')).toBe(false);
    expect(typeOnly('{ A }')).toBe(false);
  });
});
