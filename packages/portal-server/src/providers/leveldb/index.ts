// The LevelDB provider: one classic-level handle per folder (LevelDB locks it; providers of one file share it),
// running one command of command.ts under the query deadline. Reads iterate in key order and stop at the
// row ceiling, at their LIMIT or when the deadline cancels them; results are rows {key, value}.

import { ClassicLevel } from 'classic-level';
import { resultBatches, sessionWithoutTransactions } from '../buffered-results.js';
import type { Catalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
import { embeddedPath } from '../descriptor.js';
import { ProviderError, queryError, unsupported } from '../errors.js';
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
import { LevelCatalog } from './catalog.js';
import { type LevelCommand, parseLevelCommand } from './command.js';
import { levelCapabilities } from './engine.js';

const FIELDS = ['key', 'value'];
const rows = (pairs: Array<[string, string]>, maxRows: number): ExecResult => {
  const truncated = pairs.length > maxRows;
  const kept = truncated ? pairs.slice(0, maxRows) : pairs;
  return {
    fields: FIELDS,
    rows: kept.map(([key, value]) => ({ key, value })),
    rowCount: kept.length,
    truncated,
  };
};

export class LevelProvider implements Provider {
  readonly engine = 'leveldb' as const;
  readonly capabilities = levelCapabilities;
  private running = 0;

  constructor(
    private readonly db: ClassicLevel<string, string>,
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {
    this.catalog = new LevelCatalog(path, () => this.running);
  }

  private async run(c: LevelCommand, maxRows: number, stopped: () => boolean): Promise<ExecResult> {
    switch (c.verb) {
      case 'GET': {
        const v = await this.db.get(c.key);
        return rows(v === undefined ? [] : [[c.key, v]], maxRows);
      }
      case 'PUT':
        await this.db.put(c.key, c.value);
        return { fields: [], rows: [], rowCount: 1, truncated: false };
      case 'DELETE': {
        const had = (await this.db.get(c.key)) !== undefined;
        await this.db.del(c.key);
        return { fields: [], rows: [], rowCount: had ? 1 : 0, truncated: false };
      }
      default: {
        const range =
          c.verb === 'PREFIX'
            ? { gte: c.prefix, ...(c.prefix !== '' ? { lt: `${c.prefix}\uffff` } : {}) }
            : { ...(c.from !== '' ? { gte: c.from } : {}), ...(c.to !== '' ? { lt: c.to } : {}) };
        // One row more than kept, so the caller learns that more exist.
        const cap = Math.min(c.limit ?? Number.POSITIVE_INFINITY, maxRows + 1);
        const out: Array<[string, string]> = [];
        if (cap === 0) return rows(out, maxRows);
        for await (const [k, v] of this.db.iterator(range)) {
          if (c.verb === 'PREFIX' && !k.startsWith(c.prefix)) break;
          out.push([k, v]);
          if (out.length >= cap || stopped()) break;
        }
        if (stopped()) throw new ProviderError('cancelled', 'The command was cancelled');
        return rows(out, maxRows);
      }
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    if (params.length > 0)
      throw unsupported('LevelDB commands take their arguments inline; params are not accepted');
    const parsed = parseLevelCommand(sql);
    if (!parsed.ok) throw queryError(parsed.reason);
    let stop = false;
    const cancel = async () => {
      stop = true;
    };
    opts.onStart?.(cancel);
    this.running++;
    try {
      return await withDeadline(
        this.run(parsed.command, opts.maxRows, () => stop),
        {
          timeoutMs: this.timeoutMs,
          cancel,
        },
      );
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw queryError(err instanceof Error ? err.message : String(err));
    } finally {
      this.running--;
    }
  }

  async explain(): Promise<never> {
    throw unsupported('LevelDB has no query plans');
  }

  /** Exports: a reading command's bounded answer, in batches (the export route lets only reads through). */
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
      'LevelDB datasources have no transactions here',
    );
  }

  readonly catalog: Catalog;

  poolStats() {
    return { total: 1, idle: this.running > 0 ? 0 : 1, waiting: 0 };
  }

  close(): Promise<void> {
    return release(this.path);
  }
}

/**
 * Open handles by folder: LevelDB locks its folder, so datasources naming the same file (a read-only and a
 * writing definition of one store) share one handle, closed when the last provider closes.
 */
const HANDLES = new Map<string, { db: Promise<ClassicLevel<string, string>>; refs: number }>();

async function acquire(path: string): Promise<ClassicLevel<string, string>> {
  let h = HANDLES.get(path);
  if (!h) {
    const db = new ClassicLevel<string, string>(path, { valueEncoding: 'utf8', keyEncoding: 'utf8' });
    h = { db: db.open().then(() => db), refs: 0 };
    HANDLES.set(path, h);
    h.db.catch(() => HANDLES.delete(path));
  }
  h.refs++;
  return h.db;
}

async function release(path: string): Promise<void> {
  const h = HANDLES.get(path);
  if (!h) return;
  h.refs--;
  if (h.refs > 0) return;
  HANDLES.delete(path);
  await (await h.db).close();
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, ctx: ProviderContext): Promise<Provider> {
  const path = embeddedPath(conn.descriptor.database, ctx.embeddedDir, true);
  try {
    return new LevelProvider(await acquire(path), path, conn.queryTimeoutMs);
  } catch (err) {
    const h = HANDLES.get(path);
    if (h) h.refs--;
    const cause = (err as { cause?: Error }).cause?.message ?? (err as Error).message;
    throw new ProviderError('connection', `LevelDB could not open ${conn.descriptor.database}: ${cause}`);
  }
}
