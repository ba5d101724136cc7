// SQL Server provider (mssql over tedious): a pool per identity, @pN parameters, requestTimeout plus a
// client deadline that cancels the request (TDS attention), SHOWPLAN/STATISTICS XML plans, exports streamed
// row by row inside a transaction that is rolled back. Verified by statement-building and mapping tests only.

import sql from 'mssql';
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
import { MssqlCatalog } from './catalog.js';
import { bindParams, explainBatches, mapMssqlResult, mssqlCapabilities, mssqlConfig } from './statements.js';

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

  readonly catalog: Catalog = new MssqlCatalog(this);

  poolStats() {
    return { total: this.pool.size, idle: this.pool.available, waiting: this.pool.pending };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  const pool = new sql.ConnectionPool(mssqlConfig(conn));
  pool.on('error', () => undefined);
  try {
    await pool.connect();
  } catch (err) {
    throw mapMssqlError(err, conn.queryTimeoutMs);
  }
  return new MssqlProvider(conn, pool);
}
