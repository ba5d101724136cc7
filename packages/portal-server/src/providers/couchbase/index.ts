// The Couchbase provider: one SQL++ statement per request to the query service (client.ts), under the
// query deadline and with a cancel that aborts the HTTP request and deletes the request from
// system:active_requests by its client context id. Results are the spec's query result: fields in the
// order they first appear across the documents, nested values kept as JSON, 64-bit integers as exact
// strings. Statements the reader sees as reads are sent with `readonly`, so the query service itself
// refuses a write hidden in them (a user-defined function, for one). Exports stream the rows with nested
// objects flattened into dotted columns (`address.city`).

import { randomUUID } from 'node:crypto';
import { sessionWithoutTransactions } from '../buffered-results.js';
import type { Catalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { ProviderError, unsupported } from '../errors.js';
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
import { jsonValue } from '../values.js';
import { CouchbaseCatalog } from './catalog.js';
import { CouchbaseClient, type QueryReply } from './client.js';
import { couchbaseBucket, couchbaseCapabilities } from './engine.js';
import { leadingWord, lexN1ql } from './statement.js';

const READ_WORDS = new Set(['SELECT', 'WITH', 'EXPLAIN', 'ADVISE', 'INFER']);

/** Rows of a reply as result rows: objects keep their fields, anything else is one `value` column. */
export function shapeResults(results: readonly unknown[]): {
  fields: string[];
  rows: Record<string, unknown>[];
} {
  const fields: string[] = [];
  const seen = new Set<string>();
  const rows = results.map((r) => {
    const o =
      r !== null && typeof r === 'object' && !Array.isArray(r)
        ? (r as Record<string, unknown>)
        : { value: r };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      if (!seen.has(k)) {
        seen.add(k);
        fields.push(k);
      }
      out[k] = jsonValue(v);
    }
    return out;
  });
  // Documents without a field answer null for it, so every row has every column.
  for (const row of rows) for (const f of fields) if (!(f in row)) row[f] = null;
  return { fields, rows };
}

/** A document flattened into dotted columns (arrays stay whole, as JSON). */
export function flatten(
  value: unknown,
  prefix = '',
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix || 'value'] = jsonValue(value);
  }
  return out;
}

export class CouchbaseProvider implements Provider {
  readonly engine = 'couchbase' as const;
  readonly capabilities = couchbaseCapabilities;
  readonly client: CouchbaseClient;
  readonly catalog: Catalog;
  private running = 0;

  constructor(private readonly conn: ResolvedConnection) {
    this.client = new CouchbaseClient(conn);
    this.catalog = new CouchbaseCatalog(
      this.client,
      couchbaseBucket(conn.descriptor.database),
      (s, args) =>
        this.client.query(s, {
          args,
          timeoutMs: conn.queryTimeoutMs,
          signal: AbortSignal.timeout(conn.queryTimeoutMs + 5000),
        }),
      conn.descriptor.user,
    );
  }

  /** Runs one statement under the deadline; `onStart` receives the cancel. */
  private async run(
    sql: string,
    params: ParamValue[],
    onStart: ExecOptions['onStart'],
    readonly: boolean,
  ): Promise<QueryReply> {
    const contextId = randomUUID();
    const abort = new AbortController();
    let cancelled = false;
    const cancel = async () => {
      cancelled = true;
      abort.abort();
      // The abort ends our wait; the request itself is stopped on the server by its context id.
      await this.client
        .query('DELETE FROM system:active_requests WHERE clientContextID = $1', {
          args: [contextId],
          timeoutMs: 10_000,
          signal: AbortSignal.timeout(10_000),
        })
        .catch(() => undefined);
    };
    onStart?.(cancel);
    this.running++;
    try {
      return await withDeadline(
        this.client.query(sql, {
          args: params,
          readonly,
          signal: abort.signal,
          clientContextId: contextId,
          timeoutMs: this.conn.queryTimeoutMs,
        }),
        { timeoutMs: this.conn.queryTimeoutMs, cancel },
      );
    } catch (err) {
      if (cancelled && !(err instanceof ProviderError && err.kind === 'timeout'))
        throw new ProviderError('cancelled', 'The statement was cancelled');
      throw err;
    } finally {
      this.running--;
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const readonly = READ_WORDS.has(leadingWord(lexN1ql(sql).tokens));
    const reply = await this.run(sql, params, opts.onStart, readonly);
    const { fields, rows } = shapeResults(reply.results);
    const truncated = rows.length > opts.maxRows;
    const kept = truncated ? rows.slice(0, opts.maxRows) : rows;
    const mutations = Number(reply.metrics.mutationCount ?? 0);
    const warnings = reply.warnings?.map((w) => w.msg);
    return {
      fields,
      rows: kept,
      rowCount: fields.length === 0 ? mutations : kept.length,
      truncated,
      ...(warnings?.length ? { warnings } : {}),
    };
  }

  async explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze'): Promise<ExplainResult> {
    if (mode !== 'estimate')
      throw unsupported('The query service only plans (EXPLAIN); it has no analyze mode');
    const reply = await this.run(`EXPLAIN ${sql}`, params, undefined, true);
    const { fields, rows } = shapeResults(reply.results);
    return { fields, rows, rowCount: rows.length, truncated: false, explainFormat: 'json' };
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    // Exports only read: the query service refuses anything else under `readonly`.
    const reply = await this.run(sql, params, undefined, true);
    const docs = reply.results.slice(0, opts.maxRows).map((r) => flatten(r));
    const fields: string[] = [];
    const seen = new Set<string>();
    for (const d of docs)
      for (const k of Object.keys(d))
        if (!seen.has(k)) {
          seen.add(k);
          fields.push(k);
        }
    if (docs.length === 0) return;
    for (let i = 0; i < docs.length; i += opts.batchSize) {
      yield { fields, rows: docs.slice(i, i + opts.batchSize).map((d) => fields.map((f) => d[f] ?? null)) };
    }
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'Couchbase datasources have no transactions here',
    );
  }

  poolStats() {
    return { total: 1, idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  async close(): Promise<void> {}
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx: ProviderContext): Promise<Provider> {
  return new CouchbaseProvider(conn);
}
