// Cache blobs of DownloadCache/UploadCache: one immutable archive per (project, key), kept on the storage
// backend under `caches/<project id>/<entry id>` with a `cache_entries` row (the retention sweeper evicts
// entries by size and last use). The first complete upload of a
// key wins; later uploads of the same key are read to the end and discarded (the agent also skips keys that
// exist). A missing or unreadable entry is simply "not found": a cache is an optimisation, never a failure.
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStorage } from '../blobs/blob-storage.js';
import { FilesystemStorage } from '../blobs/filesystem-storage.js';
import type { StoreDb } from '../store/database.js';
import { newId, nowIso } from '../store/ids.js';
import { BlobRejectedError, writeTempBlob } from './blob-files.js';

/** Largest cache archive accepted by default (2 GiB). */
export const DEFAULT_MAX_CACHE_BYTES = 2 * 1024 ** 3;
export const MAX_CACHE_KEY = 1_000;

export interface CacheHit {
  found: true;
  sizeBytes: number;
  /** The archive's bytes (256 KiB chunks). */
  open: () => Readable;
}

export interface CacheStoreOptions {
  db: StoreDb;
  /** Temporary upload files live under `<dataDir>/tmp`. */
  dataDir: string;
  storage: BlobStorage;
  maxBytes?: number;
}

export class CacheBlobStore {
  private readonly db: StoreDb;
  private readonly tmpDir: string;
  readonly storage: BlobStorage;
  private readonly maxBytes: number;

  /** The folder of the blobs when the backend is a folder ('' on S3): what operators and tests look at. */
  get root(): string {
    return this.storage instanceof FilesystemStorage ? join(this.storage.root, 'caches') : '';
  }

  constructor(options: CacheStoreOptions) {
    this.db = options.db;
    this.tmpDir = join(options.dataDir, 'tmp', 'caches');
    this.storage = options.storage;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_CACHE_BYTES;
  }

  /** The entry of `key` in the project, or `{found: false}`. Marks the entry used. */
  async lookup(projectSlug: string, key: string): Promise<CacheHit | { found: false }> {
    if (!validKey(key)) return { found: false };
    const row = await this.db
      .selectFrom('cache_entries')
      .innerJoin('projects', 'projects.id', 'cache_entries.project_id')
      .select(['cache_entries.id', 'cache_entries.storage_key'])
      .where('projects.slug', '=', projectSlug)
      .where('cache_entries.key', '=', key)
      .executeTakeFirst();
    if (!row) return { found: false };
    const blob = await this.storage.open(`caches/${row.storage_key}`).catch(() => undefined);
    if (!blob) return { found: false };
    await this.db
      .updateTable('cache_entries')
      .set({ last_used_at: nowIso() })
      .where('id', '=', row.id)
      .execute();
    return {
      found: true,
      sizeBytes: blob.size,
      open: blob.stream,
    };
  }

  /**
   * Saves an archive under `key` unless the key already has one. Returns whether this upload was kept.
   * Throws `BlobRejectedError` for an unknown project (`not_found`), a bad key (`invalid`) or an archive
   * above the size limit (`too_large`).
   */
  async save(
    projectSlug: string,
    key: string,
    chunks: AsyncIterable<Uint8Array>,
  ): Promise<{ saved: boolean }> {
    if (!validKey(key))
      throw new BlobRejectedError('invalid', `a cache key is 1 to ${MAX_CACHE_KEY} characters`);
    const project = await this.db
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', projectSlug)
      .executeTakeFirst();
    if (!project) throw new BlobRejectedError('not_found', `project ${projectSlug} does not exist`);
    const blob = await writeTempBlob(chunks, this.tmpDir, this.maxBytes);
    const id = newId();
    const storageKey = `${project.id}/${id}`;
    await this.storage.putFile(`caches/${storageKey}`, blob.tempPath);
    const now = nowIso();
    const inserted = await this.db
      .insertInto('cache_entries')
      .values({
        id,
        project_id: project.id,
        key,
        size_bytes: blob.sizeBytes,
        content_sha256: blob.sha256,
        storage_key: storageKey,
        created_at: now,
        last_used_at: now,
      })
      .onConflict((oc) => oc.columns(['project_id', 'key']).doNothing())
      .returning('id')
      .executeTakeFirst()
      .catch(async (err) => {
        await this.storage.delete(`caches/${storageKey}`).catch(() => {});
        throw err;
      });
    if (!inserted) {
      // Another upload of the same key finished first: entries are immutable, keep that one.
      await this.storage.delete(`caches/${storageKey}`).catch(() => {});
      return { saved: false };
    }
    return { saved: true };
  }
}

function validKey(key: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused here
  return typeof key === 'string' && key.length > 0 && key.length <= MAX_CACHE_KEY && !/[\u0000]/.test(key);
}
