// Oracle provider (oracledb in thin mode, no client libraries): a pool per identity, positional :n binds,
// callTimeout plus a client deadline that breaks the call, EXPLAIN PLAN/DBMS_XPLAN plans, exports through a
// result set read in batches inside a READ ONLY transaction. Verified by statement-building and mapping
// tests only (no Oracle server here).

import oracledb from 'oracledb';
import type { Catalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { ProviderError, timeoutError } from '../errors.js';
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
import { OracleCatalog } from './catalog.js';
import {
  mapOracleResult,
  oracleBinds,
  oracleCapabilities,
  oracleConnectString,
  oraclePlanStatements,
} from './statements.js';

export function mapOracleError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { code?: string; errorNum?: number; message?: string };
  const message = e.message ?? String(err);
  if (/call timeout|NJS-123|DPI-1067/i.test(message)) return timeoutError(timeoutMs);
  if (e.errorNum === 1013) return new ProviderError('cancelled', message, e.code);
  if (e.errorNum === 1017 || e.errorNum === 28000)
    return new ProviderError('authentication', message, e.code);
  if (/^NJS-(500|501|503|511|521)|ECONNREFUSED|ENOTFOUND|ORA-12514|ORA-12541/.test(message)) {
    return new ProviderError('connection', message, e.code);
  }
  return new ProviderError('query', message, e.code);
}

class OracleProvider implements Provider {
  readonly engine = 'oracle' as const;
  readonly capabilities = oracleCapabilities;

  constructor(
    readonly conn: ResolvedConnection,
    readonly pool: oracledb.Pool,
  ) {}

  get timeoutMs() {
    return this.conn.queryTimeoutMs;
  }

  async connection(): Promise<oracledb.Connection> {
    try {
      const c = await this.pool.getConnection();
      c.callTimeout = this.timeoutMs;
      return c;
    } catch (err) {
      throw mapOracleError(err, this.timeoutMs);
    }
  }

  async run(
    c: oracledb.Connection,
    sql: string,
    params: readonly ParamValue[],
    opts: ExecOptions,
  ): Promise<ExecResult> {
    const cancel = () => c.break();
    opts.onStart?.(cancel);
    try {
      const result = await withDeadline(
        c.execute(sql, oracleBinds(params), {
          outFormat: oracledb.OUT_FORMAT_ARRAY,
          maxRows: opts.maxRows + 1,
          autoCommit: false,
        }),
        { timeoutMs: this.timeoutMs, cancel },
      );
      return mapOracleResult(result as never, opts.maxRows);
    } catch (err) {
      throw mapOracleError(err, this.timeoutMs);
    }
  }

  async withConnection<T>(fn: (c: oracledb.Connection) => Promise<T>, commit: boolean): Promise<T> {
    const c = await this.connection();
    try {
      const r = await fn(c);
      if (commit) await c.commit();
      return r;
    } finally {
      await c.rollback().catch(() => undefined);
      await c.close().catch(() => undefined);
    }
  }

  /** Pooled statements commit on success, like autocommit on the other engines. */
  query(sql: string, params: ParamValue[], opts: ExecOptions) {
    return this.withConnection((c) => this.run(c, sql, params, opts), true);
  }

  explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze') {
    const plan = oraclePlanStatements(sql, mode);
    return this.withConnection(async (c) => {
      await this.run(c, plan.steps[0], params, { maxRows: mode === 'analyze' ? 0 : 0 });
      const r = await this.run(c, plan.steps[1], [], { maxRows: 10_000 });
      return { ...r, explainFormat: mode === 'estimate' ? 'oracle-xplan' : 'oracle-xplan-allstats' };
    }, false);
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    const c = await this.connection();
    try {
      await c.execute('SET TRANSACTION READ ONLY');
      const result = await c
        .execute(sql, oracleBinds(params), { outFormat: oracledb.OUT_FORMAT_ARRAY, resultSet: true })
        .catch((err) => {
          throw mapOracleError(err, this.timeoutMs);
        });
      const rs = result.resultSet!;
      const fields = (result.metaData ?? []).map((m) => m.name);
      const types = (result.metaData ?? []).map((m) => m.dbTypeName ?? 'unknown');
      let sent = 0;
      try {
        while (sent < opts.maxRows) {
          const rows = (await rs.getRows(Math.min(opts.batchSize, opts.maxRows - sent))) as unknown[][];
          sent += rows.length;
          if (rows.length > 0 || sent === 0) yield { fields, columnTypes: types, rows };
          if (rows.length === 0) break;
        }
      } finally {
        await rs.close().catch(() => undefined);
      }
    } finally {
      await c.rollback().catch(() => undefined);
      await c.close().catch(() => undefined);
    }
  }

  async openSession(): Promise<ProviderSession> {
    const c = await this.connection();
    let inTx = false;
    let closed = false;
    return {
      query: async (sql, params, opts) => {
        const r = await this.run(c, sql, params, opts);
        if (!inTx) await c.commit();
        return r;
      },
      // Oracle opens a transaction with the first change; BEGIN only switches off the per-statement commit.
      begin: async () => {
        inTx = true;
      },
      commit: async () => {
        await c.commit();
        inTx = false;
      },
      rollback: async () => {
        await c.rollback();
        inTx = false;
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await c.rollback().catch(() => undefined);
        await c.close().catch(() => undefined);
      },
    };
  }

  readonly catalog: Catalog = new OracleCatalog(this);

  poolStats() {
    return {
      total: this.pool.connectionsOpen,
      idle: this.pool.connectionsOpen - this.pool.connectionsInUse,
      waiting: 0,
    };
  }

  async close(): Promise<void> {
    await this.pool.close(0);
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  try {
    const pool = await oracledb.createPool({
      user: conn.descriptor.user,
      password: conn.descriptor.password,
      connectString: oracleConnectString(conn),
      poolMin: 0,
      poolMax: 10,
      poolTimeout: 60,
      queueTimeout: conn.connectTimeoutMs,
      connectTimeout: Math.ceil(conn.connectTimeoutMs / 1000),
    } as oracledb.PoolAttributes);
    return new OracleProvider(conn, pool);
  } catch (err) {
    throw mapOracleError(err, conn.queryTimeoutMs);
  }
}
