// The retention sweeper: one pass applies the quotas of CI_CONFIG `retention` (retention-settings.ts) in
// small batches, each its own short statement or transaction, so the live path (log ingestion, dispatch)
// never waits behind it: finished runs beyond the per-pipeline count or the maximum age; job logs older than
// `log_days` (rows and archives) and the oldest rows beyond `log_bytes` (each job's rows are one "partition"
// in `service_retention_dropped_log_partitions_total`: logs are partitioned by job run); artifacts past their
// `expire_in` (or `artifact_days`) and beyond `artifact_bytes`; caches idle too long or beyond a project's
// byte quota (least recently used first); and the blob prefixes of deleted projects and runs. The report of
// the last pass is kept in server_settings for GET /api/v1/admin/retention.
import { sql } from 'kysely';
import type { BlobStorage } from '../blobs/blob-storage.js';
import type { RunStatus } from '../domain/index.js';
import type { ArchivedLogs } from '../logs/archived-logs.js';
import { recordRunBlobs } from '../store/blob-deletions.js';
import type { StoreDb } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import { writeServerSetting } from '../store/settings.js';
import type { Quotas } from './retention-settings.js';

export const LAST_SWEEP_KEY = 'retention.last_run';
const BATCH = 500;
const DAY_MS = 86_400_000;
const TERMINAL: RunStatus[] = ['success', 'failed', 'canceled'];

export interface SweepRemoved {
  runs: number;
  log_lines: number;
  log_archives: number;
  dropped_log_partitions: number;
  artifacts: number;
  artifact_bytes: number;
  cache_entries: number;
  cache_bytes: number;
  blob_prefixes: number;
}

export interface SweepReport {
  started_at: string;
  finished_at: string;
  duration_ms: number;
  removed: SweepRemoved;
  errors: string[];
}

export interface SweeperDeps {
  db: StoreDb;
  storage: BlobStorage;
  quotas: Quotas;
  archives?: ArchivedLogs;
  /** `service_retention_dropped_log_partitions_total`. */
  droppedPartitions?: (n: number) => void;
  now?: () => Date;
  log?: { error(obj: object, msg: string): void };
}

const num = (v: unknown) => Number(v ?? 0);

export class RetentionSweeper {
  private readonly db: StoreDb;
  private readonly now: () => Date;

  constructor(private readonly deps: SweeperDeps) {
    this.db = deps.db;
    this.now = deps.now ?? (() => new Date());
  }

