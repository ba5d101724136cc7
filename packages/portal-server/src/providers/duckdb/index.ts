// DuckDB provider (@duckdb/node-api): a database file on the server or an in-memory database, one instance
// per provider, a fresh connection per statement (cheap in DuckDB, and statements run concurrently), plans as
// JSON trees, cancel and timeout through connection.interrupt(). External access (reading or writing server
// files, loading extensions) is switched off: a portal user must not reach the server's file system.
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBResult,
  JsonDuckDBValueConverter,
  ResultReturnType,
} from '@duckdb/node-api';
import { withDeadline } from '../deadline.js';
import { embeddedPath, IN_MEMORY } from '../descriptor.js';
import { ProviderError, timeoutError } from '../errors.js';
import { sqlSession } from '../sql-session.js';
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
import { arrayResult } from '../values.js';
import { duckdbCatalog } from './catalog.js';
import { duckdbCapabilities } from './engine.js';

const INTEGER_TYPES = /^(BIGINT|UBIGINT|HUGEINT|UHUGEINT)$/;

function mapDuckError(
  err: unknown,
  timeoutMs: number,
  interrupted: { timeout: boolean; cancel: boolean },
): ProviderError {
  if (err instanceof ProviderError) return err;
  const message = (err as Error)?.message ?? String(err);
  if (/interrupt/i.test(message)) {
    if (interrupted.timeout) return timeoutError(timeoutMs);
    return new ProviderError('cancelled', message);
  }
  if (/IO Error|Could not set lock|Cannot open/i.test(message))
    return new ProviderError('connection', message);
  return new ProviderError('query', message);
}

/** DuckDB values → JSON-safe values; BIGINT-family columns become numbers when exact. */
async function readRows(
  result: DuckDBResult,
  maxRows: number,
): Promise<{ rows: unknown[][]; truncated: boolean }> {
  const types = result.columnTypes().map((t) => t.toString());
  const rows: unknown[][] = [];
  let truncated = false;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const converted = chunk.convertRows(JsonDuckDBValueConverter) as unknown[][];
    for (const row of converted) {
      if (rows.length >= maxRows) {
        truncated = true;
        break;
      }
      rows.push(fixIntegers(row, types));
    }
    if (truncated) break;
  }
  return { rows, truncated };
}

function fixIntegers(row: unknown[], types: string[]): unknown[] {
  for (let i = 0; i < row.length; i++) {
    if (typeof row[i] === 'string' && INTEGER_TYPES.test(types[i])) {
      const n = Number(row[i]);
      if (Number.isSafeInteger(n)) row[i] = n;
    }
  }
  return row;
}

class DuckdbProvider implements Provider {
  readonly engine = 'duckdb' as const;
  readonly capabilities = duckdbCapabilities;
  private active = 0;

  constructor(
    readonly conn: ResolvedConnection,
    readonly instance: DuckDBInstance,
  ) {}

  get timeoutMs() {
    return this.conn.queryTimeoutMs;
  }

  async run(c: DuckDBConnection, sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    const flags = { timeout: false, cancel: false };
    const cancel = async () => {
      flags.cancel = true;
      c.interrupt();
    };
    opts.onStart?.(cancel);
    const work = (async () => {
      const result = await c.stream(sql, params.length > 0 ? (params as never[]) : undefined);
      const names = result.columnNames();
      const types = result.columnTypes().map((t) => t.toString());
      const { rows, truncated } = await readRows(result, opts.maxRows + 1);
      return {
        names,
        types,
        rows,
        truncated,
        changed: result.rowsChanged,
        returnsRows: result.returnType === ResultReturnType.QUERY_RESULT,
      };
    })();
    try {
      const r = await withDeadline(work, {
        timeoutMs: this.timeoutMs,
        cancel: () => {
          flags.timeout = true;
          c.interrupt();
        },
      });
      return r.returnsRows
        ? arrayResult(r.names, r.rows, opts.maxRows, null, r.types)
        : arrayResult([], [], opts.maxRows, r.changed);
    } catch (err) {
      throw mapDuckError(err, this.timeoutMs, flags);
    }
  }

