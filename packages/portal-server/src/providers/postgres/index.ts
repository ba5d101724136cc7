// PostgreSQL provider (pg): a pool per connection identity, statements over the extended protocol (one
// statement per round-trip, parameters bound by the server), `statement_timeout` plus a client deadline that
// sends the protocol's cancel request, plans as JSON, exports through a server-side cursor inside a READ ONLY
// transaction (constant memory: FETCH in batches).
import pg from 'pg';
import { withDeadline } from '../deadline.js';
import { configError } from '../errors.js';
import { sqlSession } from '../sql-session.js';
import { normalizeSsl, tlsOptions } from '../ssl.js';
import type {
  ExecOptions,
  ExecResult,
  Provider,
  ProviderContext,
  ProviderSession,
  ResolvedConnection,
  StreamBatch,
} from '../types.js';
import { arrayResult } from '../values.js';
import { pgCatalog } from './catalog.js';
import { postgresCapabilities } from './engine.js';
import { mapPgError } from './errors.js';
import { pgAccountPrivileges } from './privileges.js';
import { pgTypeName, pgTypes } from './types.js';

type PgClient = pg.PoolClient & { activeQuery?: unknown; processID?: number };

export function pgPoolConfig(conn: ResolvedConnection): pg.PoolConfig {
  const d = conn.descriptor;
  const ssl = normalizeSsl(d.ssl);
  return {
    ...(d.connectionString ? { connectionString: d.connectionString } : {}),
    ...(conn.host ? { host: conn.host } : {}),
    ...(conn.port ? { port: conn.port } : {}),
    ...(d.user ? { user: d.user } : {}),
    ...(d.password !== undefined ? { password: d.password } : {}),
    ...(d.database ? { database: d.database } : {}),
    ...(ssl ? { ssl: tlsOptions(ssl, d.host) } : d.connectionString ? {} : { ssl: false }),
    max: 10,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: conn.connectTimeoutMs,
    statement_timeout: conn.queryTimeoutMs,
    application_name: 'database-portal',
    types: pgTypes,
    ...(d.schema ? { options: `-c search_path=${d.schema.replace(/[^A-Za-z0-9_$,"]/g, '')}` } : {}),
  };
}

/**
 * One statement's rows, gathered from pg's `row` events into a fresh array rather than by pg's own result
 * (a promise or callback query). Measured on a 1,000,000-row cursor: pg's accumulated result let ~180 MB of
 * the rows' values be promoted to the old generation whatever the batch size; gathered here, ~1 MB
 * (docs/portal-runtime.md, "Export memory"). The export's batches then die young.
 */
function fetchRows(
  client: pg.PoolClient,
  text: string,
): Promise<{ fields: pg.FieldDef[]; rows: unknown[][] }> {
  return new Promise((resolve, reject) => {
    const rows: unknown[][] = [];
    const query = new pg.Query({ text, rowMode: 'array' } as pg.QueryConfig);
    query.on('row', (row: unknown[]) => {
      rows.push(row);
    });
    query.on('end', (result) => resolve({ fields: result.fields, rows }));
    query.on('error', reject);
    client.query(query);
  });
}

class PostgresProvider implements Provider {
  readonly engine = 'postgres' as const;
  readonly capabilities = postgresCapabilities;
  readonly pool: pg.Pool;
  private readonly typeNames = new Map<number, string>();
  private typeNamesLoaded = false;

  constructor(readonly conn: ResolvedConnection) {
    this.pool = new pg.Pool(pgPoolConfig(conn));
    this.pool.on('error', () => undefined); // an idle client dropped by the server is replaced on next use
  }

  get timeoutMs(): number {
    return this.conn.queryTimeoutMs;
  }

  async connect(): Promise<PgClient> {
    try {
      return (await this.pool.connect()) as PgClient;
    } catch (err) {
      throw mapPgError(err, this.timeoutMs);
    }
  }

  /** Sends the protocol cancel request for the client's running statement (what psql's Ctrl-C does). */
  cancelClient(client: PgClient): Promise<void> {
    const canceller = new pg.Client(pgPoolConfig(this.conn));
    // `Client.cancel(client, query)` is pg's own (undeclared) protocol cancel; read by name.
    const cancel: unknown = Reflect.get(canceller, 'cancel');
    if (typeof cancel === 'function') cancel.call(canceller, client, client.activeQuery);
    return Promise.resolve();
  }

