// SQL Server provider (mssql over tedious): a pool per identity, @pN parameters, requestTimeout plus a
// client deadline that cancels the request (TDS attention), SHOWPLAN/STATISTICS XML plans, exports streamed
// row by row inside a transaction that is rolled back. Verified by statement-building and mapping tests only.
import sql from 'mssql';
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
  bindParams,
  explainBatches,
  MSSQL_COLUMNS,
  MSSQL_FOREIGN_KEYS,
  MSSQL_HEALTH,
  MSSQL_INDEXES,
  MSSQL_OBJECTS,
  MSSQL_SESSIONS,
  MSSQL_SLOW,
  maintenanceStatement,
  mapMssqlResult,
  mssqlCapabilities,
  mssqlConfig,
} from './statements.js';

export function mapMssqlError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  switch (e.code) {
    case 'ETIMEOUT':
      return /connect/i.test(message)
        ? new ProviderError('connection', message, e.code)
        : timeoutError(timeoutMs);
    case 'ECANCEL':
      return new ProviderError('cancelled', message, e.code);
    case 'ELOGIN':
      return new ProviderError('authentication', message, e.code);
    case 'ESOCKET':
    case 'ECONNCLOSED':
    case 'ENOTOPEN':
    case 'EINSTLOOKUP':
      return new ProviderError('connection', message, e.code);
    default:
      return new ProviderError('query', message, e.code);
  }
}

type Runnable = sql.ConnectionPool | sql.Transaction;

class MssqlProvider implements Provider {
  readonly engine = 'mssql' as const;
  readonly capabilities = mssqlCapabilities;

  constructor(
    readonly conn: ResolvedConnection,
    readonly pool: sql.ConnectionPool,
  ) {}

  get timeoutMs() {
    return this.conn.queryTimeoutMs;
  }

  request(on: Runnable, params: readonly ParamValue[]): sql.Request {
    const req = new sql.Request(on as sql.ConnectionPool);
    req.arrayRowMode = true;
    for (const p of bindParams(params)) req.input(p.name, p.value);
    return req;
  }

  async run(
    on: Runnable,
    text: string,
    params: readonly ParamValue[],
    opts: ExecOptions,
  ): Promise<ExecResult> {
    const req = this.request(on, params);
    const cancel = async () => req.cancel();
    opts.onStart?.(cancel);
    try {
      const result = await withDeadline(req.query(text), { timeoutMs: this.timeoutMs, cancel });
      return mapMssqlResult(result as never, opts.maxRows);
    } catch (err) {
      throw mapMssqlError(err, this.timeoutMs);
    }
  }

  query(text: string, params: ParamValue[], opts: ExecOptions) {
    return this.run(this.pool, text, params, opts);
  }

  async explain(text: string, params: ParamValue[], mode: 'estimate' | 'analyze') {
    const b = explainBatches(text, mode);
    // SET SHOWPLAN must be alone in its batch and on the same connection as the statement: a transaction pins one.
    const tx = new sql.Transaction(this.pool);
    await tx.begin();
    try {
      await this.run(tx, b.before, [], { maxRows: 0 });
      const r = await this.run(tx, b.statement, params, { maxRows: 1000 });
      await this.run(tx, b.after, [], { maxRows: 0 });
      return { ...r, explainFormat: mode === 'estimate' ? 'mssql-showplan-xml' : 'mssql-statistics-xml' };
    } finally {
      await tx.rollback().catch(() => undefined);
    }
  }

  async *stream(
    text: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    const tx = new sql.Transaction(this.pool);
    await tx.begin();
    const req = this.request(tx, params);
    req.stream = true;
    let fields: string[] = [];
    let types: string[] = [];
    const queue: unknown[][] = [];
    let done = false;
    let failure: unknown;
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    req.on(
      'recordset',
      (cols: Record<string, { name: string; index: number; type?: { declaration?: string } }>) => {
        const list = Object.values(cols).sort((a, b) => a.index - b.index);
        fields = list.map((c) => c.name);
        types = list.map((c) => c.type?.declaration ?? 'unknown');
      },
    );
    req.on('row', (row: unknown[]) => {
      queue.push(row);
      if (queue.length >= opts.batchSize) req.pause();
      notify();
    });
    req.on('error', (err) => {
      failure = err;
      notify();
    });
    req.on('done', () => {
      done = true;
      notify();
    });
    req.query(text);
    let sent = 0;
    try {
      while (sent < opts.maxRows) {
        if (queue.length === 0 && !done && !failure) {
          await withDeadline(new Promise<void>((r) => (wake = r)), {
            timeoutMs: this.timeoutMs,
            cancel: () => req.cancel(),
          });
        }
        if (failure) throw mapMssqlError(failure, this.timeoutMs);
        const rows = queue.splice(0, Math.min(queue.length, opts.maxRows - sent));
        if (rows.length > 0 || done) {
          sent += rows.length;
          yield { fields, columnTypes: types, rows };
        }
        if (done && queue.length === 0) break;
        req.resume();
      }
    } finally {
      if (!done) req.cancel();
      await tx.rollback().catch(() => undefined);
    }
  }

