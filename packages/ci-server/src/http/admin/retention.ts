// Admin: retention — the quotas and log-archive default read from CI_CONFIG `retention` (with defaults), and
// GET /api/v1/admin/retention, the sweeper stats: when the sweeper last ran and what the store holds now,
// computed by counting (one aggregate query per table).
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import type { CatalogLog } from '../../plugins/catalog.js';
import type { Api } from '../context.js';

export const LogArchiveSetting = Type.Object(
  {
    enabled: Type.Boolean(),
    after_days: Type.Integer({ minimum: 1, maximum: 36500, description: 'archive logs older than this' }),
  },
  { additionalProperties: false },
);
export type LogArchive = Static<typeof LogArchiveSetting>;

export const DEFAULT_LOG_ARCHIVE: LogArchive = { enabled: false, after_days: 30 };

export const DEFAULT_QUOTAS = {
  runs_per_pipeline: 500,
  log_days: 30,
  artifact_days: 30,
  artifact_bytes: 10 * 1024 ** 3,
  cache_idle_days: 14,
  cache_bytes_per_project: 5 * 1024 ** 3,
};
export type Quotas = typeof DEFAULT_QUOTAS;

export interface RetentionSettings {
  quotas: Quotas;
  logArchive: LogArchive;
}

/** Server-settings key the sweeper writes its last run time to (none writes it yet: the value stays null). */
export const LAST_RUN_KEY = 'retention.last_run_at';

const positiveInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

/** CI_CONFIG `retention`: each invalid value is logged and replaced by its default. */
export function readRetentionSettings(file: Record<string, unknown>, log: CatalogLog): RetentionSettings {
  const raw = file.retention && typeof file.retention === 'object' ? (file.retention as any) : {};
  const quotas = { ...DEFAULT_QUOTAS };
  for (const key of Object.keys(DEFAULT_QUOTAS) as (keyof Quotas)[]) {
    if (raw[key] === undefined) continue;
    if (positiveInt(raw[key])) quotas[key] = raw[key];
    else log.warn({ key: `retention.${key}` }, 'CI_CONFIG value is not a positive integer; default used');
  }
  let logArchive = DEFAULT_LOG_ARCHIVE;
  const la = raw.log_archive;
  if (la !== undefined) {
    const ok = la && typeof la === 'object' && typeof la.enabled === 'boolean' && positiveInt(la.after_days);
    if (ok) logArchive = { enabled: la.enabled, after_days: la.after_days };
    else
      log.warn(
        { key: 'retention.log_archive' },
        'CI_CONFIG value is not {enabled, after_days}; default used',
      );
  }
  return { quotas, logArchive };
}

const Count = Type.Integer({ minimum: 0 });

export function registerAdminRetentionRoute(api: Api, db: Kysely<any>, settings: RetentionSettings): void {
  api.get('/api/v1/admin/retention', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Retention sweeper stats: last run, totals, current quotas',
      description:
        '`last_run_at`: when the retention sweeper last finished (null: it has not run; this server has no ' +
        'sweeper yet, so nothing is deleted automatically). `totals`: what the store holds now, counted on ' +
        'each call. `quotas` and `log_archive`: CI_CONFIG `retention` with the defaults filled in (days are ' +
        'ages, bytes are limits).',
      response: {
        200: Type.Object({
          last_run_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          totals: Type.Object({
            runs: Count,
            log_lines: Count,
            artifacts: Count,
            artifact_bytes: Count,
            cache_entries: Count,
            cache_bytes: Count,
          }),
          quotas: Type.Object({
            runs_per_pipeline: Count,
            log_days: Count,
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
      const [runs, logs, artifacts, caches, last] = await Promise.all([
        db
          .selectFrom('runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('log_lines')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('artifacts')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size_bytes').as('bytes')])
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('cache_entries')
          .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('size_bytes').as('bytes')])
          .executeTakeFirstOrThrow(),
        db.selectFrom('server_settings').select('value').where('key', '=', LAST_RUN_KEY).executeTakeFirst(),
      ]);
      return {
        last_run_at: last?.value ?? null,
        totals: {
          runs: Number(runs.n),
          log_lines: Number(logs.n),
          artifacts: Number(artifacts.n),
          artifact_bytes: Number(artifacts.bytes ?? 0),
          cache_entries: Number(caches.n),
          cache_bytes: Number(caches.bytes ?? 0),
        },
        quotas: settings.quotas,
        log_archive: settings.logArchive,
      };
    },
  });
}
