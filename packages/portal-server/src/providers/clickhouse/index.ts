// The ClickHouse provider: each statement is one HTTP request with its own query id, sent as written; the
// deadline (and /api/db/cancel) stops it with KILL QUERY from a second request and aborts the first. A
// mutation (ALTER TABLE … DELETE/UPDATE) is queued by the server and reports 0 rows; an INSERT reports what
// the server's summary header says it wrote. Exports run with `readonly=2` (the server itself refuses
// writes) and a server-side result cap. The catalog (catalog.ts) reads the system tables.
import { randomUUID } from 'node:crypto';
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client';
import { sessionWithoutTransactions } from '../buffered-results.js';
import { withDeadline } from '../deadline.js';
import { configError, ProviderError, unsupported } from '../errors.js';
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
import { clickhouseCatalog } from './catalog.js';
import { mapClickhouseError, openClickhouse, type RawAnswer, readBody, trailingException } from './client.js';
import { clickhouseCapabilities } from './engine.js';
import { clickhouseAccountPrivileges } from './privileges.js';
import { answerResult } from './result.js';

/** Asks for JSON without touching the statement text (a statement's own FORMAT wins). */
const JSON_ANSWER: ClickHouseSettings = { default_format: 'JSONCompact' };

/** The server refuses writes and DDL; settings other than `readonly` may still be sent. */
const READ_ONLY: ClickHouseSettings = { readonly: '2' };

const MUTATION =
  /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/|#[^\n]*\n)\s*)*ALTER\s+TABLE\b[\s\S]*\b(?:DELETE|UPDATE)\b/i;

class ClickhouseProvider implements Provider {
  readonly engine = 'clickhouse' as const;
  readonly capabilities = clickhouseCapabilities;
  readonly client: ClickHouseClient;
  private running = 0;

  constructor(readonly conn: ResolvedConnection) {
    this.client = openClickhouse(conn);
  }

  /** KILL QUERY for one query id, from its own request. */
  async kill(queryId: string): Promise<void> {
    await this.client
      .command({ query: `KILL QUERY WHERE query_id = '${queryId.replace(/['\\]/g, '\\$&')}' ASYNC` })
      .catch(() => undefined);
  }

  /** Runs one statement text unchanged and reads the whole answer under the query deadline. */
  async raw(
    sql: string,
    settings: ClickHouseSettings = {},
    onStart?: (cancel: () => Promise<void>) => void,
  ): Promise<RawAnswer> {
    const queryId = randomUUID();
    const abort = new AbortController();
    let cancelled = false;
    const cancel = async () => {
      cancelled = true;
      await this.kill(queryId);
      abort.abort();
    };
    onStart?.(cancel);
    this.running++;
    const work = (async (): Promise<RawAnswer> => {
      const r = await this.client.exec({
        query: sql,
        query_id: queryId,
        abort_signal: abort.signal,
        // The server stops the statement itself shortly after the deadline, even if the KILL QUERY raced it.
        clickhouse_settings: {
          ...JSON_ANSWER,
          max_execution_time: Math.ceil(this.conn.queryTimeoutMs / 1000) + 1,
          ...settings,
        },
      });
      const body = await readBody(r.stream);
      const failed = trailingException(body.text);
      if (failed) throw new Error(failed);
      const written = Number(r.summary?.written_rows);
      return { ...body, ...(Number.isFinite(written) ? { writtenRows: written } : {}) };
    })();
    try {
      return await withDeadline(work, { timeoutMs: this.conn.queryTimeoutMs, cancel });
    } catch (err) {
      const mapped = mapClickhouseError(err, this.conn.queryTimeoutMs);
      if (cancelled && mapped.kind !== 'timeout')
        throw new ProviderError('cancelled', 'The statement was cancelled');
      throw mapped;
    } finally {
      this.running--;
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    return this.queryWith(sql, params, opts, {});
  }

  /** Runs one statement with extra server settings (the read-only view's `readonly=2`). */
  async queryWith(
    sql: string,
    params: ParamValue[],
    opts: ExecOptions,
    settings: ClickHouseSettings,
  ): Promise<ExecResult> {
    if (params.length > 0)
      throw unsupported(
        'ClickHouse binds named {name:Type} parameters only; positional params are not accepted',
      );
    const answer = await this.raw(sql, settings, opts.onStart);
    // A mutation is queued, not done: the server reports no rows for it.
    const affected = MUTATION.test(sql) ? 0 : (answer.writtenRows ?? 0);
    const result = answerResult(answer.text, opts.maxRows, affected);
    return answer.cut ? { ...result, truncated: true, warnings: ['The answer was cut at 64 MB'] } : result;
  }

  async explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze'): Promise<ExplainResult> {
    if (params.length > 0) throw unsupported('ClickHouse plans take no positional params');
    if (mode !== 'estimate') throw unsupported('ClickHouse plans are estimates only (EXPLAIN PLAN)');
    const r = await this.query(`EXPLAIN PLAN ${sql}`, [], { maxRows: 10_000 });
    return { ...r, explainFormat: 'clickhouse-explain-plan' };
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    if (params.length > 0) throw unsupported('ClickHouse exports take no positional params');
    // readonly=2: the server refuses any write while still accepting the format and cap settings.
    const answer = await this.raw(sql, {
      readonly: '2',
      max_result_rows: String(opts.maxRows),
      result_overflow_mode: 'break',
    });
    const r = answerResult(answer.text, opts.maxRows, 0);
    const types = r.columnTypes ? r.fields.map((f) => String(r.columnTypes?.[f])) : undefined;
    const rows = r.rows.map((row) => r.fields.map((f) => row[f]));
    if (rows.length === 0) {
      yield { fields: r.fields, ...(types ? { columnTypes: types } : {}), rows: [] };
      return;
    }
    for (let i = 0; i < rows.length; i += opts.batchSize) {
      yield {
        fields: r.fields,
        ...(types ? { columnTypes: types } : {}),
        rows: rows.slice(i, i + opts.batchSize),
      };
    }
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'ClickHouse has no transactions over HTTP',
    );
  }

  /**
   * Every statement with `readonly=2`: the server refuses writes, DDL and changing `readonly` itself, while
   * the settings the provider sends (format, execution time) still pass (`readonly=1` would refuse them).
   * Table functions stay allowed at 2, so remote()/url()/file() are the classifier's to refuse.
   */
  readOnlyView(): Provider {
    const query = (sql: string, params: ParamValue[], opts: ExecOptions) =>
      this.queryWith(sql, params, opts, READ_ONLY);
    const view: Provider = new Proxy(this as Provider, {
      get: (target, prop) => {
        if (prop === 'query') return query;
        if (prop === 'openSession')
          return async () => sessionWithoutTransactions(query, 'ClickHouse has no transactions over HTTP');
        if (prop === 'readOnlyView') return () => view;
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return view;
  }

  accountPrivileges(): Promise<string[]> {
    return clickhouseAccountPrivileges(async (sql) => {
      const r = await this.query(sql, [], { maxRows: 1000 });
      return r.rows.map((row) => String(row[r.fields[0]] ?? ''));
    });
  }

  catalog = clickhouseCatalog(this);

  poolStats() {
    return { total: Math.max(1, this.running), idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export type { ClickhouseProvider };

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  if (!conn.descriptor.connectionString && !conn.descriptor.host)
    throw configError('A ClickHouse connection needs host or connectionString');
  return new ClickhouseProvider(conn);
}
