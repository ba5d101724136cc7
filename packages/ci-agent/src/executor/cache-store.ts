// Where cache archives live. The executor talks to a CacheStore; this file has the interface and the
// local-directory implementation (`<workdir>/cache`), so a server-backed store can be plugged in later
// without touching the executor. Entries are scoped by project: one project cannot read or poison another
// project's cache by choosing the same key.
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface CacheRef {
  project: string;
  /** The resolved key (templates already replaced). */
  key: string;
}

export interface CacheStore {
  has(ref: CacheRef): Promise<boolean>;
  /** Copies the archive stored under `ref` to `destFile`; false when there is none. */
  download(ref: CacheRef, destFile: string): Promise<boolean>;
  /** Stores the tar.gz at `srcFile` under `ref`; keeps the existing entry if another job saved it first. */
  upload(ref: CacheRef, srcFile: string): Promise<void>;
}

/** A file name that cannot escape the cache directory, whatever the key holds. */
export function cacheEntryName(ref: CacheRef): string {
  return createHash('sha256').update(`${ref.project}\0${ref.key}`).digest('hex');
}

export class LocalCacheStore implements CacheStore {
  constructor(readonly dir: string) {}

  private file(ref: CacheRef): string {
    return join(this.dir, `${cacheEntryName(ref)}.tar.gz`);
  }

  async has(ref: CacheRef): Promise<boolean> {
    try {
      return (await stat(this.file(ref))).isFile();
    } catch {
      return false;
    }
  }

  async download(ref: CacheRef, destFile: string): Promise<boolean> {
    try {
      await copyFile(this.file(ref), destFile);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async upload(ref: CacheRef, srcFile: string): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    if (await this.has(ref)) return;
    const target = this.file(ref);
    // Copy under a temporary name and rename: readers never see half an archive, and two jobs saving
    // the same key at once both leave a complete one.
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await copyFile(srcFile, tmp);
      await writeFile(
        join(this.dir, `${cacheEntryName(ref)}.json`),
        JSON.stringify({ project: ref.project, key: ref.key, created_at: new Date().toISOString() }),
      );
      await rename(tmp, target);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}
