// Job caches (spec/pipeline-yaml.md `cache`): the key template `{{ hash "file" }}` becomes the SHA-256 of
// that file in the checkout; before the script the archive stored under the key is extracted into the
// checkout, and after a successful script the listed paths are archived (tar.gz) and stored, unless the
// key already has an entry (keys are immutable, like GitHub's and GitLab's). A cache is an optimisation:
// a missing file, a corrupt archive or a failing store is a warning in the log, never a job failure.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, realpath, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { create as tarCreate, extract as tarExtract } from 'tar';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { CacheAssignment } from '../job-spec.js';
import type { CacheRef, CacheStore } from './cache-store.js';

export class CacheKeyError extends Error {
  override name = 'CacheKeyError';
}

export const MAX_CACHE_KEY_LENGTH = 1024;

const TEMPLATE = /\{\{\s*(.*?)\s*\}\}/g;
const HASH_CALL = /^hash\s+(?:"([^"]+)"|'([^']+)')$/;

/** A path inside `root`, or an error when it is absolute or climbs out. */
export function insidePath(root: string, path: string, what: string): string {
  const clean = normalize(path.replace(/\/+$/, '') || '.');
  if (isAbsolute(clean) || clean === '..' || clean.startsWith('../')) {
    throw new CacheKeyError(`${what} ${path} is outside the checkout`);
  }
  return resolve(root, clean);
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Replaces every `{{ hash "path" }}` with the hex SHA-256 of that file in the checkout. */
export async function resolveCacheKey(template: string, checkout: string): Promise<string> {
  const parts: Promise<string>[] = [];
  const pieces: (string | number)[] = [];
  let last = 0;
  for (const m of template.matchAll(TEMPLATE)) {
    pieces.push(template.slice(last, m.index));
    const call = HASH_CALL.exec(m[1]);
    if (!call)
      throw new CacheKeyError(`unknown cache key template {{ ${m[1]} }}; only {{ hash "file" }} exists`);
    const file = call[1] ?? call[2];
    const path = insidePath(checkout, file, 'cache key file');
    parts.push(
      sha256File(path).catch(() => {
        throw new CacheKeyError(`cache key file ${file} does not exist in the checkout`);
      }),
    );
    pieces.push(parts.length - 1);
    last = m.index + m[0].length;
  }
  pieces.push(template.slice(last));
  const hashes = await Promise.all(parts);
  const key = pieces.map((p) => (typeof p === 'number' ? hashes[p] : p)).join('');
  if (!key.trim()) throw new CacheKeyError('cache key is empty');
  if (key.length > MAX_CACHE_KEY_LENGTH)
    throw new CacheKeyError(`cache key is longer than ${MAX_CACHE_KEY_LENGTH}`);
  return key;
}

/**
 * Refuses a path whose real location is outside the checkout: the archive is made by the agent outside any
 * sandbox, and tar reads `link/file` through a link the job planted (`ln -s / link`), which would put the
 * agent's identity or any host file into a cache the next job restores.
 */
async function staysInside(checkout: string, root: string, rel: string, shown: string): Promise<void> {
  const real = await realpath(join(checkout, rel)).catch(() => undefined);
  const inside = real === undefined ? '..' : relative(root, real);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside))
    throw new CacheKeyError(`cache path ${shown} leads out of the checkout`);
}