  private async typeNamesFor(oids: number[]): Promise<string[]> {
    if (!this.typeNamesLoaded && oids.some((o) => pgTypeName(o, this.typeNames).startsWith('oid:'))) {
      this.typeNamesLoaded = true;
      const res = await this.pool.query<{ oid: number; name: string }>(
        'SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])',
        [oids],
      );
      for (const r of res.rows) this.typeNames.set(r.oid, r.name);
    }
    return oids.map((o) => pgTypeName(o, this.typeNames));
  }

  /** Runs one statement on a client, bounded by the deadline; marks the client broken if it would not stop. */
  async run(client: PgClient, sql: string, params: unknown[], opts: ExecOptions): Promise<ExecResult> {
    const cancel = () => this.cancelClient(client);
    opts.onStart?.(cancel);
    const q = client.query({
      text: sql,
      values: params,
      rowMode: 'array',
      queryMode: 'extended',
    } as pg.QueryConfig & {
      rowMode: 'array';
    });
    let res: pg.QueryArrayResult;
    try {
      res = await withDeadline(q, { timeoutMs: this.timeoutMs, cancel });
    } catch (err) {
      throw mapPgError(err, this.timeoutMs);
    }
    const fields = res.fields ?? [];
    const types = await this.typeNamesFor(fields.map((f) => f.dataTypeID));
    return arrayResult(
      fields.map((f) => f.name),
      res.rows ?? [],
      opts.maxRows,
      res.rowCount,
      types,
    );
  }

  async query(sql: string, params: unknown[], opts: ExecOptions): Promise<ExecResult> {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      return await this.run(client, sql, params, opts);
    } catch (err) {
      if ((err as { kind?: string }).kind === 'timeout' || (err as { kind?: string }).kind === 'connection') {
        broken = err as Error;
      }
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async explain(sql: string, params: unknown[], mode: 'estimate' | 'analyze') {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      const text =
        mode === 'analyze'
          ? `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`
          : `EXPLAIN (FORMAT JSON) ${sql}`;
      // ANALYZE executes the statement: inside a READ ONLY transaction that is always rolled back.
      if (mode === 'analyze') await client.query('BEGIN TRANSACTION READ ONLY');
      try {
        const result = await this.run(client, text, params, { maxRows: 1000 });
        return { ...result, explainFormat: mode === 'analyze' ? 'postgres-json-analyze' : 'postgres-json' };
      } finally {
        if (mode === 'analyze') await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      }
    } finally {
      client.release(broken);
    }
  }

  async *stream(
    sql: string,
    params: unknown[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN TRANSACTION READ ONLY');
      try {
        await client.query({ text: `DECLARE portal_export NO SCROLL CURSOR FOR ${sql}`, values: params });
      } catch (err) {
        throw mapPgError(err, this.timeoutMs);
      }
      let sent = 0;
      let names: string[] | undefined;
      let types: string[] | undefined;
      while (sent < opts.maxRows) {
        const want = Math.min(opts.batchSize, opts.maxRows - sent);
        let res: { fields: pg.FieldDef[]; rows: unknown[][] };
        try {
          res = await withDeadline(fetchRows(client, `FETCH FORWARD ${want} FROM portal_export`), {
            timeoutMs: this.timeoutMs,
            cancel: () => this.cancelClient(client),
          });
        } catch (err) {
          throw mapPgError(err, this.timeoutMs);
        }
        if (!names) {
          names = res.fields.map((f) => f.name);
          types = await this.typeNamesFor(res.fields.map((f) => f.dataTypeID));
        }
        sent += res.rows.length;
        yield { fields: names, columnTypes: types, rows: res.rows };
        if (res.rows.length < want) break;
      }
    } catch (err) {
      if ((err as { kind?: string }).kind === 'timeout') broken = err as Error;
      throw err;
    } finally {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      client.release(broken);
    }
  }

  async openSession(): Promise<ProviderSession> {
    const client = await this.connect();
    return sqlSession({
      query: (sql, params, opts) => this.run(client, sql, params, opts),
      beginSql: 'BEGIN',
      control: (sql) => this.run(client, sql, [], { maxRows: 0 }),
      release: async (inTx) => {
        let broken: Error | undefined;
        if (inTx) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        client.release(broken);
      },
    });
  }

  /** Superuser, server-file roles and the like (privileges.ts), for fleet health. */
  async accountPrivileges(): Promise<string[]> {
    return pgAccountPrivileges(async (sql) => (await this.pool.query<{ risky: string[] }>(sql)).rows);
  }

  catalog = pgCatalog(this);

  poolStats() {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

export type { PostgresProvider };

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  if (!conn.descriptor.connectionString && !conn.descriptor.host) {
    throw configError('A PostgreSQL connection needs host or connectionString');
  }
  return new PostgresProvider(conn);
}