  async sweep(): Promise<SweepReport> {
    const started = Date.now();
    const startedAt = nowIso();
    const removed: SweepRemoved = {
      runs: 0,
      log_lines: 0,
      log_archives: 0,
      dropped_log_partitions: 0,
      artifacts: 0,
      artifact_bytes: 0,
      cache_entries: 0,
      cache_bytes: 0,
      blob_prefixes: 0,
    };
    const errors: string[] = [];
    const step = async (name: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        errors.push(`${name}: ${(err as Error).message}`);
        this.deps.log?.error({ err, step: name }, 'retention step failed; the next pass retries');
      }
    };
    await step('runs', () => this.sweepRuns(removed));
    await step('logs', () => this.sweepLogs(removed));
    await step('artifacts', () => this.sweepArtifacts(removed));
    await step('caches', () => this.sweepCaches(removed));
    await step('blobs', () => this.sweepBlobs(removed));
    const report: SweepReport = {
      started_at: startedAt,
      finished_at: nowIso(),
      duration_ms: Date.now() - started,
      removed,
      errors,
    };
    const value = JSON.stringify(report);
    await writeServerSetting(this.db, LAST_SWEEP_KEY, value, report.finished_at);
    return report;
  }

  private cutoff(days: number): string {
    return new Date(this.now().getTime() - days * DAY_MS).toISOString();
  }

  /** Deletes runs in batches: their blob prefixes are recorded in the same transaction. */
  private async deleteRuns(ids: string[], reason: string, removed: SweepRemoved): Promise<void> {
    for (let i = 0; i < ids.length; i += 200) {
      const batch = ids.slice(i, i + 200);
      await this.db.transaction().execute(async (trx) => {
        await recordRunBlobs(trx, batch, reason);
        const res = await trx.deleteFrom('runs').where('id', 'in', batch).executeTakeFirst();
        removed.runs += Number(res.numDeletedRows);
      });
    }
  }

  private async sweepRuns(removed: SweepRemoved): Promise<void> {
    const { runs_per_pipeline, run_days } = this.deps.quotas;
    const cutoff = this.cutoff(run_days);
    for (;;) {
      const old = await this.db
        .selectFrom('runs')
        .select('id')
        .where('status', 'in', TERMINAL)
        .where('finished_at', '<', cutoff)
        .limit(BATCH)
        .execute();
      if (old.length === 0) break;
      await this.deleteRuns(
        old.map((r) => r.id),
        'run-age',
        removed,
      );
      if (old.length < BATCH) break;
    }
    const over = await this.db
      .selectFrom('runs')
      .select(['pipeline_id', (eb) => eb.fn.countAll().as('n')])
      .where('status', 'in', TERMINAL)
      .groupBy('pipeline_id')
      .having((eb) => eb.fn.countAll(), '>', runs_per_pipeline)
      .execute();
    for (const p of over) {
      for (;;) {
        const extra = await this.db
          .selectFrom('runs')
          .select('id')
          .where('pipeline_id', '=', p.pipeline_id)
          .where('status', 'in', TERMINAL)
          .orderBy('counter', 'desc')
          .offset(runs_per_pipeline)
          .limit(BATCH)
          .execute();
        if (extra.length === 0) break;
        await this.deleteRuns(
          extra.map((r) => r.id),
          'run-count',
          removed,
        );
        if (extra.length < BATCH) break;
      }
    }
  }

  /** Drops whole job logs (rows of a batch of job runs in one statement), oldest first. */
  private async dropJobLogs(jobIds: string[], removed: SweepRemoved): Promise<void> {
    if (jobIds.length === 0) return;
    const res = await this.db.deleteFrom('log_lines').where('job_run_id', 'in', jobIds).executeTakeFirst();
    removed.log_lines += Number(res.numDeletedRows);
    removed.dropped_log_partitions += jobIds.length;
    this.deps.droppedPartitions?.(jobIds.length);
  }

  private async sweepLogs(removed: SweepRemoved): Promise<void> {
    const { log_days, log_bytes } = this.deps.quotas;
    const cutoff = this.cutoff(log_days);
    for (;;) {
      const jobs = await this.db
        .selectFrom('job_runs')
        .select('id')
        .where('finished_at', '<', cutoff)
        .where((eb) =>
          eb.exists(
            eb.selectFrom('log_lines').select('seq').whereRef('log_lines.job_run_id', '=', 'job_runs.id'),
          ),
        )
        .limit(BATCH)
        .execute();
      if (jobs.length === 0) break;
      await this.dropJobLogs(
        jobs.map((j) => j.id),
        removed,
      );
      if (jobs.length < BATCH) break;
    }
    // Archives past the log age go too: blob first, then the row (a leftover row would read as empty).
    for (;;) {
      const old = await this.db
        .selectFrom('log_archives')
        .innerJoin('job_runs', 'job_runs.id', 'log_archives.job_run_id')
        .select(['log_archives.job_run_id', 'log_archives.storage_key'])
        .where('job_runs.finished_at', '<', cutoff)
        .limit(BATCH)
        .execute();
      if (old.length === 0) break;
      for (const a of old) {
        await this.deps.storage.delete(a.storage_key);
        this.deps.archives?.forget(a.job_run_id);
      }
      const res = await this.db
        .deleteFrom('log_archives')
        .where(
          'job_run_id',
          'in',
          old.map((a) => a.job_run_id),
        )
        .executeTakeFirst();
      removed.log_archives += Number(res.numDeletedRows);
      if (old.length < BATCH) break;
    }
    // Total bytes of log text in the table: the oldest finished jobs' logs go until it fits.
    const total = await this.db
      .selectFrom('log_lines')
      .select(sql<number>`coalesce(sum(length(text)), 0)`.as('bytes'))
      .executeTakeFirstOrThrow();
    let excess = num(total.bytes) - log_bytes;
    while (excess > 0) {
      const oldest = await this.db
        .selectFrom('job_runs')
        .innerJoin('log_lines', 'log_lines.job_run_id', 'job_runs.id')
        .select(['job_runs.id', sql<number>`sum(length(log_lines.text))`.as('bytes')])
        .where('job_runs.finished_at', 'is not', null)
        .groupBy(['job_runs.id', 'job_runs.finished_at'])
        .orderBy('job_runs.finished_at')
        .limit(50)
        .execute();
      if (oldest.length === 0) break;
      const take: string[] = [];
      for (const j of oldest) {
        if (excess <= 0) break;
        take.push(j.id);
        excess -= num(j.bytes);
      }
      await this.dropJobLogs(take, removed);
    }
  }

  private async deleteArtifacts(
    rows: { id: string; storage_key: string | null; size_bytes: unknown }[],
    removed: SweepRemoved,
  ): Promise<void> {
    if (rows.length === 0) return;
    // The rows first: a download racing the sweep finds no artifact rather than a row without its blob.
    await this.db
      .deleteFrom('artifacts')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    for (const r of rows) {
      if (r.storage_key) await this.deps.storage.delete(`artifacts/${r.storage_key}`);
      removed.artifacts++;
      removed.artifact_bytes += num(r.size_bytes);
    }
  }

  private async sweepArtifacts(removed: SweepRemoved): Promise<void> {
    const now = this.now().toISOString();
    const ageCutoff = this.cutoff(this.deps.quotas.artifact_days);
    for (;;) {
      const rows = await this.db
        .selectFrom('artifacts')
        .select(['id', 'storage_key', 'size_bytes'])
        .where((eb) =>
          eb.or([
            eb('expires_at', '<=', now),
            eb.and([eb('expires_at', 'is', null), eb('created_at', '<', ageCutoff)]),
          ]),
        )
        .limit(BATCH)
        .execute();
      await this.deleteArtifacts(rows, removed);
      if (rows.length < BATCH) break;
    }
    const total = await this.db
      .selectFrom('artifacts')
      .select((eb) => eb.fn.sum('size_bytes').as('bytes'))
      .executeTakeFirstOrThrow();
    let excess = num(total.bytes) - this.deps.quotas.artifact_bytes;
    while (excess > 0) {
      const oldest = await this.db
        .selectFrom('artifacts')
        .select(['id', 'storage_key', 'size_bytes'])
        .orderBy('created_at')
        .limit(100)
        .execute();
      if (oldest.length === 0) break;
      const take = [];
      for (const a of oldest) {
        if (excess <= 0) break;
        take.push(a);
        excess -= num(a.size_bytes);
      }
      await this.deleteArtifacts(take, removed);
    }
  }

  private async deleteCaches(
    rows: { id: string; storage_key: string; size_bytes: unknown }[],
    removed: SweepRemoved,
  ): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .deleteFrom('cache_entries')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    for (const r of rows) {
      await this.deps.storage.delete(`caches/${r.storage_key}`);
      removed.cache_entries++;
      removed.cache_bytes += num(r.size_bytes);
    }
  }

  private async sweepCaches(removed: SweepRemoved): Promise<void> {
    const idle = this.cutoff(this.deps.quotas.cache_idle_days);
    for (;;) {
      const rows = await this.db
        .selectFrom('cache_entries')
        .select(['id', 'storage_key', 'size_bytes'])
        .where('last_used_at', '<', idle)
        .limit(BATCH)
        .execute();
      await this.deleteCaches(rows, removed);
      if (rows.length < BATCH) break;
    }
    const quota = this.deps.quotas.cache_bytes_per_project;
    const over = await this.db
      .selectFrom('cache_entries')
      .select(['project_id', (eb) => eb.fn.sum('size_bytes').as('bytes')])
      .groupBy('project_id')
      .having((eb) => eb.fn.sum('size_bytes'), '>', quota)
      .execute();
    for (const p of over) {
      let excess = num(p.bytes) - quota;
      while (excess > 0) {
        const lru = await this.db
          .selectFrom('cache_entries')
          .select(['id', 'storage_key', 'size_bytes'])
          .where('project_id', '=', p.project_id)
          .orderBy('last_used_at')
          .orderBy('id')
          .limit(100)
          .execute();
        if (lru.length === 0) break;
        const take = [];
        for (const c of lru) {
          if (excess <= 0) break;
          take.push(c);
          excess -= num(c.size_bytes);
        }
        await this.deleteCaches(take, removed);
      }
    }
  }

  private async sweepBlobs(removed: SweepRemoved): Promise<void> {
    for (;;) {
      const rows = await this.db
        .selectFrom('blob_deletions')
        .select('prefix')
        .orderBy('created_at')
        .limit(100)
        .execute();
      for (const r of rows) {
        await this.deps.storage.deletePrefix(r.prefix);
        await this.db.deleteFrom('blob_deletions').where('prefix', '=', r.prefix).execute();
        removed.blob_prefixes++;
      }
      if (rows.length < 100) return;
    }
  }
}
