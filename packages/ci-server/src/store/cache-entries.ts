// The cache entries of a project as the API shows them (most recently used first) and the admin purge of
// one entry. Saving and looking up entries for agents is artifacts/caches.ts.
import type { StoreDb } from './database.js';

export interface CacheEntryView {
  id: string;
  key: string;
  size_bytes: number;
  created_at: string;
  last_used_at: string;
}

export async function listCacheEntries(
  db: StoreDb,
  projectId: string,
  page: { limit: number; offset: number },
): Promise<{ entries: CacheEntryView[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('cache_entries')
      .select(['id', 'key', 'size_bytes', 'created_at', 'last_used_at'])
      .where('project_id', '=', projectId)
      .orderBy('last_used_at', 'desc')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('cache_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow(),
  ]);
  // bigint sizes read as strings on PostgreSQL.
  return { entries: rows.map((r) => ({ ...r, size_bytes: Number(r.size_bytes) })), total: Number(total.n) };
}

/** Removes the project's entry; its blob's storage key, or undefined when the project has no such entry. */
export async function deleteCacheEntry(
  db: StoreDb,
  projectId: string,
  id: string,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom('cache_entries')
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .returning('storage_key')
    .executeTakeFirst();
  return row?.storage_key;
}
