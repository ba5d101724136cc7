// Reading archived job logs: which job runs of a run are archived (one indexed query) and their lines, from
// the storage backend, decompressed and kept in a small in-memory cache bounded by line count, so an SSE
// client paging through a big archived log does not fetch the blob once per page.
import type { BlobStorage } from '../blobs/blob-storage.js';
import type { StoreDb } from '../store/database.js';
import type { LogArchivesTable } from '../store/operations-schema.js';
import { decodeArchive } from './archive-format.js';
import type { StoredLogLine } from './types.js';

/** Lines held decompressed in memory across all cached archives. */
const CACHE_LINES = 200_000;

export class ArchivedLogs {
  private readonly db: StoreDb;
  private readonly cache = new Map<string, StoredLogLine[]>();
  private cachedLines = 0;

  constructor(
    db: StoreDb,
    private readonly storage: () => BlobStorage,
  ) {
    this.db = db;
  }

  /** Archives of the run whose lines reach past `afterCursor`. */
  async ofRun(runId: string, afterCursor = 0): Promise<LogArchivesTable[]> {
    return this.db
      .selectFrom('log_archives')
      .selectAll()
      .where('run_id', '=', runId)
      .where('last_cursor', '>', afterCursor)
      .execute();
  }

  /** Every archived job run id of the run (archived jobs' leftover rows are ignored by readers). */
  async archivedJobIds(runId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('log_archives')
      .select('job_run_id')
      .where('run_id', '=', runId)
      .execute();
    return rows.map((r) => r.job_run_id);
  }

  async ofJob(jobRunId: string): Promise<LogArchivesTable | undefined> {
    return this.db
      .selectFrom('log_archives')
      .selectAll()
      .where('job_run_id', '=', jobRunId)
      .executeTakeFirst();
  }

  /** All lines of an archived job run, in seq order. A missing blob reads as no lines (and is logged by callers). */
  async lines(row: LogArchivesTable): Promise<StoredLogLine[]> {
    const hit = this.cache.get(row.job_run_id);
    if (hit) {
      this.cache.delete(row.job_run_id);
      this.cache.set(row.job_run_id, hit);
      return hit;
    }
    const gz = await this.storage().read(row.storage_key);
    const lines = gz ? decodeArchive(row.job_run_id, gz) : [];
    if (lines.length <= CACHE_LINES) {
      this.cache.set(row.job_run_id, lines);
      this.cachedLines += lines.length;
      for (const [key, value] of this.cache) {
        if (this.cachedLines <= CACHE_LINES) break;
        this.cache.delete(key);
        this.cachedLines -= value.length;
      }
    }
    return lines;
  }

  /** Drops a cached archive (its blob was deleted by retention). */
  forget(jobRunId: string): void {
    const hit = this.cache.get(jobRunId);
    if (hit) this.cachedLines -= hit.length;
    this.cache.delete(jobRunId);
  }
}
