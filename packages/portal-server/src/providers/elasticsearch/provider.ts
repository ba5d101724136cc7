// The provider both search engines run on, parameterised by a `SearchFlavor` (Elasticsearch's lives in
// flavor.ts, OpenSearch's in providers/opensearch/flavor.ts). Statements go to the product's SQL endpoint
// (pager.ts follows the cursor), under the query deadline: the request's AbortController is what the
// deadline and a cancel fire, so a statement past `queryTimeout` ends as 408 and the engine sees its request
// closed. The engines are read-only (their SQL has no writes; the portal refuses writes before anything is
// sent): no plans, maintenance, transactions or positional params. Objects and health come from catalog.ts.
import { withDeadline } from '../deadline.js';
import { ProviderError, unsupported } from '../errors.js';
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
import { MAX_PAGES, readPages } from './pager.js';
import { searchCapabilities } from './search-engine.js';

export class SearchProvider implements Provider {
  readonly capabilities = searchCapabilities;
  private readonly client: SearchClient;
  readonly catalog: SearchCatalog;
  private running = 0;

  constructor(
    private readonly conn: ResolvedConnection,
    private readonly flavor: SearchFlavor,
  ) {
    this.client = new SearchClient(conn, flavor.product);
    this.catalog = new SearchCatalog(this.client, flavor, conn.descriptor.user);
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
      const read = await readPages(this.client, this.flavor, sql, opts.maxRows + 1, signal, (page) => {
        for (const r of page) rows.push(r);
        return rows.length <= opts.maxRows;
      });
      const result = arrayResult(read.names, rows, opts.maxRows, 0, read.types);
      const warnings: string[] = [];
      if (read.pageCapHit) {
        warnings.push(
          `${this.flavor.product} paged this result; the portal followed its cursor for ${MAX_PAGES} pages and stopped (the result is truncated)`,
        );
      }
      return {
        ...result,
        truncated: result.truncated || read.more,
        ...(warnings.length ? { warnings } : {}),
      };
    }, opts.onStart);
  }

  async explain(): Promise<never> {
    throw unsupported(`${this.flavor.product} SQL has no query plans here`);
  }

  /** Streams a read page by page (an export): each engine page is one batch, bounded by `maxRows`. */
  async *stream(
    sql: string,
    params: ParamValue[],
    opts: { maxRows: number; batchSize: number },
  ): AsyncIterable<StreamBatch> {
    this.refuseParams(params);
    // The engine's pages arrive in one request chain under the deadline; the batches are handed on after.
    const batches: unknown[][][] = [];
    let total = 0;
    const read = await this.deadline((signal) =>
      readPages(this.client, this.flavor, sql, Math.min(opts.batchSize, opts.maxRows + 1), signal, (page) => {
        const kept = page.slice(0, Math.max(0, opts.maxRows - total));
        total += kept.length;
        if (kept.length > 0) batches.push(kept);
        return total < opts.maxRows;
      }),
    );
    const fields = uniqueFields(read.names);
    if (batches.length === 0) yield { fields, columnTypes: read.types, rows: [] };
    for (const rows of batches)
      yield { fields, columnTypes: read.types, rows: rows.map((r) => r.map(jsonValue)) };
  }

  async openSession(): Promise<ProviderSession> {
    const noTx = async () => {
      throw unsupported(`${this.flavor.product} has no transactions`);
    };
    return {
      query: (sql, params, opts) => this.query(sql, params, opts),
      begin: noTx,
      commit: noTx,
      rollback: noTx,
      close: async () => undefined,
    };
  }

  private bounded<T>(work: () => Promise<T>): Promise<T> {
    return this.deadline(() => work());
  }

  testConnection = () => this.bounded(() => this.catalog.profile());
  profile = () => this.bounded(() => this.catalog.profile());
  health = () => this.bounded(() => this.catalog.health());
  monitoring = () => this.bounded(() => this.catalog.monitoring());
  async maintenance(): Promise<never> {
    throw unsupported(`${this.flavor.product} offers no maintenance operations here`);
  }
  listObjects = (path: readonly string[] | undefined) => this.bounded(() => this.catalog.listObjects(path));
  inventory = () => this.bounded(() => this.catalog.inventory());
  counts = () => this.bounded(() => this.catalog.counts());
  describe = (path: readonly string[]) => this.bounded(() => this.catalog.describe(path));

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
