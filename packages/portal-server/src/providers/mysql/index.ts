// MySQL and MariaDB provider (mysql2): a pool per identity, one statement per round-trip
// (multipleStatements off), parameters bound server-side through prepared statements, a client deadline that
// stops the statement with KILL QUERY from a second connection, and exports streamed row by row inside a
// READ ONLY transaction. Every connection is reset (COM_RESET_CONNECTION: user variables, session variables,
// prepared statements, temporary tables) before it returns to the pool, so no `@v` outlives its request.
import mysql from 'mysql2/promise';
import { withDeadline } from '../deadline.js';
import { configError } from '../errors.js';
import { sqlSession } from '../sql-session.js';
import { normalizeSsl, tlsOptions } from '../ssl.js';
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
import { arrayResult, isIntegerParam } from '../values.js';
import { mysqlCatalog } from './catalog.js';
import { mysqlCapabilities } from './engine.js';
import { mapMysqlError, mysqlTypeName } from './errors.js';
import { mysqlAccountPrivileges } from './privileges.js';

/** mysql2 sends a JS number as DOUBLE; a JSON integer is bound as BIGINT so `LIMIT ?` and integer maths work. */
function bindValues(params: readonly ParamValue[]): mysql.ExecuteValues[] {
  return params.map((p) => (isIntegerParam(p) ? mysql.TypedParameter.LONGLONG(p) : p));
}

type Conn = mysql.PoolConnection & { connection: any; threadId: number };

export function mysqlOptions(conn: ResolvedConnection): mysql.PoolOptions {
  const d = conn.descriptor;
  const ssl = normalizeSsl(d.ssl);
  return {
    ...(d.connectionString ? { uri: d.connectionString } : {}),
    ...(conn.host ? { host: conn.host } : {}),
    ...(conn.port ? { port: conn.port } : {}),
    ...(d.user ? { user: d.user } : {}),
    ...(d.password !== undefined ? { password: d.password } : {}),
    ...(d.database ? { database: d.database } : {}),
    ...(ssl ? { ssl: tlsOptions(ssl, d.host) as mysql.SslOptions } : {}),
    connectTimeout: conn.connectTimeoutMs,
    connectionLimit: 10,
    maxIdle: 10,
    idleTimeout: 60_000,
    multipleStatements: false,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    charset: 'utf8mb4',
  };
}

/** The database the datasource names (its `database` field or the connection string's path). */
function configuredDatabase(conn: ResolvedConnection): string | undefined {
  const d = conn.descriptor;
  if (d.database) return d.database;
  if (!d.connectionString) return undefined;
  try {
    const path = decodeURIComponent(new URL(d.connectionString).pathname.replace(/^\/+/, ''));
    return path || undefined;
  } catch {
    return undefined;
  }
}

class MysqlProvider implements Provider {
  readonly engine = 'mysql' as const;
  readonly capabilities = mysqlCapabilities;
  readonly pool: mysql.Pool;
  private version?: string;

  constructor(readonly conn: ResolvedConnection) {
    this.pool = mysql.createPool(mysqlOptions(conn));
  }

  get timeoutMs() {
    return this.conn.queryTimeoutMs;
  }

  async connect(): Promise<Conn> {
    try {
      return (await this.pool.getConnection()) as Conn;
    } catch (err) {
      throw mapMysqlError(err, this.timeoutMs);
    }
  }