  async withConnection<T>(fn: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    const c = await this.instance.connect();
    this.active++;
    try {
      return await fn(c);
    } finally {
      this.active--;
      c.closeSync();
    }
  }

  query(sql: string, params: ParamValue[], opts: ExecOptions) {
    return this.withConnection((c) => this.run(c, sql, params, opts));
  }

  explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze') {
    return this.withConnection(async (c) => {
      if (mode === 'estimate') {
        const r = await this.run(c, `EXPLAIN (FORMAT JSON) ${sql}`, params, { maxRows: 100 });
        return { ...parsePlan(r), explainFormat: 'duckdb-json' };
      }
      // ANALYZE executes the statement: inside a transaction that is rolled back.
      await c.run('BEGIN TRANSACTION');
      try {
        const r = await this.run(c, `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params, { maxRows: 100 });
        return { ...parsePlan(r), explainFormat: 'duckdb-json-analyze' };
      } finally {
        await c.run('ROLLBACK').catch(() => undefined);
      }
    });
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    const c = await this.instance.connect();
    this.active++;
    try {
      await c.run('BEGIN TRANSACTION');
      const result = await c.stream(sql, params.length > 0 ? (params as never[]) : undefined).catch((err) => {
        throw mapDuckError(err, this.timeoutMs, { timeout: false, cancel: false });
      });
      const fields = result.columnNames();
      const types = result.columnTypes().map((t) => t.toString());
      let sent = 0;
      let pending: unknown[][] = [];
      for (;;) {
        const chunk = await withDeadline(result.fetchChunk(), {
          timeoutMs: this.timeoutMs,
          cancel: () => c.interrupt(),
        });
        if (!chunk || chunk.rowCount === 0) break;
        for (const row of chunk.convertRows(JsonDuckDBValueConverter) as unknown[][])
          pending.push(fixIntegers(row, types));
        if (pending.length + sent > opts.maxRows) pending = pending.slice(0, opts.maxRows - sent);
        if (pending.length >= opts.batchSize || sent + pending.length >= opts.maxRows) {
          sent += pending.length;
          yield { fields, columnTypes: types, rows: pending };
          pending = [];
          if (sent >= opts.maxRows) break;
        }
      }
      if (pending.length > 0 || sent === 0) yield { fields, columnTypes: types, rows: pending };
    } finally {
      await c.run('ROLLBACK').catch(() => undefined);
      this.active--;
      c.closeSync();
    }
  }

  async openSession(): Promise<ProviderSession> {
    const c = await this.instance.connect();
    this.active++;
    return sqlSession({
      query: (sql, params, opts) => this.run(c, sql, params, opts),
      beginSql: 'BEGIN TRANSACTION',
      control: (sql) => this.run(c, sql, [], { maxRows: 0 }),
      release: async (inTx) => {
        if (inTx) await c.run('ROLLBACK').catch(() => undefined);
        this.active--;
        c.closeSync();
      },
    });
  }

  connections() {
    return this.active;
  }

  catalog = duckdbCatalog(this);

  poolStats() {
    return { total: this.active, idle: 0, waiting: 0 };
  }

  async close(): Promise<void> {
    this.instance.closeSync();
  }
}

/** EXPLAIN (FORMAT JSON) answers (explain_key, explain_value); hand the plan back parsed. */
function parsePlan(r: ExecResult): ExecResult {
  const rows = r.rows.map((row) => {
    const out: Record<string, unknown> = { ...row };
    for (const [k, v] of Object.entries(row)) {
      if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
        try {
          out[k] = JSON.parse(v);
        } catch {
          // not JSON after all
        }
      }
    }
    return out;
  });
  return { ...r, rows };
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, ctx: ProviderContext): Promise<Provider> {
  const path = embeddedPath(conn.descriptor.database, ctx.embeddedDir, true);
  try {
    const instance = await DuckDBInstance.create(path === IN_MEMORY ? ':memory:' : path, {
      enable_external_access: 'false',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
    });
    return new DuckdbProvider(conn, instance);
  } catch (err) {
    throw new ProviderError('connection', (err as Error).message);
  }
}
