/**
 * gocdnext's `extends` and hidden template jobs (a job whose name starts with "." is a template: it is
 * only extended, never run). Merging happens on the YAML nodes, before the jobs are read, so every error
 * in an inherited key still points at the line it was written on. Merge rules: a key of the child replaces
 * the parent's, except `variables`, `with` and `settings`, whose entries are merged name by name (the
 * child's win). Chains resolve from the root; a cycle or an unknown parent is an error naming it.
 */
import { isMap, isScalar, Pair, YAMLMap } from 'yaml';
import { childPath, type Entry, type Reader, type YNode } from './yaml-reader.js';

const MERGED_MAPS = new Set(['variables', 'with', 'settings']);

export const isTemplateJob = (name: string): boolean => name.startsWith('.');

function keyOf(pair: Pair): string | null {
  const k = pair.key as YNode;
  return k && isScalar(k) && k.value !== null ? String(k.value) : null;
}

function merge(r: Reader, parent: YAMLMap, child: YAMLMap): YAMLMap {
  const out = new YAMLMap();
  const childKeys = new Map<string, Pair>();
  for (const p of child.items) {
    const k = keyOf(p);
    if (k !== null && k !== 'extends') childKeys.set(k, p);
  }
  for (const p of parent.items) {
    const k = keyOf(p);
    if (k === null || k === 'extends') continue;
    const own = childKeys.get(k);
    if (!own) out.items.push(p);
    else if (MERGED_MAPS.has(k)) {
      const a = r.resolve(p.value as YNode);
      const b = r.resolve(own.value as YNode);
      if (a && b && isMap(a) && isMap(b)) {
        const m = new YAMLMap();
        const names = new Set(b.items.map(keyOf));
        m.items.push(...a.items.filter((x) => !names.has(keyOf(x))), ...b.items);
        out.items.push(new Pair(own.key, m));
        childKeys.delete(k);
      }
    }
  }
  out.items.push(...childKeys.values());
  // Errors about the job as a whole point at the child's own mapping.
  out.range = child.range;
  return out;
}

/**
 * The jobs to read: templates dropped, every `extends` chain merged into its job's node. Errors (unknown
 * parent, cycle, a non-string `extends`) are recorded on the reader; such a job keeps its own keys only.
 */
export function resolveExtends(r: Reader, entries: Entry[]): Entry[] {
  const byName = new Map(entries.map((e) => [e.key, e]));
  const done = new Map<string, YNode>();
  const resolve = (e: Entry, stack: string[]): YNode => {
    const hit = done.get(e.key);
    if (hit !== undefined) return hit;
    const node = r.resolve(e.node);
    let out: YNode = node;
    if (node && isMap(node)) {
      const ext = node.items.find((p) => keyOf(p) === 'extends');
      if (ext) {
        const path = childPath(e.path, 'extends');
        const target = r.resolve(ext.value as YNode);
        const name = target && isScalar(target) && typeof target.value === 'string' ? target.value : null;
        const parent = name === null ? undefined : byName.get(name);
        if (name === null) r.fail(target, path, 'must be the name of another job of this pipeline');
        else if (stack.includes(name))
          r.fail(target, path, `extends form a cycle: ${[...stack, name].join(' -> ')}`);
        else if (!parent) r.fail(target, path, `extends unknown job "${name}"`);
        else {
          const base = r.resolve(resolve(parent, [...stack, name]));
          if (base && isMap(base)) out = merge(r, base, node);
        }
        if (out === node) out = merge(r, new YAMLMap(), node);
      }
    }
    done.set(e.key, out);
    return out;
  };
  return entries.filter((e) => !isTemplateJob(e.key)).map((e) => ({ ...e, node: resolve(e, [e.key]) }));
}
