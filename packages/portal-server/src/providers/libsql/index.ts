// libSQL provider: a file on the server (libsql's native driver in a child process, like SQLite) or a network
// database by URL (libsql://, http(s)://, ws(s)://) with the auth token in `password`, through @libsql/client.
// The network kind offers only reindex and integrity check (it refuses vacuum, analyze, optimize, checkpoint),
// and so does this provider for both kinds, so the offer does not depend on where the file lives.
import { type Client, createClient, type InStatement } from '@libsql/client';
import { withDeadline } from '../deadline.js';
import { embeddedPath } from '../descriptor.js';
import { ProviderError } from '../errors.js';
import { type BackendSession, type RawResult, type SqliteBackend, WorkerBackend } from '../sqlite/backend.js';
import { SqliteFamilyProvider } from '../sqlite/provider.js';
import type { ParamValue, Provider, ProviderContext, ResolvedConnection } from '../types.js';
import { isIntegerParam } from '../values.js';
import { libsqlCapabilities, libsqlUrl } from './engine.js';

export { libsqlCapabilities, libsqlUrl } from './engine.js';

function toRaw(
  rs: { columns: string[]; columnTypes: string[]; rows: ArrayLike<unknown>[]; rowsAffected: number },
  maxRows: number,
): RawResult {
  const truncated = rs.rows.length > maxRows;
  const rows = (truncated ? rs.rows.slice(0, maxRows) : rs.rows).map((r) => Array.from(r));
  return {
    fields: rs.columns,
    types: rs.columnTypes,
    rows,
    truncated,
    changes: rs.columns.length === 0 ? rs.rowsAffected : undefined,
  };
}

function mapClientError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { code?: string; message?: string };
  const code = e.code ?? '';
  if (/AUTH|UNAUTHORIZED|401/.test(code)) return new ProviderError('authentication', e.message ?? code, code);
  if (/CONNECT|FETCH|HRANA_WEBSOCKET|ECONN|ENOTFOUND/.test(code))
    return new ProviderError('connection', e.message ?? code, code);
  return new ProviderError('query', e.message ?? String(err), code);
}

/**
 * Network libSQL through @libsql/client. The protocol has no statement cancel, so a deadline answers the
 * caller and the server finishes the statement on its own. Exports read the (row-capped) result in one
 * response and hand it on in batches.
 */
export class LibsqlClientBackend implements SqliteBackend {
  readonly remote = true;
  readonly client: Client;

  constructor(
    url: string,
    authToken: string | undefined,
    readonly timeoutMs: number,
  ) {
    this.client = createClient({ url, authToken, intMode: 'bigint' });
  }

  private async exec(
    run: (stmt: InStatement) => Promise<any>,
    sql: string,
    params: ParamValue[],
    maxRows: number,
  ): Promise<RawResult> {
    try {
      const rs = await withDeadline(
        run({ sql, args: params.map((p) => (isIntegerParam(p) ? BigInt(p) : p)) }),
        {
          timeoutMs: this.timeoutMs,
          cancel: () => undefined,
        },
      );
      return toRaw(rs, maxRows);
    } catch (err) {
      throw mapClientError(err);
    }
  }

  query(sql: string, params: ParamValue[], maxRows: number) {
    return this.exec((s) => this.client.execute(s), sql, params, maxRows);
  }

  async openSession(): Promise<BackendSession> {
    // An interactive transaction holds one server-side stream; BEGIN/COMMIT/ROLLBACK travel as statements.
    const tx = await this.client.transaction('deferred');
    let closed = false;
    return {
      query: async (sql, params, maxRows) => {
        const w = /^\s*(BEGIN|COMMIT|ROLLBACK)\s*$/i.exec(sql)?.[1]?.toUpperCase();
        if (w === 'BEGIN') return { fields: [], types: [], rows: [], truncated: false, changes: 0 };
        if (w === 'COMMIT' || w === 'ROLLBACK') {
          await (w === 'COMMIT' ? tx.commit() : tx.rollback()).catch((e) => {
            throw mapClientError(e);
          });
          return { fields: [], types: [], rows: [], truncated: false, changes: 0 };
        }
        return this.exec((s) => tx.execute(s), sql, params, maxRows);
      },
      close: async () => {
        if (closed) return;
        closed = true;
        tx.close();
      },
    };
  }

  async *stream(sql: string, params: ParamValue[], batchSize: number): AsyncGenerator<RawResult> {
    const tx = await this.client.transaction('read');
    try {
      const all = await this.exec((s) => tx.execute(s), sql, params, Number.MAX_SAFE_INTEGER);
      for (let i = 0; i === 0 || i < all.rows.length; i += batchSize) {
        yield { ...all, rows: all.rows.slice(i, i + batchSize) };
      }
    } finally {
      tx.close();
    }
  }

  connections(): number {
    return this.client.closed ? 0 : 1;
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, ctx: ProviderContext): Promise<Provider> {
  const d = conn.descriptor;
  const url = libsqlUrl(d);
  const backend = url
    ? new LibsqlClientBackend(url, d.password, conn.queryTimeoutMs)
    : new WorkerBackend('libsql', embeddedPath(d.database, ctx.embeddedDir, true), conn.queryTimeoutMs);
  return new SqliteFamilyProvider('libsql', libsqlCapabilities, backend);
}
