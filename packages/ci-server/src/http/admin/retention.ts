import { Type } from 'typebox';
import { formatDuration } from '../../domain/index.js';
import { logArchiveView, type RetentionSettings } from '../../scheduler/retention-settings.js';
import { LAST_SWEEP_KEY } from '../../scheduler/retention-sweeper.js';
import type { StoreDb } from '../../store/database.js';
import type { Api } from '../context.js';

export const LogArchiveSetting = Type.Object({
  enabled: Type.Boolean(),
  after: Type.String({
    description: 'archive a finished job’s log this long after it finished (a duration)',
  }),
  after_days: Type.Integer({ minimum: 0, description: '`after` in whole days' }),
});

const Count = Type.Integer({ minimum: 0 });

const Removed = Type.Object({
  runs: Count,
  log_lines: Count,
  log_archives: Count,
  dropped_log_partitions: Count,
  artifacts: Count,
  artifact_bytes: Count,
  cache_entries: Count,
  cache_bytes: Count,
  blob_prefixes: Count,
});

const LastRun = Type.Object({
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Type.String({ format: 'date-time' }),
  duration_ms: Count,
  removed: Removed,
  errors: Type.Array(Type.String()),
});

export function registerAdminRetentionRoute(api: Api, db: StoreDb, settings: RetentionSettings): void {
  api.get('/api/v1/admin/retention', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Retention sweeper stats: last run, totals, current quotas',
      description:
        '`last_run_at` and `last_run`: when the sweeper (every `interval`, in the replica holding the ' +
        'retention lease) last finished and what it removed (null before its first run). `totals`: what the ' +
        'store holds now, counted on each call. `quotas`: CI_CONFIG `retention` with defaults (days are ' +
        'ages, bytes are limits). `log_archive`: the global archive policy (projects may override it).',
      response: {
        200: Type.Object({
          last_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          last_run: Type.Union([LastRun, Type.Null()]),
          interval: Type.String({ description: 'time between sweeps (CI_CONFIG retention.interval)' }),
          totals: Type.Object({
            runs: Count,
            log_lines: Count,
            log_archives: Count,
            log_archive_bytes: Count,
            artifacts: Count,
            artifact_bytes: Count,
            cache_entries: Count,
            cache_bytes: Count,
          }),
          quotas: Type.Object({
            runs_per_pipeline: Count,
            run_days: Count,
            log_days: Count,
            log_bytes: Count,
            artifact_days: Count,
            artifact_bytes: Count,
            cache_idle_days: Count,
            cache_bytes_per_project: Count,
          }),
          log_archive: LogArchiveSetting,
        }),
      },
    },
    handler: async () => {
      // count/sum come back as strings (bigint/numeric) on PostgreSQL and numbers on SQLite.
      const [runs, logs, archives, artifacts, caches, last] = await Promise.all([
        db
          .selectFrom('runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('log_lines')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('log_archives')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('stored_bytes').as('bytes')])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('artifacts')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size_bytes').as('bytes')])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('cache_entries')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size_bytes').as('bytes')])
          .executeTakeFirstOrThrow(),
        db.selectFrom('server_settings').select('value').where('key', '=', LAST_SWEEP_KEY).executeTakeFirst(),
      ]);
      let lastRun = null;
      try {
        lastRun = last ? JSON.parse(last.value) : null;
      } catch {
        // An unreadable record reads as "not run yet".
      }
      return {
        last_run_at: lastRun?.finished_at ?? null,
        last_run: lastRun,
        interval: formatDuration(settings.intervalMs),
        totals: {
          runs: Number(runs.n),
          log_lines: Number(logs.n),
          log_archives: Number(archives.n),
          log_archive_bytes: Number(archives.bytes ?? 0),
          artifacts: Number(artifacts.n),
          artifact_bytes: Number(artifacts.bytes ?? 0),
          cache_entries: Number(caches.n),
          cache_bytes: Number(caches.bytes ?? 0),
        },
        quotas: settings.quotas,
        log_archive: logArchiveView(settings.logArchive),
      };
    },
  });
}
