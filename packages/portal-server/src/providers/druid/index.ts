// The Druid provider: one POST /druid/v2/sql per statement with `resultFormat: arrayLines` and the header
// lines (names, Druid types, SQL types), so repeated output names keep their columns (`id`, `id (2)`); each
// line is read with the exact JSON reader (integers past 2^53 stay exact digit strings); array columns stay
// the JSON strings Druid sends (and a real array is written as one). Positional `?` params are sent as typed
// `parameters`. Every statement carries its own `sqlQueryId`, so the deadline and /api/db/cancel stop it
// with DELETE /druid/v2/sql/{id}; Druid's `timeout` context stops it server-side too. Writes are refused
// before anything is sent (engine.ts).
import { randomUUID } from 'node:crypto';
import { resultBatches, sessionWithoutTransactions } from '../buffered-results.js';
import { withDeadline } from '../deadline.js';
import { configError, ProviderError, queryError, timeoutError, unsupported } from '../errors.js';
import { parseExactJson } from '../exact-json.js';
import { basicAuth, type HttpTarget, httpRequest } from '../http-request.js';
import { normalizeSsl } from '../ssl.js';
import type {
  ExecOptions,
  ExecResult,
  ExplainResult,
  ParamValue,
  Provider,
  ProviderContext,
  ProviderSession,
  ResolvedConnection,
  StreamBatch,
} from '../types.js';
import { arrayResult } from '../values.js';
import { druidCatalog } from './catalog.js';
import { druidCapabilities, druidRefusal, validateDruid } from './engine.js';

/** A positional parameter as Druid's typed SQL parameter. */
function parameter(p: ParamValue): { type: string; value: unknown } {
  if (p === null) return { type: 'VARCHAR', value: null };
  if (typeof p === 'boolean') return { type: 'BOOLEAN', value: p };
  if (typeof p === 'number') return { type: Number.isInteger(p) ? 'BIGINT' : 'DOUBLE', value: p };
  return { type: 'VARCHAR', value: p };
}

/** Druid's error body (old `{error, errorMessage, errorClass}` or new `{error: "druidException", errorCode, …}`). */
function druidFailure(status: number, text: string, timeoutMs: number): ProviderError {
  let body: { error?: string; errorMessage?: string; errorCode?: string; category?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  const message = body.errorMessage ?? body.error ?? `Druid answered HTTP ${status}`;
  if (status === 401 || status === 403)
    return new ProviderError('authentication', `Druid refused the credentials (HTTP ${status})`);
  if (status === 504 || body.error === 'Query timeout' || body.category === 'TIMEOUT')
    return timeoutError(timeoutMs);
  if (body.error === 'Query cancelled' || body.category === 'CANCELED')
    return new ProviderError('cancelled', 'The statement was cancelled');
  if (status >= 500 && !body.errorMessage && !body.error)
    return new ProviderError('connection', `Druid answered HTTP ${status}`);
  return queryError(message, body.errorCode ?? body.error);
}

class DruidProvider implements Provider {
  readonly engine = 'druid' as const;
  readonly capabilities = druidCapabilities;
  readonly target: HttpTarget;
  private running = 0;

  constructor(readonly conn: ResolvedConnection) {
    const d = conn.descriptor;
    const ssl = normalizeSsl(d.ssl);
    this.target = {
      origin: `${ssl ? 'https' : 'http'}://${conn.host ?? d.host}:${conn.port ?? d.port ?? 8888}`,
      ...(ssl ? { ssl } : {}),
      ...(d.host ? { host: d.host } : {}),
      headers: {
        'content-type': 'application/json',
        ...(d.user ? { authorization: basicAuth(d.user, d.password ?? '') } : {}),
      },
    };
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const refused = druidRefusal(sql);
    if (refused) throw queryError(refused);
    const id = randomUUID();
    const abort = new AbortController();
    const cancel = async () => {
      await httpRequest(this.target, 'DELETE', `/druid/v2/sql/${id}`, undefined, { timeoutMs: 10_000 }).catch(
        () => undefined,
      );
      abort.abort();
    };
    opts.onStart?.(cancel);
    const body = JSON.stringify({
      query: sql,
      resultFormat: 'arrayLines',
      header: true,
      typesHeader: true,
      sqlTypesHeader: true,
      context: { sqlQueryId: id, timeout: this.conn.queryTimeoutMs },
      ...(params.length > 0 ? { parameters: params.map(parameter) } : {}),
    });
    this.running++;
    try {
      const res = await withDeadline(
        httpRequest(this.target, 'POST', '/druid/v2/sql', body, { signal: abort.signal }),
        { timeoutMs: this.conn.queryTimeoutMs, cancel },
      );
      if (res.status !== 200) throw druidFailure(res.status, res.text, this.conn.queryTimeoutMs);
      return this.rows(res.text, opts.maxRows);
    } catch (err) {
      if (abort.signal.aborted && !(err instanceof ProviderError && err.kind === 'timeout'))
        throw new ProviderError('cancelled', 'The statement was cancelled');
      throw err;
    } finally {
      this.running--;
    }
  }

  /** arrayLines: names, Druid types, SQL types, then one JSON array per row; a blank line ends a complete answer. */
  private rows(text: string, maxRows: number): ExecResult {
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    const complete = lines.at(-1) === '';
    if (complete) lines.pop();
    else if (lines.length > 0) throw queryError('Druid ended the answer early (no closing blank line)');
    const parsed = lines.map((l) => parseExactJson(l) as unknown[]);
    const [names = [], _types = [], sqlTypes = [], ...data] = parsed;
    const arrayCols = (sqlTypes as string[]).map((t) => /ARRAY/.test(String(t)));
    const rows = data.map((r) => r.map((v, i) => (arrayCols[i] && Array.isArray(v) ? JSON.stringify(v) : v)));
    return arrayResult(names as string[], rows, maxRows, 0, sqlTypes as string[]);
  }

  async explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze'): Promise<ExplainResult> {
    if (mode !== 'estimate') throw unsupported('Druid plans are estimates only (EXPLAIN PLAN FOR)');
    const r = await this.query(`EXPLAIN PLAN FOR ${sql}`, params, { maxRows: 100 });
    const rows = r.rows.map((row) => {
      const out: Record<string, unknown> = { ...row };
      for (const key of ['PLAN', 'RESOURCES', 'ATTRIBUTES']) {
        if (typeof row[key] !== 'string') continue;
        try {
          out[key] = JSON.parse(String(row[key]));
        } catch {
          // An older Druid prints the plan as text: kept as it is.
        }
      }
      return out;
    });
    return { ...r, rows, explainFormat: 'druid-native-query' };
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    yield* resultBatches(await this.query(sql, params, { maxRows: opts.maxRows }), opts.batchSize);
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'Druid has no transactions',
    );
  }

  /** GET /status: the server's version (and memory figures). */
  async status(): Promise<Record<string, unknown>> {
    const res = await httpRequest(this.target, 'GET', '/status', undefined, { timeoutMs: 10_000 });
    if (res.status !== 200) throw druidFailure(res.status, res.text, this.conn.queryTimeoutMs);
    return JSON.parse(res.text) as Record<string, unknown>;
  }

  catalog = druidCatalog(this);

  poolStats() {
    return { total: Math.max(1, this.running), idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  async close(): Promise<void> {}
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  validateDruid(conn.descriptor);
  if (conn.descriptor.password && !conn.descriptor.user) throw configError('A Druid password needs a user');
  return new DruidProvider(conn);
}
