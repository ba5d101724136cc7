// Retention settings from CI_CONFIG `retention` (defaults filled in): the sweeper's interval, the quotas it
// applies and the global log-archive policy. The archive delay accepts a duration (`after: 30d`, `after: 0s`)
// alongside the older `after_days`. Pure: parsing and the shapes the API answers, no I/O.
import { formatDuration, parseDuration } from '../domain/index.js';

export interface LogArchivePolicy {
  enabled: boolean;
  /** A finished job's log is archived once the job finished at least this long ago. */
  afterMs: number;
}

/** What the API shows of a policy: the duration, and whole days for clients of the older field. */
export interface LogArchiveView {
  enabled: boolean;
  after: string;
  after_days: number;
}

const DAY_MS = 86_400_000;

export const DEFAULT_LOG_ARCHIVE: LogArchivePolicy = { enabled: false, afterMs: 30 * DAY_MS };

export const DEFAULT_QUOTAS = {
  /** Finished runs kept per pipeline (older ones are deleted with their logs and artifacts). */
  runs_per_pipeline: 500,
  /** Finished runs older than this are deleted. */
  run_days: 365,
  /** A job's log (rows or archive) older than this is dropped. */
  log_days: 30,
  /** Bytes of log text kept in the database; the oldest finished jobs' rows go first. */
  log_bytes: 10 * 1024 ** 3,
  /** Artifacts without their own `expire_in` expire after this. */
  artifact_days: 30,
  /** Bytes of artifacts kept; the oldest go first. */
  artifact_bytes: 10 * 1024 ** 3,
  /** Cache entries unused this long are evicted. */
  cache_idle_days: 14,
  /** Bytes of cache entries per project; the least recently used go first. */
  cache_bytes_per_project: 5 * 1024 ** 3,
};
export type Quotas = typeof DEFAULT_QUOTAS;

export const DEFAULT_INTERVAL_MS = 3_600_000;
/** Shortest sweeper interval accepted (a sweep reads every table). */
export const MIN_INTERVAL_MS = 1_000;

export interface RetentionSettings {
  quotas: Quotas;
  logArchive: LogArchivePolicy;
  intervalMs: number;
  /** How often the log archiver looks for due jobs (`retention.archive_interval`, default 30s). */
  archiveIntervalMs: number;
}

export interface SettingsLog {
  warn(obj: object, msg: string): void;
}

const positiveInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

/** `{enabled, after}` or `{enabled, after_days}`; a message when it is neither. */
export function parseLogArchive(raw: unknown): LogArchivePolicy | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return 'must be {enabled, after} or {enabled, after_days}';
  const r = raw as Record<string, unknown>;
  const extra = Object.keys(r).filter((k) => !['enabled', 'after', 'after_days'].includes(k));
  if (extra.length > 0) return `unknown field ${extra[0]}`;
  if (typeof r.enabled !== 'boolean') return 'enabled must be true or false';
  if ((r.after === undefined) === (r.after_days === undefined))
    return 'give exactly one of after (a duration) or after_days';
  if (r.after_days !== undefined) {
    if (!positiveInt(r.after_days) || r.after_days > 36_500)
      return 'after_days must be an integer from 1 to 36500';
    return { enabled: r.enabled, afterMs: r.after_days * DAY_MS };
  }
  const ms = typeof r.after === 'string' ? parseDuration(r.after) : null;
  if (ms === null) return 'after must be a duration like 30d, 12h or 0s';
  if (ms > 36_500 * DAY_MS) return 'after must be at most 36500d';
  return { enabled: r.enabled, afterMs: ms };
}

export function logArchiveView(p: LogArchivePolicy): LogArchiveView {
  return { enabled: p.enabled, after: formatDuration(p.afterMs), after_days: Math.floor(p.afterMs / DAY_MS) };
}

/** Reads a stored project override (`{enabled, after_ms}`, or the older `{enabled, after_days}`). */
export function decodeStoredPolicy(value: string): LogArchivePolicy | undefined {
  try {
    const v = JSON.parse(value);
    if (typeof v?.enabled !== 'boolean') return undefined;
    if (Number.isSafeInteger(v.after_ms) && v.after_ms >= 0)
      return { enabled: v.enabled, afterMs: v.after_ms };
    if (positiveInt(v.after_days)) return { enabled: v.enabled, afterMs: v.after_days * DAY_MS };
  } catch {
    // An unreadable override counts as none.
  }
  return undefined;
}

export function encodeStoredPolicy(p: LogArchivePolicy): string {
  return JSON.stringify({ enabled: p.enabled, after_ms: p.afterMs });
}

/** CI_CONFIG `retention`: each invalid value is logged and replaced by its default. */
export function readRetentionSettings(file: Record<string, unknown>, log: SettingsLog): RetentionSettings {
  const raw =
    file.retention && typeof file.retention === 'object' ? (file.retention as Record<string, unknown>) : {};
  const quotas = { ...DEFAULT_QUOTAS };
  for (const key of Object.keys(DEFAULT_QUOTAS) as (keyof Quotas)[]) {
    if (raw[key] === undefined) continue;
    if (positiveInt(raw[key])) quotas[key] = raw[key];
    else log.warn({ key: `retention.${key}` }, 'CI_CONFIG value is not a positive integer; default used');
  }
  let logArchive = DEFAULT_LOG_ARCHIVE;
  if (raw.log_archive !== undefined) {
    const parsed = parseLogArchive(raw.log_archive);
    if (typeof parsed === 'string')
      log.warn({ key: 'retention.log_archive', problem: parsed }, 'CI_CONFIG value is invalid; default used');
    else logArchive = parsed;
  }
  let intervalMs = DEFAULT_INTERVAL_MS;
  if (raw.interval !== undefined) {
    const ms = typeof raw.interval === 'string' ? parseDuration(raw.interval) : null;
    if (ms === null || ms < MIN_INTERVAL_MS)
      log.warn({ key: 'retention.interval' }, 'CI_CONFIG value is not a duration of at least 1s; 1h used');
    else intervalMs = ms;
  }
  let archiveIntervalMs = 30_000;
  if (raw.archive_interval !== undefined) {
    const ms = typeof raw.archive_interval === 'string' ? parseDuration(raw.archive_interval) : null;
    if (ms === null || ms < MIN_INTERVAL_MS)
      log.warn(
        { key: 'retention.archive_interval' },
        'CI_CONFIG value is not a duration of at least 1s; 30s used',
      );
    else archiveIntervalMs = ms;
  }
  return { quotas, logArchive, intervalMs, archiveIntervalMs };
}
