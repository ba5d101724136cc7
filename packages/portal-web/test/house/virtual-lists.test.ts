// House rule: portal-web's virtual lists (the result grid, the object tree, any later one) go through the web
// kit's primitive (useVirtualRows or VirtualList, web-kit/src/virtual), so both UIs scroll long lists one way
// and a fix there reaches every list. An import of @tanstack/react-virtual in the app fails here with its
// file and line, and the app does not list the library among its own dependencies.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PKG = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(PKG, 'src');

/** Static imports, re-exports and dynamic imports of the library. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]@tanstack\/react-virtual(?:\/[^'"]*)?['"]/g;

function libraryImports(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.match(IMPORT)) lines.push(i + 1);
  });
  return lines;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('portal-web virtual lists', () => {
  it('recognises the imports it forbids and lets the kit through', () => {
    expect(libraryImports("import { useVirtualizer } from '@tanstack/react-virtual';")).toEqual([1]);
    expect(
      libraryImports(
        'x\nexport * from "@tanstack/react-virtual";\nconst m = import(\'@tanstack/react-virtual\')',
      ),
    ).toEqual([2, 3]);
    expect(
      libraryImports(
        "import { useVirtualRows } from '@app/web-kit';\n// @tanstack/react-virtual in a comment",
      ),
    ).toEqual([]);
  });

  it('imports no @tanstack/react-virtual in src/ (the kit virtualizes)', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) =>
      libraryImports(readFileSync(file, 'utf8')).map((line) => `${relative(SRC, file)}:${line}`),
    );
    expect(offenders).toEqual([]);
  });

  it('does not depend on @tanstack/react-virtual itself', () => {
    const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain(
      '@tanstack/react-virtual',
    );
  });
});
