// The Cassandra provider: one cassandra-driver Client per datasource. A statement runs under the query
// deadline; its rows are read page by page through the driver's paging state (CQL has no OFFSET) until one
// row more than asked is held, so `hasMore` is exact. Statements with parameters are prepared (the driver
// needs the server's bind types); writes report no row count (Cassandra returns none). There is no cancel
// message in the protocol: at the deadline the caller gets 408 and the server finishes on its own.

import type cassandra from 'cassandra-driver';
import { sessionWithoutTransactions } from '../buffered-results.js';
import { type Catalog, guardedCatalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { unsupported } from '../errors.js';
import type {
  ExecOptions,
  ExecResult,
  ParamValue,
  Provider,
  ProviderContext,
  ProviderSession,
  ResolvedConnection,
  StreamBatch,
} from '../types.js';
import { uniqueFields } from '../values.js';
import { CassandraCatalog } from './catalog.js';
import { cqlTypeName, cqlValue, mapCassandraError, openClient } from './client.js';
import { cassandraCapabilities } from './engine.js';

/** Rows per driver page. */
const PAGE = 1_000;

interface Page {
  columns: Array<{ name: string; type: { code: number; info?: unknown } }> | null;
  rows: unknown[][];
  pageState: string | undefined;
  warnings: string[];
}

class CassandraProvider implements Provider {
  readonly engine = 'cassandra' as const;
  readonly capabilities = cassandraCapabilities;
  private readonly client: cassandra.Client;
  private running = 0;
  readonly catalog: Catalog;

  constructor(private readonly conn: ResolvedConnection) {
    this.client = openClient(conn);
    this.catalog = guardedCatalog(
      new CassandraCatalog(
        async (cql, params) => {
          const res = await this.guarded(() => this.page(cql, params, PAGE, undefined));
          return res.rows.map((r) => Object.fromEntries((res.columns ?? []).map((c, i) => [c.name, r[i]])));
        },
        conn.descriptor.database || undefined,
        () => this.driverState(),
        conn.descriptor.user,
      ),
      (work) => this.guarded(work),
    );
  }

  private driverState() {
    const state = this.client.getState();
    const hosts = state.getConnectedHosts();
    return {
      hosts: hosts.length,
      openConnections: hosts.reduce((n, h) => n + state.getOpenConnections(h), 0),
      inFlight: hosts.reduce((n, h) => n + state.getInFlightQueries(h), 0),
    };
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await withDeadline(work(), { timeoutMs: this.conn.queryTimeoutMs, cancel: () => undefined });
    } catch (err) {
      throw mapCassandraError(err, this.conn.queryTimeoutMs);
    }
  }

  /** One driver page: values normalised, in column order. */
  private async page(
    cql: string,
    params: unknown[],
    fetchSize: number,
    pageState: string | undefined,
  ): Promise<Page> {
    const res = await this.client.execute(cql, params, {
      prepare: params.length > 0,
      fetchSize,
      ...(pageState ? { pageState } : {}),
      readTimeout: this.conn.queryTimeoutMs + 5_000,
    });
    const columns = (res.columns as Page['columns']) ?? null;
    const names = (columns ?? []).map((c) => c.name);
    return {
      columns,
      rows: (res.rows ?? []).map((r) => names.map((n) => cqlValue(r[n]))),
      pageState: res.pageState ?? undefined,
      warnings: res.info?.warnings ?? [],
    };
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    // No onStart handle: the protocol has no cancel message, so /api/db/cancel has nothing to stop.
    this.running++;
    try {
      return await this.guarded(async () => {
        const want = opts.maxRows + 1;
        let p = await this.page(sql, params, Math.min(PAGE, Math.max(want, 1)), undefined);
        const rows = [...p.rows];
        const warnings = [...p.warnings];
        while (p.pageState && rows.length < want) {
          p = await this.page(sql, params, Math.min(PAGE, want - rows.length), p.pageState);
          rows.push(...p.rows);
          warnings.push(...p.warnings);
        }
        const columns = p.columns;
        if (!columns || columns.length === 0) {
          return {
            fields: [],
            rows: [],
            rowCount: 0,
            truncated: false,
            warnings: [...warnings, 'Cassandra reports no affected-row count for writes'],
          };
        }
        const fields = uniqueFields(columns.map((c) => c.name));
        const truncated =
          rows.length > opts.maxRows || (rows.length === opts.maxRows && Boolean(p.pageState));
        const kept = rows.slice(0, opts.maxRows);
        return {
          fields,
          rows: kept.map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i]]))),
          rowCount: kept.length,
          truncated,
          columnTypes: Object.fromEntries(fields.map((f, i) => [f, cqlTypeName(columns[i].type)])),
          ...(warnings.length > 0 ? { warnings } : {}),
        };
      });
    } finally {
      this.running--;
    }
  }

  async explain(): Promise<never> {
    throw unsupported('Cassandra has no query plans');
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    let sent = 0;
    let state: string | undefined;
    let fields: string[] | undefined;
    let types: string[] | undefined;
    do {
      const size = Math.max(1, Math.min(opts.batchSize, opts.maxRows - sent));
      const p = await this.guarded(() => this.page(sql, params, size, state));
      if (!fields) {
        fields = uniqueFields((p.columns ?? []).map((c) => c.name));
        types = (p.columns ?? []).map((c) => cqlTypeName(c.type));
      }
      const rows = p.rows.slice(0, opts.maxRows - sent);
      sent += rows.length;
      yield { fields, columnTypes: types, rows };
      state = p.pageState;
    } while (state && sent < opts.maxRows);
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'Cassandra has no transactions (a BATCH is the unit of atomic writes)',
    );
  }

  poolStats() {
    return { total: 1, idle: this.running > 0 ? 0 : 1, waiting: Math.max(0, this.running - 1) };
  }

  async close(): Promise<void> {
    await this.client.shutdown().catch(() => undefined);
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx: ProviderContext): Promise<Provider> {
  return new CassandraProvider(conn);
}
