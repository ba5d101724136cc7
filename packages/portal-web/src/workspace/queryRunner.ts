// The calls behind Run, Explain and paging, kept out of the panel: one statement through /api/db/query with
// an explicit page size (so the answer says whether the server paged it), several through
// /api/db/multi-query with per-statement results, and plain-text parameters turned into JSON values.
import { apiPost } from '../lib/api';

/** Rows asked for per page. */
export const PAGE = 500;

export function randomId(): string {
  const b = new Uint8Array(8);
  window.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * A parameter as typed: numbers, true/false/null and JSON strings are read as such; anything else is a
 * string. (The server accepts strings, numbers, booleans and null only.)
 */
export function paramValue(text: string): string | number | boolean | null {
  const t = text.trim();
  if (t === 'null') return null;
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(t) && Number.isFinite(Number(t))) return Number(t);
  if (/^".*"$/s.test(t)) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return text;
    }
  }
  return text;
}

export interface RunBase {
  connection: Record<string, unknown>;
  params: string[];
  ticket: string;
}

function common(b: RunBase) {
  return {
    connection: b.connection,
    ...(b.params.length ? { params: b.params.map(paramValue) } : {}),
    ...(b.ticket.trim() ? { ticket: b.ticket.trim() } : {}),
  };
}

export function runQuery(
  b: RunBase,
  sql: string,
  queryId: string,
  page: { offset?: number; all?: boolean } = {},
) {
  return apiPost('/api/db/query', {
    ...common(b),
    sql,
    queryId,
    options: page.all
      ? { unlimited: true, offset: page.offset ?? 0 }
      : { limit: PAGE, offset: page.offset ?? 0 },
  });
}

export function runExplain(b: RunBase, sql: string, mode: 'estimate' | 'analyze') {
  return apiPost('/api/db/query', { ...common(b), sql, explain: { mode } });
}

export function runScript(b: RunBase, sql: string) {
  return apiPost('/api/db/multi-query', { ...common(b), sql });
}
