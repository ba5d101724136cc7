// Trino's client protocol: POST /v1/statement with the statement as the body and the session in X-Trino-*
// headers, then GET each `nextUri` until there is none, collecting `columns` and `data`. A failed statement
// still answers HTTP 200: the `error` object of a page is the failure and is classified from its
// `errorName`/`errorType`. 503 means "busy, ask again"; 401 is a credential problem. A statement is stopped
// by DELETE on its current `nextUri`. Bodies are read with the exact JSON reader (BIGINT beyond 2^53 stays
// exact).
import { ProviderError, queryError, timeoutError } from '../errors.js';
import { parseExactJson } from '../exact-json.js';
import { basicAuth, type HttpTarget, httpRequest } from '../http-request.js';
import { normalizeSsl } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';

export interface TrinoColumn {
  name: string;
  type: string;
}

export interface TrinoError {
  message?: string;
  errorName?: string;
  errorType?: string;
  errorCode?: number;
}

interface TrinoPage {
  id?: string;
  nextUri?: string;
  columns?: TrinoColumn[];
  data?: unknown[][];
  error?: TrinoError;
  updateType?: string;
  updateCount?: number;
  warnings?: Array<{ message?: string }>;
}

export interface TrinoAnswer {
  queryId?: string;
  columns: TrinoColumn[];
  rows: unknown[][];
  truncated: boolean;
  updateType?: string;
  updateCount?: number;
  warnings: string[];
}

/** What a running statement exposes so it can be stopped. */
export interface TrinoRun {
  nextUri?: string;
  queryId?: string;
  /** A cancel arrived (possibly before the first page named a nextUri to DELETE). */
  cancelled?: boolean;
}

const BUSY_RETRIES = 50;

export function trinoTarget(conn: ResolvedConnection): HttpTarget {
  const d = conn.descriptor;
  const ssl = normalizeSsl(d.ssl);
  const user = d.user || 'portal';
  const headers: Record<string, string> = {
    'X-Trino-User': user,
    'X-Trino-Source': 'database-portal',
    'content-type': 'text/plain; charset=utf-8',
  };
  if (d.database) headers['X-Trino-Catalog'] = d.database;
  if (d.schema) headers['X-Trino-Schema'] = d.schema;
  if (d.password) headers.authorization = basicAuth(user, d.password);
  return {
    origin: `${ssl ? 'https' : 'http'}://${conn.host ?? d.host}:${conn.port ?? d.port ?? 8080}`,
    ...(ssl ? { ssl } : {}),
    ...(d.host ? { host: d.host } : {}),
    headers,
  };
}

/** A failed statement's error object as a provider error. */
export function trinoFailure(e: TrinoError, timeoutMs: number): ProviderError {
  const name = e.errorName ?? '';
  const message = e.message ?? name ?? 'Trino reported a failure';
  if (name === 'USER_CANCELED' || name === 'ADMINISTRATIVELY_KILLED')
    return new ProviderError('cancelled', 'The statement was cancelled', name);
  if (name === 'EXCEEDED_TIME_LIMIT') return timeoutError(timeoutMs);
  return queryError(message, name || undefined);
}

async function readPage(
  target: HttpTarget,
  method: 'POST' | 'GET',
  url: string,
  body: string | undefined,
  signal: AbortSignal,
): Promise<TrinoPage> {
  for (let attempt = 0; ; attempt++) {
    const res = await httpRequest(target, method, url, body, { signal });
    if (res.status === 503 && attempt < BUSY_RETRIES) {
      await new Promise((r) => setTimeout(r, Math.min(50 * (attempt + 1), 500)));
      continue;
    }
    if (res.status === 401 || res.status === 403)
      throw new ProviderError('authentication', `Trino refused the credentials (HTTP ${res.status})`);
    if (res.status !== 200)
      throw new ProviderError('connection', `Trino answered HTTP ${res.status}: ${res.text.slice(0, 200)}`);
    try {
      return parseExactJson(res.text) as TrinoPage;
    } catch {
      throw new ProviderError('connection', 'Trino answered a body that is not JSON');
    }
  }
}

/**
 * Runs one statement to its end (or until `maxRows` rows are held, when the rest is dropped with DELETE).
 * `run` is kept up to date with the current `nextUri`, so a cancel can stop the statement.
 */
export async function runStatement(
  target: HttpTarget,
  sql: string,
  opts: { maxRows: number; signal: AbortSignal; run: TrinoRun; timeoutMs: number },
): Promise<TrinoAnswer> {
  const answer: TrinoAnswer = { columns: [], rows: [], truncated: false, warnings: [] };
  let page = await readPage(target, 'POST', '/v1/statement', sql, opts.signal);
  for (;;) {
    if (page.id) answer.queryId = opts.run.queryId = page.id;
    if (page.error) throw trinoFailure(page.error, opts.timeoutMs);
    if (page.columns && answer.columns.length === 0) answer.columns = page.columns;
    for (const row of page.data ?? []) {
      if (answer.rows.length >= opts.maxRows) {
        answer.truncated = true;
        break;
      }
      answer.rows.push(row);
    }
    for (const w of page.warnings ?? [])
      if (w.message && !answer.warnings.includes(w.message)) answer.warnings.push(w.message);
    if (page.updateType) answer.updateType = page.updateType;
    if (typeof page.updateCount === 'number') answer.updateCount = page.updateCount;
    opts.run.nextUri = page.nextUri;
    if (opts.run.cancelled) {
      // Cancelled while this page was on its way: stop the query now that its nextUri is known.
      await cancelStatement(target, opts.run);
      throw new ProviderError('cancelled', 'The statement was cancelled');
    }
    if (!page.nextUri) return answer;
    if (answer.truncated) {
      // Enough rows: the rest of the result is dropped on the server.
      await cancelStatement(target, opts.run);
      return answer;
    }
    page = await readPage(target, 'GET', page.nextUri, undefined, opts.signal);
  }
}

/** DELETE on the statement's current nextUri: Trino stops the query. */
export async function cancelStatement(target: HttpTarget, run: TrinoRun): Promise<void> {
  const uri = run.nextUri;
  if (!uri) return;
  await httpRequest(target, 'DELETE', uri, undefined, { timeoutMs: 10_000 }).catch(() => undefined);
}

/** GET /v1/info: the coordinator's version. */
export async function serverInfo(target: HttpTarget): Promise<{ version: string }> {
  const res = await httpRequest(target, 'GET', '/v1/info', undefined, { timeoutMs: 10_000 });
  if (res.status !== 200)
    throw new ProviderError('connection', `Trino answered HTTP ${res.status} for /v1/info`);
  const info = JSON.parse(res.text) as { nodeVersion?: { version?: string } };
  return { version: String(info.nodeVersion?.version ?? 'unknown') };
}
