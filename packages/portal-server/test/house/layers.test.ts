// The house rule of the portal server's source, checked on the files themselves: arrows point down the layer
// table (layer-table.ts), which docs/architecture.md prints; no module outside http/ imports from http/,
// except the composition root server.ts.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  folderGraph,
  type ImportGraph,
  importGraph,
  importsInto,
  importsOf,
  layerLine,
  layerViolations,
  sourceFiles,
} from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { PORTAL_LAYERS } from './layer-table.js';

const SRC = join(import.meta.dirname, '../../src');

describe('layers of packages/portal-server/src', () => {
  it('finds the imports of a file, static, re-exported and dynamic', () => {
    const text = `import a from '../http/a.js';\nexport { b } from "./b.js";\nconst c = await import('../c.js');`;
    expect(importsOf(text)).toEqual(['../http/a.js', './b.js', '../c.js']);
  });

  it('no module outside http/ imports from http/ (server.ts composes them)', () => {
    const folders = new Set(sourceFiles(SRC).map((f) => relative(SRC, f).split('/')[0]));
    for (const folder of ['governance', 'auth', 'storage', 'providers', 'sql', 'execution', 'bot'])
      expect(folders.has(folder)).toBe(true);
    expect(importsInto(SRC, 'http', ['server.ts'])).toEqual([]);
  });

  it('every import points down the layer table, and every folder is in it', () => {
    expect(layerViolations(folderGraph(importGraph(SRC)), PORTAL_LAYERS)).toEqual([]);
  });

  it('the check finds an import that points up or sideways, and a folder missing from the table', () => {
    const g: ImportGraph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set<string>()],
    ]);
    expect(layerViolations(g, [['a'], ['b', 'c']])).toEqual([
      'b -> c',
      'c -> a',
      'd: not in the layer table',
    ]);
  });

  it('docs/architecture.md prints the table', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../../docs/architecture.md'), 'utf8');
    expect(doc).toContain(layerLine(PORTAL_LAYERS));
  });
});
