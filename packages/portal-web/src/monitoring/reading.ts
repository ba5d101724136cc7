// What the monitoring page reads and sends: the reading of a datasource (administrators get
// `POST /api/db/monitoring` — the health reading plus the engine's counters and lock waits; everyone else the
// health reading of `POST /api/db/health`), session control through `POST /api/db/maintenance` (`cancel` /
// `kill` with the session id; the server checks the role and audits), and the wording the page shows.
import { type Answer, apiPost } from '../lib/api';

/** The administrators' reading (`POST /api/db/monitoring`); the health reading is the same without locks
 *  and counters (`POST /api/db/health`). Generated from the server's OpenAPI description. */
export type Reading = Answer<'/api/db/monitoring', 'post'>;
export type SessionRow = Reading['activeSessions'][number];
/** A session id: a number on PostgreSQL and MySQL/MariaDB, text on engines that name sessions. */
export type SessionId = SessionRow['pid'];
export type LockWait = NonNullable<Reading['locks']>[number];

/** Fields of the reading that are lists or shown elsewhere, not counters. */
const NOT_COUNTERS = new Set([
  'activeConnections',
  'databaseSize',
  'cacheHitRatio',
  'slowQueries',
  'activeSessions',
  'locks',
]);

export function readMonitoring(descriptor: Record<string, unknown>, admin: boolean): Promise<Reading> {
  return apiPost(admin ? '/api/db/monitoring' : '/api/db/health', { connection: descriptor });
}

export type SessionAction = 'cancel' | 'kill';

/** The maintenance route's answer (`POST /api/db/maintenance`): the engine's rows after the cancel or kill. */
export type ActionResult = Pick<Answer<'/api/db/maintenance', 'post'>, 'rows'>;

export function controlSession(
  descriptor: Record<string, unknown>,
  action: SessionAction,
  pid: SessionId,
): Promise<ActionResult> {
  return apiPost('/api/db/maintenance', { connection: descriptor, type: action, target: String(pid) });
}

/** What the engine said after a cancel or kill: PostgreSQL answers false when no such session ran. */
export function actionOutcome(action: SessionAction, pid: SessionId, result: ActionResult): string {
  const first = result.rows[0];
  const answered = first ? Object.values(first)[0] : undefined;
  if (answered === false) return `No session ${pid} was found to ${action === 'kill' ? 'end' : 'cancel'}.`;
  return action === 'kill' ? `Session ${pid} was ended.` : `The statement of session ${pid} was cancelled.`;
}

/** The engine's counters as label/value pairs (a MySQL `status` object is flattened). */
export function counters(reading: Reading): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  for (const [key, value] of Object.entries(reading)) {
    if (NOT_COUNTERS.has(key)) continue;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        if (typeof v === 'number' || typeof v === 'string') out.push({ label: words(k), value: String(v) });
    } else if (typeof value === 'number' || typeof value === 'string') {
      out.push({ label: words(key), value: String(value) });
    }
  }
  return out;
}

/** `maxConnections` → "Max connections", `Threads_running` → "Threads running". */
export function words(key: string): string {
  const spaced = key
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A duration in milliseconds as people read it: 850 ms, 4.2 s, 3 min 05 s, 2 h 04 min. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}
