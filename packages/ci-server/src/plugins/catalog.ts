// Loads the plugin catalog once at server start: the built-in manifests, then every `.yaml`/`.yml`/`.json`
// file of the folders named by CI_CONFIG `plugins.manifest_dirs`, in the order given and by file name
// within a folder. A later manifest with the same name replaces an earlier one (a built-in too). A file that
// cannot be read, parsed or validated is logged and skipped: one bad file must not stop the server.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Compile } from 'typebox/compile';
import { parse } from 'yaml';
import { BUILTIN_PLUGINS } from './builtin.js';
import { type CatalogEntry, type PluginManifest, PluginManifestSchema } from './manifest.js';

/** Larger manifest files are refused (a manifest is a few KiB). */
export const MAX_MANIFEST_BYTES = 256 * 1024;
/** Files read per folder at most, so a wrong folder (a home directory) cannot stall the start. */
export const MAX_MANIFEST_FILES = 500;

export interface CatalogLog {
  warn(obj: object, msg: string): void;
}

const check = Compile(PluginManifestSchema);

/** The folders of `plugins.manifest_dirs` (a list or one string), resolved against the working directory. */
export function manifestDirs(file: Record<string, unknown>): string[] {
  const plugins = file.plugins;
  if (!plugins || typeof plugins !== 'object') return [];
  const dirs = (plugins as Record<string, unknown>).manifest_dirs;
  const list = typeof dirs === 'string' ? [dirs] : Array.isArray(dirs) ? dirs : [];
  return list.filter((d): d is string => typeof d === 'string' && d !== '').map((d) => resolve(d));
}

/** The manifests of one file: a manifest object or an array of them. Throws with a readable reason. */
function manifestsOf(path: string): PluginManifest[] {
  const size = statSync(path).size;
  if (size > MAX_MANIFEST_BYTES) throw new Error(`larger than ${MAX_MANIFEST_BYTES} bytes`);
  const text = readFileSync(path, 'utf8');
  const doc: unknown = path.endsWith('.json') ? JSON.parse(text) : parse(text);
  const items = Array.isArray(doc) ? doc : [doc];
  for (const [i, item] of items.entries()) {
    if (!check.Check(item)) {
      const e = [...check.Errors(item)][0];
      const where = items.length > 1 ? `manifest ${i}: ` : '';
      throw new Error(`${where}${e?.instancePath || '/'} ${e?.message ?? 'is not a plugin manifest'}`);
    }
  }
  return items as PluginManifest[];
}

export function loadPluginCatalog(dirs: string[], log: CatalogLog): CatalogEntry[] {
  const byName = new Map<string, CatalogEntry>();
  for (const m of BUILTIN_PLUGINS) byName.set(m.name, { ...m, source: 'builtin' });
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => /\.(ya?ml|json)$/i.test(n))
        .sort();
    } catch (err) {
      log.warn({ dir, err: (err as Error).message }, 'plugin manifest folder unreadable; skipped');
      continue;
    }
    if (names.length > MAX_MANIFEST_FILES) {
      log.warn({ dir, files: names.length }, `only the first ${MAX_MANIFEST_FILES} manifest files are read`);
      names = names.slice(0, MAX_MANIFEST_FILES);
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        for (const m of manifestsOf(path)) byName.set(m.name, { ...m, source: 'config' });
      } catch (err) {
        log.warn({ file: path, err: (err as Error).message }, 'malformed plugin manifest skipped');
      }
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}