/** The checkout-relative paths of a cache entry that exist (globs expanded), none leading out of it. */
export async function existingCachePaths(paths: string[], checkout: string): Promise<string[]> {
  const found = new Set<string>();
  // The checkout's own real location, resolved once for every path checked against it.
  // (A missing checkout has no paths to cache: each is absent below, before this is used.)
  const root = await realpath(checkout).catch(() => checkout);
  for (const p of paths) {
    if (isDynamicPattern(p)) {
      insidePath(checkout, p.split(/[*?[{(!]/)[0] || '.', 'cache path');
      const matches = await glob(p, { cwd: checkout, dot: true, onlyFiles: false, expandDirectories: false });
      for (const m of matches) {
        const rel = relative(checkout, insidePath(checkout, m, 'cache path'));
        await staysInside(checkout, root, rel, m);
        found.add(rel);
      }
      continue;
    }
    const abs = insidePath(checkout, p, 'cache path');
    try {
      await lstat(abs);
    } catch {
      continue; // Absent paths are simply not cached.
    }
    const rel = relative(checkout, abs) || '.';
    await staysInside(checkout, root, rel, p);
    found.add(rel);
  }
  return [...found].sort();
}

export interface CacheOutcome {
  key: string;
  /** The resolved key, when the template could be resolved. */
  resolved?: string;
  restored?: boolean;
  saved?: boolean;
  warning?: string;
}

export interface CacheContext {
  store: CacheStore;
  project: string;
  checkout: string;
  /** Where archives are staged (the workspace's private dir). */
  stagingDir: string;
  note: (text: string) => void;
  warn: (text: string) => void;
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Restores each cache before the script; returns one outcome per entry (resolved keys reused by save). */
export async function restoreCaches(entries: CacheAssignment[], ctx: CacheContext): Promise<CacheOutcome[]> {
  const outcomes: CacheOutcome[] = [];
  for (const [i, entry] of entries.entries()) {
    const outcome: CacheOutcome = { key: entry.key };
    outcomes.push(outcome);
    try {
      outcome.resolved = await resolveCacheKey(entry.key, ctx.checkout);
      const ref: CacheRef = { project: ctx.project, key: outcome.resolved };
      const archive = join(ctx.stagingDir, `cache-restore-${i}.tar.gz`);
      try {
        outcome.restored = await ctx.store.download(ref, archive);
        if (!outcome.restored) {
          ctx.note(`no cache for key ${outcome.resolved}`);
          continue;
        }
        await tarExtract({ file: archive, cwd: ctx.checkout, preserveOwner: false, strict: true });
        ctx.note(`cache ${outcome.resolved} restored`);
      } finally {
        await rm(archive, { force: true });
      }
    } catch (err) {
      outcome.restored = false;
      outcome.warning = `cache ${outcome.resolved ?? entry.key} not restored: ${errorText(err)}`;
      ctx.warn(outcome.warning);
    }
  }
  return outcomes;
}

/** Saves each cache after a successful script, unless its key already has an entry. */
export async function saveCaches(
  entries: CacheAssignment[],
  restored: CacheOutcome[],
  ctx: CacheContext,
): Promise<CacheOutcome[]> {
  const outcomes: CacheOutcome[] = [];
  for (const [i, entry] of entries.entries()) {
    const outcome: CacheOutcome = { key: entry.key, resolved: restored[i]?.resolved };
    outcomes.push(outcome);
    const archive = join(ctx.stagingDir, `cache-save-${i}.tar.gz`);
    try {
      // The key was resolved before the script ran: a script changing the lock file must not change it.
      if (!outcome.resolved) outcome.resolved = await resolveCacheKey(entry.key, ctx.checkout);
      const ref: CacheRef = { project: ctx.project, key: outcome.resolved };
      if (await ctx.store.has(ref)) {
        outcome.saved = false;
        ctx.note(`cache ${outcome.resolved} already saved; not replaced`);
        continue;
      }
      const paths = await existingCachePaths(entry.paths, ctx.checkout);
      if (paths.length === 0) {
        outcome.saved = false;
        ctx.note(`cache ${outcome.resolved}: none of ${entry.paths.join(', ')} exists; nothing saved`);
        continue;
      }
      await tarCreate({ gzip: true, file: archive, cwd: ctx.checkout, portable: true }, paths);
      const size = (await stat(archive)).size;
      await ctx.store.upload(ref, archive);
      outcome.saved = true;
      ctx.note(`cache ${outcome.resolved} saved (${paths.join(', ')}; ${size} bytes)`);
    } catch (err) {
      outcome.saved = false;
      outcome.warning = `cache ${outcome.resolved ?? entry.key} not saved: ${errorText(err)}`;
      ctx.warn(outcome.warning);
    } finally {
      await rm(archive, { force: true });
    }
  }
  return outcomes;
}
