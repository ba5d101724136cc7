// The provider both search engines run on, parameterised by a `SearchFlavor` (Elasticsearch's lives in
// flavor.ts, OpenSearch's in providers/opensearch/flavor.ts). Statements go to the product's SQL endpoint
// (pager.ts follows the cursor), under the query deadline: the request's AbortController is what the
// deadline and a cancel fire, so a statement past `queryTimeout` ends as 408 and the engine sees its request
// closed. The engines are read-only (their SQL has no writes; the portal refuses writes before anything is
// sent): no plans, maintenance, transactions or positional params. Objects and health come from catalog.ts.
import { sessionWithoutTransactions } from '../buffered-results.js';
import { type Catalog, guardedCatalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { ProviderError, timeoutError, unsupported } from '../errors.js';
import type {
  ExecOptions,
  ExecResult,
  ParamValue,
  Provider,
  ProviderSession,
  ResolvedConnection,
  StreamBatch,
} from '../types.js';
import { arrayResult, jsonValue, uniqueFields } from '../values.js';
import { SearchCatalog } from './catalog.js';
import { SearchClient } from './client.js';
import type { SearchEngineId, SearchFlavor } from './flavor.js';
import { MAX_PAGES, type ReadState, readPages } from './pager.js';
import { searchCapabilities } from './search-engine.js';

export class SearchProvider implements Provider {
  readonly capabilities = searchCapabilities;
  private readonly client: SearchClient;
  readonly catalog: Catalog;
  private running = 0;

  constructor(
    private readonly conn: ResolvedConnection,
    private readonly flavor: SearchFlavor,
  ) {
    this.client = new SearchClient(conn, flavor.product);
    // Catalog reads run under the query deadline too (their requests end when it fires).
    this.catalog = guardedCatalog(new SearchCatalog(this.client, flavor, conn.descriptor.user), (work) =>
      this.deadline(work),
    );
  }

  get engine(): SearchEngineId {
    return this.flavor.engine;
  }

  private refuseParams(params: ParamValue[]): void {
    if (params.length > 0)
      throw unsupported(
        `${this.flavor.product} SQL takes no positional params; write the values into the statement`,
      );
  }

  /** Runs `work` with an AbortSignal the deadline (and `onStart`'s cancel) fire. */
  private async deadline<T>(
    work: (signal: AbortSignal) => Promise<T>,
    onStart?: ExecOptions['onStart'],
  ): Promise<T> {
    const controller = new AbortController();
    let cancelled = false;
    const cancel = async () => {
      cancelled = true;
      controller.abort();
    };
    onStart?.(cancel);
    this.running++;
    try {
      return await withDeadline(work(controller.signal), { timeoutMs: this.conn.queryTimeoutMs, cancel });
    } catch (err) {
      if (cancelled && !(err instanceof ProviderError && err.kind === 'timeout'))
        throw new ProviderError('cancelled', 'The statement was cancelled');
      throw err;
    } finally {
      this.running--;
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    this.refuseParams(params);
    return this.deadline(async (signal) => {
      const rows: unknown[][] = [];
      let names: string[] = [];
      let types: string[] = [];
      const state: ReadState = { more: false, pageCapHit: false };
      for await (const page of readPages(this.client, this.flavor, sql, opts.maxRows + 1, signal, state)) {
        names = page.names;
        types = page.types;
        for (const r of page.rows) rows.push(r);
        // One row past the caller's bound tells it that more exist.
        if (rows.length > opts.maxRows) break;
      }
      const result = arrayResult(names, rows, opts.maxRows, 0, types);
      const warnings = state.pageCapHit
        ? [
            `${this.flavor.product} paged this result; the portal followed its cursor for ${MAX_PAGES} pages and stopped (the result is truncated)`,
          ]
        : [];
      return {
        ...result,
        truncated: result.truncated || state.more,
        ...(warnings.length ? { warnings } : {}),
      };
    }, opts.onStart);
  }

  async explain(): Promise<never> {
    throw unsupported(`${this.flavor.product} SQL has no query plans here`);
  }

  /**
   * Streams a read (an export) one engine page per batch, bounded by `maxRows`; the whole read stays within
   * `queryTimeout` (its AbortController ends the request chain).
   */
  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    this.refuseParams(params);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.conn.queryTimeoutMs);
    const state: ReadState = { more: false, pageCapHit: false };
    const fetchSize = Math.min(opts.batchSize, opts.maxRows + 1);
    let total = 0;
    let yielded = false;
    this.running++;
    try {
      for await (const page of readPages(
        this.client,
        this.flavor,
        sql,
        fetchSize,
        controller.signal,
        state,
      )) {
        const kept = page.rows.slice(0, Math.max(0, opts.maxRows - total));
        total += kept.length;
        if (kept.length > 0 || !yielded) {
          yielded = true;
          yield {
            fields: uniqueFields(page.names),
            columnTypes: page.types,
            rows: kept.map((r) => r.map(jsonValue)),
          };
        }
        if (total >= opts.maxRows) break;
      }
    } catch (err) {
      if (timedOut) throw timeoutError(this.conn.queryTimeoutMs);
      throw err;
    } finally {
      clearTimeout(timer);
      this.running--;
    }
  }

  async openSession(): Promise<ProviderSession> {
    return sessionWithoutTransactions(
      (sql, params, opts) => this.query(sql, params, opts),
      `${this.flavor.product} has no transactions`,
    );
  }

  poolStats() {
    return { total: 1, idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** Opens the provider of one flavor (each engine's index.ts calls this on first use). */
export function createSearchProvider(conn: ResolvedConnection, flavor: SearchFlavor): Provider {
  return new SearchProvider(conn, flavor);
}
