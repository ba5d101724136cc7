// House-rule checks on source files themselves: which modules import which, and which files are too long.
// Used by each service's house tests so "arrows point down" and "files read whole" are proven, not hoped for.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every `.ts` file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The source files under `dir` longer than `maxLines` lines (path relative to `dir`): the house's size rule. */
export function filesOver(dir: string, maxLines: number): { file: string; lines: number }[] {
  return sourceFiles(dir)
    .map((file) => ({ file: relative(dir, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > maxLines);
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2]);
  return out;
}

/**
 * The imports into folder `layer` (e.g. `http`) made by files of `src` outside it, except the files named in
 * `roots` (composition roots such as server.ts): each as "file -> specifier".
 */
export function importsInto(src: string, layer: string, roots: readonly string[]): string[] {
  const offenders: string[] = [];
  for (const file of sourceFiles(src)) {
    const rel = relative(src, file);
    if (rel.startsWith(`${layer}/`) || roots.includes(rel)) continue;
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = relative(src, join(file, '..', spec));
      if (target === layer || target.startsWith(`${layer}/`)) offenders.push(`${rel} -> ${spec}`);
    }
  }
  return offenders;
}

/** True when an import clause brings in types only (`type { A }`, `{ type A, type B }`): erased at run time. */
export function typeOnly(clause: string): boolean {
  const c = clause.trim();
  if (c.startsWith('type ')) return true;
  const braces = /^\{([^}]*)\}$/.exec(c);
  if (!braces) return false;
  const names = braces[1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

/** The source file a relative specifier of `from` names (`./x.js` → `x.ts` or `x/index.ts`), if any. */
export function moduleFile(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this form
    }
  }
  return undefined;
}