  async openSession(): Promise<ProviderSession> {
    // A transaction object holds one pooled connection for the whole session.
    const tx = new sql.Transaction(this.pool);
    let begun = false;
    let closed = false;
    return {
      query: (text, params, opts) =>
        begun ? this.run(tx, text, params, opts) : this.run(this.pool, text, params, opts),
      begin: async () => {
        await tx.begin();
        begun = true;
      },
      commit: async () => {
        await tx.commit();
        begun = false;
      },
      rollback: async () => {
        await tx.rollback();
        begun = false;
      },
      close: async () => {
        if (closed) return;
        closed = true;
        if (begun) await tx.rollback().catch(() => undefined);
      },
    };
  }

  private async rows(text: string, params: ParamValue[] = []) {
    return (await this.query(text, params, { maxRows: 10_000 })).rows;
  }

  async profile(): Promise<ConnectionProfile> {
    const [r] = await this.rows(
      'SELECT @@VERSION AS v, SUSER_SNAME() AS u, DB_NAME() AS db, SCHEMA_NAME() AS s',
    );
    return {
      engine: 'mssql',
      serverVersion: String(r.v),
      currentUser: String(r.u),
      currentDatabase: String(r.db),
      currentSchema: String(r.s),
    };
  }
  testConnection = () => this.profile();

  async health() {
    const [h] = await this.rows(MSSQL_HEALTH);
    const sessions = await this.rows(MSSQL_SESSIONS);
    const slow = await this.rows(MSSQL_SLOW).catch(() => []);
    return {
      activeConnections: Number(h.active),
      databaseSize: prettyBytes(Number(h.bytes)),
      cacheHitRatio: h.ratio === null ? 'n/a' : `${Number(h.ratio).toFixed(2)}%`,
      slowQueries: slow.map((s) => ({
        query: String(s.query),
        calls: Number(s.calls),
        avgTime: Number(s.avg),
      })),
      activeSessions: sessions.map((s) => ({
        pid: Number(s.pid),
        user: String(s.user),
        database: String(s.database ?? ''),
        state: String(s.state),
        query: String(s.query),
        duration: Number(s.duration),
      })),
    };
  }
  monitoring = async () => ({ ...(await this.health()) });
  maintenance = (type: string, target: string | undefined) =>
    this.query(maintenanceStatement(type, target), [], { maxRows: 1000 });

  private toObject(r: Record<string, unknown>): DatabaseObject {
    const o: DatabaseObject = {
      path: [String(r.schema), String(r.name)],
      name: String(r.name),
      kind: String(r.kind),
    };
    if (r.kind === 'table' && r.row_count !== null) o.rowCount = Number(r.row_count);
    if (r.kind === 'table' && r.size !== null) o.sizeBytes = Number(r.size);
    return o;
  }
  listObjects = async (path: readonly string[] | undefined) =>
    (await this.rows(MSSQL_OBJECTS, [path?.[0] ?? null])).map((r) => this.toObject(r));
  inventory = async () => {
    const res = await this.query(MSSQL_OBJECTS, [null], { maxRows: 10_000 });
    return schemaInventory(
      res.rows.map((r) => this.toObject(r)),
      res.truncated,
    );
  };
  counts = async () => countBySchemaAndKind(await this.listObjects(undefined));
  describe = async (path: readonly string[]) => {
    const [schema, name] = path.length >= 2 ? path.slice(-2) : ['dbo', path[0]];
    const object = (await this.listObjects([schema])).find((o) => o.name === name);
    if (!object) return undefined;
    const target = `[${schema.replaceAll(']', ']]')}].[${name.replaceAll(']', ']]')}]`;
    const columns = await this.rows(MSSQL_COLUMNS, [target]);
    const idx = await this.rows(MSSQL_INDEXES, [target]);
    const fks = await this.rows(MSSQL_FOREIGN_KEYS, [target]);
    const indexes = new Map<string, { name: string; columns: string[]; unique: boolean }>();
    for (const r of idx) {
      const e = indexes.get(String(r.name)) ?? { name: String(r.name), columns: [], unique: Boolean(r.uniq) };
      e.columns.push(String(r.col));
      indexes.set(e.name, e);
    }
    return {
      object,
      columns: columns.map((c) => ({
        name: String(c.name),
        type: String(c.type),
        nullable: Boolean(c.nullable),
        isPrimary: Number(c.pk) === 1,
        ...(c.def !== null ? { defaultValue: String(c.def) } : {}),
      })),
      indexes: [...indexes.values()],
      foreignKeys: fks.map((f) => ({
        columnName: String(f.col),
        constraintName: String(f.cname),
        referencedPath: [String(f.rschema), String(f.rtable)],
        referencedTable: String(f.rtable),
        referencedColumn: String(f.rcol),
        onUpdate: String(f.upd),
        onDelete: String(f.del),
      })),
    };
  };

  poolStats() {
    return { total: this.pool.size, idle: this.pool.available, waiting: this.pool.pending };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  const pool = new sql.ConnectionPool(mssqlConfig(conn) as unknown as sql.config);
  pool.on('error', () => undefined);
  try {
    await pool.connect();
  } catch (err) {
    throw mapMssqlError(err, conn.queryTimeoutMs);
  }
  return new MssqlProvider(conn, pool);
}