  /**
   * Gives a connection back to the pool reset (COM_RESET_CONNECTION), so user variables, session settings,
   * prepared statements and temporary tables never reach the next request; one that cannot be reset is closed.
   */
  async release(c: Conn): Promise<void> {
    try {
      await c.reset();
      // The statement may have switched databases (USE): back to the datasource's own.
      const database = configuredDatabase(this.conn);
      if (database) await c.query(`USE \`${database.replace(/`/g, '``')}\``);
    } catch {
      c.destroy();
      return;
    }
    c.release();
  }

  /** KILL QUERY from a separate connection: the statement ends with ER_QUERY_INTERRUPTED, the session stays. */
  async killQuery(threadId: number): Promise<void> {
    const { connectionLimit: _l, maxIdle: _m, idleTimeout: _i, ...opts } = mysqlOptions(this.conn);
    const killer = await mysql.createConnection(opts);
    try {
      await killer.query(`KILL QUERY ${Number(threadId)}`);
    } finally {
      await killer.end().catch(() => undefined);
    }
  }

  async serverVersion(): Promise<string> {
    if (!this.version) {
      const [rows] = await this.pool.query('SELECT VERSION() AS v');
      this.version = String((rows as Array<{ v: string }>)[0].v);
    }
    return this.version;
  }

  async run(c: Conn, sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const cancel = () => this.killQuery(c.threadId);
    opts.onStart?.(cancel);
    const options = { sql, rowsAsArray: true };
    const call = params.length > 0 ? c.execute(options, bindValues(params)) : c.query(options);
    let result: [unknown, mysql.FieldPacket[] | undefined];
    try {
      result = (await withDeadline(call, {
        timeoutMs: this.timeoutMs,
        cancel,
        abandon: () => c.destroy(),
      })) as [unknown, mysql.FieldPacket[] | undefined];
    } catch (err) {
      throw mapMysqlError(err, this.timeoutMs);
    }
    const [rows, fields] = result;
    if (!Array.isArray(rows) || !fields) {
      const header = rows as { affectedRows?: number; warningStatus?: number };
      const r = arrayResult([], [], opts.maxRows, header.affectedRows ?? 0);
      return header.warningStatus ? { ...r, warnings: [`${header.warningStatus} warning(s)`] } : r;
    }
    return arrayResult(
      fields.map((f) => f.name),
      rows as unknown[][],
      opts.maxRows,
      null,
      fields.map((f) => mysqlTypeName(f)),
    );
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const c = await this.connect();
    try {
      return await this.run(c, sql, params, opts);
    } finally {
      await this.release(c);
    }
  }

  async explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze') {
    const mariadb = /mariadb/i.test(await this.serverVersion());
    const c = await this.connect();
    try {
      if (mode === 'estimate') {
        const r = await this.run(c, `EXPLAIN FORMAT=JSON ${sql}`, params, { maxRows: 100 });
        return { ...jsonPlan(r), explainFormat: 'mysql-json' };
      }
      // ANALYZE executes the statement: inside a READ ONLY transaction that is rolled back.
      await c.query('START TRANSACTION READ ONLY');
      try {
        if (mariadb) {
          const r = await this.run(c, `ANALYZE FORMAT=JSON ${sql}`, params, { maxRows: 100 });
          return { ...jsonPlan(r), explainFormat: 'mariadb-analyze-json' };
        }
        const r = await this.run(c, `EXPLAIN ANALYZE ${sql}`, params, { maxRows: 100 });
        return { ...r, explainFormat: 'mysql-analyze-tree' };
      } finally {
        await c.query('ROLLBACK').catch(() => c.destroy());
      }
    } finally {
      await this.release(c);
    }
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    const c = await this.connect();
    let finished = false;
    try {
      await c.query('START TRANSACTION READ ONLY');
      const core = c.connection.connection ?? c.connection;
      const cmd =
        params.length > 0
          ? core.execute({ sql, values: bindValues(params), rowsAsArray: true })
          : core.query({ sql, rowsAsArray: true });
      let names: string[] = [];
      let types: string[] = [];
      cmd.on('fields', (fields: mysql.FieldPacket[]) => {
        names = fields.map((f) => f.name);
        types = fields.map((f) => mysqlTypeName(f));
      });
      const rows = cmd.stream({ highWaterMark: opts.batchSize }) as AsyncIterable<unknown[]> & {
        destroy(): void;
      };
      let batch: unknown[][] = [];
      let sent = 0;
      const it = rows[Symbol.asyncIterator]();
      for (;;) {
        const next = await withDeadline(it.next(), {
          timeoutMs: this.timeoutMs,
          cancel: () => this.killQuery(c.threadId),
        }).catch((err) => {
          throw mapMysqlError(err, this.timeoutMs);
        });
        if (next.done) break;
        batch.push(next.value);
        if (batch.length >= opts.batchSize || sent + batch.length >= opts.maxRows) {
          sent += batch.length;
          yield { fields: names, columnTypes: types, rows: batch };
          batch = [];
          if (sent >= opts.maxRows) break;
        }
      }
      if (batch.length > 0 || sent === 0) yield { fields: names, columnTypes: types, rows: batch };
      finished = (await it.next().catch(() => ({ done: false }))).done === true;
    } finally {
      if (finished) {
        await c.query('ROLLBACK').catch(() => undefined);
        await this.release(c);
      } else {
        // Stopped before the end of the result (row cap, error, client gone): the session cannot be reused.
        c.destroy();
      }
    }
  }

  async openSession(): Promise<ProviderSession> {
    const c = await this.connect();
    return sqlSession({
      query: (sql, params, opts) => this.run(c, sql, params, opts),
      beginSql: 'START TRANSACTION',
      control: (sql) => this.run(c, sql, [], { maxRows: 0 }),
      release: async (inTx) => {
        if (inTx) await c.query('ROLLBACK').catch(() => c.destroy());
        await this.release(c);
      },
    });
  }

  accountPrivileges(): Promise<string[]> {
    return mysqlAccountPrivileges(async (sql) => (await this.pool.query(sql))[0] as unknown[]);
  }

  catalog = mysqlCatalog(this);

  poolStats() {
    // mysql2 declares none of its pool's counters: read them by name, 0 when a version renames them.
    const p: unknown = Reflect.get(this.pool, 'pool');
    const count = (key: string): number => {
      const list: unknown = p && typeof p === 'object' ? Reflect.get(p, key) : undefined;
      return Array.isArray(list) || (list && typeof list === 'object' && 'length' in list)
        ? Number((list as { length: unknown }).length) || 0
        : 0;
    };
    return {
      total: count('_allConnections'),
      idle: count('_freeConnections'),
      waiting: count('_connectionQueue'),
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** EXPLAIN FORMAT=JSON answers one text cell; hand it back parsed. */
function jsonPlan(r: ExecResult): ExecResult {
  const field = r.fields[0];
  const rows = r.rows.map((row) => {
    const v = row[field];
    try {
      return { [field]: typeof v === 'string' ? JSON.parse(v) : v };
    } catch {
      return row;
    }
  });
  return { ...r, rows };
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  if (!conn.descriptor.connectionString && !conn.descriptor.host) {
    throw configError('A MySQL/MariaDB connection needs host or connectionString');
  }
  return new MysqlProvider(conn);
}
