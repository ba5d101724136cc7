// The house rules of the portal server's source, checked on the files themselves: arrows point down (no
// module under governance/, auth/, storage/, providers/, sql/ or execution/ imports from http/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2]);
  return out;
}

describe('layers of packages/portal-server/src', () => {
  it('finds the imports of a file, static, re-exported and dynamic', () => {
    const text = `import a from '../http/a.js';\nexport { b } from "./b.js";\nconst c = await import('../c.js');`;
    expect(importsOf(text)).toEqual(['../http/a.js', './b.js', '../c.js']);
  });

  it('no module below http/ imports from http/', () => {
    const below = ['governance', 'auth', 'storage', 'providers', 'sql', 'execution'];
    const offenders: string[] = [];
    for (const folder of below) {
      for (const file of sourceFiles(join(SRC, folder))) {
        for (const spec of importsOf(readFileSync(file, 'utf8'))) {
          if (!spec.startsWith('.')) continue;
          const target = relative(SRC, join(file, '..', spec));
          if (target === 'http' || target.startsWith('http/'))
            offenders.push(`${relative(SRC, file)} -> ${spec}`);
        }
      }
      expect(sourceFiles(join(SRC, folder)).length).toBeGreaterThan(0);
    }
    expect(offenders).toEqual([]);
  });
});
