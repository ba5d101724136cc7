// Admin: GET /api/v1/admin/retention — what the retention sweeper did last (when, how long, what it
// removed), what the store holds now (one aggregate query per table), the quotas and interval from CI_CONFIG
// `retention` (retention/retention-settings.ts) and the global log-archive policy.
import { Type } from 'typebox';
import { formatDuration } from '../../domain/index.js';
import { logArchiveView, type RetentionSettings } from '../../retention/retention-settings.js';
import { LAST_SWEEP_KEY } from '../../retention/retention-sweeper.js';
import type { StoreDb } from '../../store/database.js';
import { readServerSetting } from '../../store/settings.js';
import { storeTotals } from '../../store/store-totals.js';
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
      const [totals, last] = await Promise.all([storeTotals(db), readServerSetting(db, LAST_SWEEP_KEY)]);
      let lastRun = null;
      try {
        lastRun = last ? JSON.parse(last) : null;
      } catch {
        // An unreadable record reads as "not run yet".
      }
      return {
        last_run_at: lastRun?.finished_at ?? null,
        last_run: lastRun,
        interval: formatDuration(settings.intervalMs),
        totals,
        quotas: settings.quotas,
        log_archive: logArchiveView(settings.logArchive),
      };
    },
  });
}
