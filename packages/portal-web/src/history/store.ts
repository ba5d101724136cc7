// Query history and saved queries. With server storage (`GET /api/storage/config` → serverMode) they live on
// the server (`/api/storage/history`, `/api/storage/queries`, per person); otherwise in this browser's
// localStorage, per signed-in person. The panel searches whichever list is in use the same way.
import type { BodyOf } from '@app/web-kit';
import type { paths } from '@app/web-kit/api/portal';
import { type Answer, api, apiGet } from '../lib/api';

/** What the server's storage routes take (generated from the portal's OpenAPI description). */
type HistoryBody = BodyOf<paths, '/api/storage/history', 'post'>;
type SavedQueryBody = BodyOf<paths, '/api/storage/queries', 'post'>;

type ServerEntry = Answer<'/api/storage/history'>['entries'][number];
/** One run as the server keeps it; the browser's own list keeps the same fields, the id as text. */
export type HistoryEntry = Pick<
  ServerEntry,
  'connectionId' | 'connectionName' | 'sql' | 'status' | 'rowCount' | 'durationMs' | 'error' | 'executedAt'
> & { id: string };

type ServerSaved = Answer<'/api/storage/queries'>['queries'][number];
/** A saved query: what the server answers, of which the browser's own list keeps these fields. */
export type SavedQuery = Pick<ServerSaved, 'id' | 'name' | 'sql' | 'connectionId' | 'createdAt'>;

const MAX_LOCAL_HISTORY = 500;
const historyKey = (u: string) => `portal.history.v1:${u}`;
const savedKey = (u: string) => `portal.saved.v1:${u}`;

function read<T>(key: string): T[] {
  try {
    const v = JSON.parse(window.localStorage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

function write(key: string, list: unknown[]): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(list));
  } catch {
    // Storage full: the oldest entries are the ones lost next time.
  }
}

function id(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export async function addHistory(
  username: string,
  serverMode: boolean,
  e: Omit<HistoryEntry, 'id' | 'executedAt'>,
): Promise<void> {
  // The server bounds statement text; history keeps at most 100 KB of a huge script.
  const entry: HistoryBody = { ...e, sql: e.sql.slice(0, 100_000), error: e.error?.slice(0, 4000) ?? null };
  if (serverMode) {
    await api('/api/storage/history', { body: entry });
    return;
  }
  const list = read<HistoryEntry>(historyKey(username));
  list.unshift({ ...e, ...entry, id: id(), executedAt: new Date().toISOString() } as HistoryEntry);
  write(historyKey(username), list.slice(0, MAX_LOCAL_HISTORY));
}

export async function listHistory(username: string, serverMode: boolean): Promise<HistoryEntry[]> {
  if (!serverMode) return read<HistoryEntry>(historyKey(username));
  const page = await apiGet('/api/storage/history', { query: { limit: 500 } });
  return page.entries.map((e) => ({ ...e, id: String(e.id) }));
}

export async function clearHistory(username: string, serverMode: boolean): Promise<void> {
  if (serverMode) await api('/api/storage/history', { method: 'DELETE' });
  else write(historyKey(username), []);
}

export async function listSaved(username: string, serverMode: boolean): Promise<SavedQuery[]> {
  if (!serverMode) return read<SavedQuery>(savedKey(username));
  const page = await apiGet('/api/storage/queries', { query: { limit: 500 } });
  return page.queries;
}

export async function saveQuery(
  username: string,
  serverMode: boolean,
  q: { name: string; sql: string; connectionId: string | null },
): Promise<void> {
  if (serverMode) {
    const body: SavedQueryBody = q;
    await api('/api/storage/queries', { body });
    return;
  }
  const list = read<SavedQuery>(savedKey(username));
  list.unshift({ ...q, id: id(), createdAt: new Date().toISOString() });
  write(savedKey(username), list);
}

export async function deleteSaved(username: string, serverMode: boolean, queryId: string): Promise<void> {
  if (serverMode) {
    await api(`/api/storage/queries/${encodeURIComponent(queryId)}`, { method: 'DELETE' });
    return;
  }
  write(
    savedKey(username),
    read<SavedQuery>(savedKey(username)).filter((q) => q.id !== queryId),
  );
}

/** Entries whose text, name or connection contains every word of the search. */
export function matches(search: string, ...texts: (string | null | undefined)[]): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  return words.every((w) => hay.includes(w));
}
