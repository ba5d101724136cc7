// The log archiver: a finished job run whose log is older than its project's effective policy (the project
// override, else CI_CONFIG `retention.log_archive`) gets its rows streamed into one gzip blob on the storage
// backend (archive-format.ts), a `log_archives` row committed, and its rows deleted in short batches. Every
// step is idempotent, so an archive interrupted by a crash or restart is simply done again: a blob without
// its row is rewritten under the same key, a row whose log rows remain has them deleted by `finishPending`.
// Readers ignore the rows of an archived job, so they never see a line twice.
import { createWriteStream, mkdirSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { randomHex } from '@app/kit';
import type { Kysely } from 'kysely';
import type { BlobStorage } from '../blobs/blob-storage.js';
import type { LogArchivePolicy } from '../retention/retention-settings.js';
import { decodeStoredPolicy } from '../retention/retention-settings.js';
import type { StoreDb, StoreSchema } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import { encodeLine } from './archive-format.js';

/** Rows read per page while compressing, and deleted per statement afterwards. */
const PAGE = 5_000;

type DB = StoreSchema &
  StoreSchema & { project_settings: { project_id: string; key: string; value: string } };

export interface ArchiverDeps {
  db: StoreDb;
  storage: BlobStorage;
  /** Temporary blobs are written here before they are handed to the backend. */
  tmpDir: string;
  globalPolicy: LogArchivePolicy;
  /** Counts each archive job by result (`service_log_archive_jobs_total`). */
  count?: (result: 'archived' | 'failed') => void;
  log?: { error(obj: object, msg: string): void };
  now?: () => Date;
}

export interface ArchiveResult {
  archived: number;
  failed: number;
  raw_bytes: number;
  stored_bytes: number;
}

export class LogArchiver {
  private readonly db: Kysely<DB>;
  private readonly now: () => Date;

  constructor(private readonly deps: ArchiverDeps) {
    this.db = deps.db as Kysely<DB>;
    this.now = deps.now ?? (() => new Date());
  }

  /** Archives up to `limit` due job runs, oldest first; finishes interrupted archives first. */
  async archiveDue(limit = 50): Promise<ArchiveResult> {
    await this.finishPending();
    const out: ArchiveResult = { archived: 0, failed: 0, raw_bytes: 0, stored_bytes: 0 };
    for (const jobRunId of await this.dueJobs(limit)) {
      try {
        const done = await this.archiveJob(jobRunId);
        if (!done) continue;
        out.archived++;
        out.raw_bytes += done.raw_bytes;
        out.stored_bytes += done.stored_bytes;
        this.deps.count?.('archived');
      } catch (err) {
        out.failed++;
        this.deps.count?.('failed');
        this.deps.log?.error({ err, jobRunId }, 'log archive failed; it is retried on the next pass');
      }
    }
    return out;
  }

  /** Job runs due for archiving under each effective policy (one query per distinct project override). */
  async dueJobs(limit: number): Promise<string[]> {
    const overrides = await this.db
      .selectFrom('project_settings')
      .select(['project_id', 'value'])
      .where('key', '=', 'log_archive')
      .execute();
    const policies = new Map<string, LogArchivePolicy>();
    for (const o of overrides) {
      const p = decodeStoredPolicy(o.value);
      if (p) policies.set(o.project_id, p);
    }
    const now = this.now().getTime();
    const found: string[] = [];
    const query = (cutoff: string, projects: { in?: string[]; notIn?: string[] }) => {
      let q = this.db
        .selectFrom('job_runs')
        .innerJoin('runs', 'runs.id', 'job_runs.run_id')
        .select('job_runs.id')
        .where('job_runs.finished_at', 'is not', null)
        .where('job_runs.finished_at', '<=', cutoff)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('log_archives')
                .select('job_run_id')
                .whereRef('log_archives.job_run_id', '=', 'job_runs.id'),
            ),
          ),
        )
        .where((eb) =>
          eb.exists(
            eb.selectFrom('log_lines').select('seq').whereRef('log_lines.job_run_id', '=', 'job_runs.id'),
          ),
        );
      if (projects.in) q = q.where('runs.project_id', 'in', projects.in);
      if (projects.notIn && projects.notIn.length > 0)
        q = q.where('runs.project_id', 'not in', projects.notIn);
      return q
        .orderBy('job_runs.finished_at')
        .limit(limit - found.length)
        .execute();
    };
    const global = this.deps.globalPolicy;
    if (global.enabled) {
      const rows = await query(new Date(now - global.afterMs).toISOString(), { notIn: [...policies.keys()] });
      found.push(...rows.map((r) => r.id));
    }
    for (const [projectId, p] of policies) {
      if (!p.enabled || found.length >= limit) continue;
      const rows = await query(new Date(now - p.afterMs).toISOString(), { in: [projectId] });
      found.push(...rows.map((r) => r.id));
    }
    return found;
  }

  /** Archives one job run's log; undefined when it has no rows or is archived already. */
  async archiveJob(jobRunId: string): Promise<{ raw_bytes: number; stored_bytes: number } | undefined> {
    const job = await this.db
      .selectFrom('job_runs')
      .select('run_id')
      .where('id', '=', jobRunId)
      .executeTakeFirst();
    if (!job) return undefined;
    if (
      await this.db
        .selectFrom('log_archives')
        .select('job_run_id')
        .where('job_run_id', '=', jobRunId)
        .executeTakeFirst()
    )
      return undefined;
    const stats = { lines: 0, maxSeq: 0, first: Number.MAX_SAFE_INTEGER, last: 0, raw: 0 };
    const db = this.db;
    async function* encoded(): AsyncGenerator<string> {
      let after = 0;
      for (;;) {
        const page = await db
          .selectFrom('log_lines')
          .select(['seq', 'stream', 'at', 'text', 'run_seq'])
          .where('job_run_id', '=', jobRunId)
          .where('seq', '>', after)
          .orderBy('seq')
          .limit(PAGE)
          .execute();
        if (page.length === 0) return;
        let chunk = '';
        for (const line of page) {
          chunk += encodeLine(line);
          const cursor = Number(line.run_seq ?? 0);
          stats.lines++;
          stats.raw += Buffer.byteLength(line.text);
          stats.maxSeq = Number(line.seq);
          stats.first = Math.min(stats.first, cursor);
          stats.last = Math.max(stats.last, cursor);
        }
        yield chunk;
        after = Number(page[page.length - 1].seq);
        if (page.length < PAGE) return;
      }
    }
    mkdirSync(this.deps.tmpDir, { recursive: true });
    const temp = join(this.deps.tmpDir, `${jobRunId}-${randomHex(6)}.jsonl.gz`);
    let stored = 0;
    try {
      const out = createWriteStream(temp, { mode: 0o600 });
      await pipeline(Readable.from(encoded()), createGzip({ level: 6 }), out);
      stored = out.bytesWritten;
      if (stats.lines === 0) return undefined;
      const key = `logs/${job.run_id}/${jobRunId}.jsonl.gz`;
      await this.deps.storage.putFile(key, temp);
      await this.db
        .insertInto('log_archives')
        .values({
          job_run_id: jobRunId,
          run_id: job.run_id,
          storage_key: key,
          lines: stats.lines,
          max_seq: stats.maxSeq,
          first_cursor: stats.first,
          last_cursor: stats.last,
          raw_bytes: stats.raw,
          stored_bytes: stored,
          archived_at: nowIso(),
        })
        .onConflict((oc) => oc.column('job_run_id').doNothing())
        .execute();
    } finally {
      await unlink(temp).catch(() => {});
    }
    await this.deleteRows(jobRunId);
    return { raw_bytes: stats.raw, stored_bytes: stored };
  }

  /** Deletes an archived job's rows, PAGE seqs per statement, so no transaction holds the table for long. */
  private async deleteRows(jobRunId: string): Promise<void> {
    for (;;) {
      const top = await this.db
        .selectFrom('log_lines')
        .select('seq')
        .where('job_run_id', '=', jobRunId)
        .orderBy('seq')
        .offset(PAGE - 1)
        .limit(1)
        .executeTakeFirst();
      if (!top) {
        await this.db.deleteFrom('log_lines').where('job_run_id', '=', jobRunId).execute();
        return;
      }
      await this.db
        .deleteFrom('log_lines')
        .where('job_run_id', '=', jobRunId)
        .where('seq', '<=', Number(top.seq))
        .execute();
    }
  }

  /** Archived jobs whose rows were not all deleted (the process stopped in between): delete them now. */
  async finishPending(limit = 100): Promise<number> {
    const rows = await this.db
      .selectFrom('log_archives')
      .select('job_run_id')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('log_lines')
            .select('seq')
            .whereRef('log_lines.job_run_id', '=', 'log_archives.job_run_id'),
        ),
      )
      .limit(limit)
      .execute();
    for (const r of rows) await this.deleteRows(r.job_run_id);
    return rows.length;
  }
}
