// The Trino provider: every statement is one run of the client protocol (client.ts) under the query deadline;
// the deadline and /api/db/cancel stop it for real (DELETE on its nextUri). Before sending, a trailing
// semicolon is dropped and a trailing `LIMIT n OFFSET m` is transposed to Trino's `OFFSET m LIMIT n`.
// SET SESSION / RESET SESSION / USE / PREPARE / DEALLOCATE PREPARE are answered by the portal with a warning
// and change nothing: each statement is its own protocol session, so a session change would be lost anyway.
// Column types are reported verbatim; DML reports Trino's update count.

import { stripLeadingComments } from '../../sql/split.js';
import { resultBatches, sessionWithoutTransactions } from '../buffered-results.js';
import { withDeadline } from '../deadline.js';
import { ProviderError, unsupported } from '../errors.js';
import type { HttpTarget } from '../http-request.js';
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
import { arrayResult } from '../values.js';
import { trinoCatalog } from './catalog.js';
import { cancelStatement, runStatement, serverInfo, type TrinoRun, trinoTarget } from './client.js';
import { TRINO_SESSION_STATEMENT, trinoCapabilities, validateTrino } from './engine.js';

/** The text Trino receives: no trailing semicolon, OFFSET before LIMIT. */
export function trinoText(sql: string): string {
  let text = sql.trim();
  while (text.endsWith(';')) text = text.slice(0, -1).trimEnd();
  return text.replace(
    /\bLIMIT\s+(\d+|ALL)\s+OFFSET\s+(\d+)(\s+ROWS?)?$/i,
    (_m, limit: string, offset: string, rows?: string) => `OFFSET ${offset}${rows ?? ''} LIMIT ${limit}`,
  );
}

class TrinoProvider implements Provider {
  readonly engine = 'trino' as const;
  readonly capabilities = trinoCapabilities;
  readonly target: HttpTarget;
  private running = 0;

  constructor(readonly conn: ResolvedConnection) {
    this.target = trinoTarget(conn);
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    if (params.length > 0) throw unsupported('Trino statements take no positional params here');
    const session = TRINO_SESSION_STATEMENT.exec(stripLeadingComments(sql, { mysqlComments: false }));
    if (session) {
      const word = session[1].replace(/\s+/g, ' ').toUpperCase();
      return {
        fields: [],
        rows: [],
        rowCount: 0,
        truncated: false,
        warnings: [
          `${word} changes nothing here: every statement runs in its own Trino session (set the catalog and schema on the connection instead)`,
        ],
      };
    }
    const run: TrinoRun = {};
    const abort = new AbortController();
    const cancel = async () => {
      run.cancelled = true;
      await cancelStatement(this.target, run);
      // A page already on its way is let in (it may name the nextUri to DELETE); a coordinator that does not
      // answer is given up on shortly after.
      setTimeout(() => abort.abort(), 1_500).unref();
    };
    opts.onStart?.(cancel);
    this.running++;
    try {
      const answer = await withDeadline(
        runStatement(this.target, trinoText(sql), {
          maxRows: opts.maxRows,
          signal: abort.signal,
          run,
          timeoutMs: this.conn.queryTimeoutMs,
        }),
        { timeoutMs: this.conn.queryTimeoutMs, cancel },
      );
      const warnings = answer.warnings.length > 0 ? { warnings: answer.warnings } : {};
      if (answer.updateCount !== undefined) {
        return { fields: [], rows: [], rowCount: answer.updateCount, truncated: false, ...warnings };
      }
      const r = arrayResult(
        answer.columns.map((c) => c.name),
        answer.rows,
        opts.maxRows,
        0,
        answer.columns.map((c) => c.type),
      );
      return { ...r, truncated: r.truncated || answer.truncated, ...warnings };
    } catch (err) {
      // A cancel aborts the page being read: that is a cancellation, not a transport failure.
      if (run.cancelled && !(err instanceof ProviderError && err.kind === 'timeout'))
        throw new ProviderError('cancelled', 'The statement was cancelled');
      throw err;
    } finally {
      this.running--;
    }
  }

  async explain(sql: string, params: ParamValue[], mode: 'estimate' | 'analyze'): Promise<ExplainResult> {
    if (params.length > 0) throw unsupported('Trino plans take no positional params');
    if (mode === 'analyze') {
      const r = await this.query(`EXPLAIN ANALYZE ${trinoText(sql)}`, [], { maxRows: 10_000 });
      return { ...r, explainFormat: 'trino-explain-analyze' };
    }
    const r = await this.query(`EXPLAIN (FORMAT JSON) ${trinoText(sql)}`, [], { maxRows: 10_000 });
    const field = r.fields[0];
    const rows = r.rows.map((row) => {
      try {
        return { [field]: JSON.parse(String(row[field])) };
      } catch {
        return row;
      }
    });
    return { ...r, rows, explainFormat: 'trino-json' };
  }

  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    yield* resultBatches(await this.query(sql, params, { maxRows: opts.maxRows }), opts.batchSize);
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      'Trino transactions are not offered by the portal',
    );
  }

  version = () => serverInfo(this.target);
  catalog = trinoCatalog(this);

  poolStats() {
    return { total: Math.max(1, this.running), idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  async close(): Promise<void> {}
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx?: ProviderContext): Promise<Provider> {
  validateTrino(conn.descriptor);
  return new TrinoProvider(conn);
}
