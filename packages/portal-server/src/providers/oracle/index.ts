// Oracle provider (oracledb in thin mode, no client libraries): a pool per identity, positional :n binds,
// callTimeout plus a client deadline that breaks the call, EXPLAIN PLAN/DBMS_XPLAN plans, exports through a
// result set read in batches inside a READ ONLY transaction. Verified by statement-building and mapping
// tests only (no Oracle server here).
import oracledb from 'oracledb';
import { withDeadline } from '../deadline.js';
import { ProviderError, timeoutError } from '../errors.js';
import { countBySchemaAndKind, schemaInventory } from '../schema-objects.js';
import type {
  ConnectionProfile,
  DatabaseObject,
  ExecOptions,
  ExecResult,
  ParamValue,
  Provider,
  ProviderContext,
  ProviderSession,
  ResolvedConnection,
  StreamBatch,
} from '../types.js';
import { prettyBytes } from '../values.js';
import {
  mapOracleResult,
  ORACLE_COLUMNS,
  ORACLE_HEALTH,
  ORACLE_OBJECTS,
  oracleBinds,
  oracleCapabilities,
  oracleConnectString,
  oracleMaintenance,
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

  private async rows(sql: string, params: ParamValue[] = []) {
    return (await this.query(sql, params, { maxRows: 10_000 })).rows;
  }

  async profile(): Promise<ConnectionProfile> {
    const [r] = await this.rows(
      `SELECT (SELECT banner FROM v$version WHERE ROWNUM = 1) AS "v", USER AS "u", SYS_CONTEXT('USERENV', 'DB_NAME') AS "db",
              SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') AS "s" FROM dual`,
    );
    return {
      engine: 'oracle',
      serverVersion: String(r.v),
      currentUser: String(r.u),
      currentDatabase: String(r.db),
      currentSchema: String(r.s),
    };
  }
  testConnection = () => this.profile();

  async health() {
    const [h] = await this.rows(ORACLE_HEALTH);
    const sessions = await this.rows(
      `SELECT s.sid AS "pid", s.username AS "user", s.schemaname AS "database", s.status AS "state",
              NVL(q.sql_text, ' ') AS "query", s.last_call_et * 1000 AS "duration"
         FROM v$session s LEFT JOIN v$sql q ON q.sql_id = s.sql_id AND q.child_number = 0
        WHERE s.type = 'USER' AND ROWNUM <= 100`,
    );
    return {
      activeConnections: Number(h.active),
      databaseSize: prettyBytes(Number(h.bytes ?? 0)),
      cacheHitRatio: h.ratio === null ? 'n/a' : `${Number(h.ratio).toFixed(2)}%`,
      slowQueries: [],
      activeSessions: sessions.map((s) => ({
        pid: Number(s.pid),
        user: String(s.user ?? ''),
        database: String(s.database ?? ''),
        state: String(s.state),
        query: String(s.query).trim(),
        duration: Number(s.duration),
      })),
    };
  }
  monitoring = async () => ({ ...(await this.health()) });
  maintenance = (type: string, target: string | undefined) => {
    const m = oracleMaintenance(type, target);
    return this.query(m.sql, m.binds, { maxRows: 0 });
  };

  private toObject(r: Record<string, unknown>): DatabaseObject {
    const o: DatabaseObject = {
      path: [String(r.schema), String(r.name)],
      name: String(r.name),
      kind: String(r.kind),
    };
    if (r.status && r.status !== 'VALID') o.status = String(r.status);
    return o;
  }
  listObjects = async (path: readonly string[] | undefined) =>
    (await this.rows(ORACLE_OBJECTS, [path?.[0] ?? null])).map((r) => this.toObject(r));
  inventory = async () => {
    const res = await this.query(ORACLE_OBJECTS, [null], { maxRows: 10_000 });
    return schemaInventory(
      res.rows.map((r) => this.toObject(r)),
      res.truncated,
    );
  };
  counts = async () => countBySchemaAndKind(await this.listObjects(undefined));
  describe = async (path: readonly string[]) => {
    const [owner, name] =
      path.length >= 2 ? path.slice(-2) : [(await this.profile()).currentSchema ?? '', path[0]];
    const object = (await this.listObjects([owner])).find((o) => o.name === name);
    if (!object) return undefined;
    const columns = await this.rows(ORACLE_COLUMNS, [owner, name]);
    return {
      object,
      columns: columns.map((c) => ({
        name: String(c.name),
        type: String(c.type),
        nullable: c.nullable === 'Y',
        isPrimary: Number(c.pk) === 1,
        ...(c.def !== null ? { defaultValue: String(c.def).trim() } : {}),
      })),
      indexes: [],
      foreignKeys: [],
    };
  };

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
