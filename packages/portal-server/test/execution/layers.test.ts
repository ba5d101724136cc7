// The house rule of the portal server's source, checked on the files themselves: arrows point down (routes
// call services; no module outside http/ imports from http/, except the composition root server.ts).
import { join, relative } from 'node:path';
import { importsInto, importsOf, sourceFiles } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

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
});
