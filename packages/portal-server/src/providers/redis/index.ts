// The Redis provider: runs one command (command.ts) on the provider's connection under the query deadline
// and shapes its reply as the spec's query result; the catalog (catalog.ts) answers objects and health.
// Commands that would take the connection over (subscriptions, MONITOR, replication, SELECT, QUIT, RESET,
// transaction blocks) are refused: a pooled connection must come back as it was handed out.
import type { Redis } from 'ioredis';
import { resultBatches, sessionWithoutTransactions } from '../buffered-results.js';
import { type Catalog, guardedCatalog } from '../catalog.js';
import { withDeadline } from '../deadline.js';
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
import { jsonValue } from '../values.js';
import { RedisCatalog } from './catalog.js';
import { mapRedisError, openClient } from './client.js';
import { parseRedisCommand } from './command.js';
import { isReadCommand } from './commands.js';
import { REDIS_TRANSACTION_WORDS, redisCapabilities, redisDatabaseIndex } from './engine.js';
import { redisAccountPrivileges } from './privileges.js';

const REFUSED = new Set([
  'SUBSCRIBE',
  'PSUBSCRIBE',
  'SSUBSCRIBE',
  'UNSUBSCRIBE',
  'PUNSUBSCRIBE',
  'SUNSUBSCRIBE',
  'MONITOR',
  'SYNC',
  'PSYNC',
  'REPLCONF',
  'SELECT',
  'QUIT',
  'RESET',
  'AUTH',
  'HELLO',
  ...REDIS_TRANSACTION_WORDS,
]);

/** Commands whose flat reply alternates name and value. */
const PAIR_REPLIES = new Set(['HGETALL', 'CONFIG']);

const INTEGER = /^-?\d+$/;

/**
 * A raw reply (read with `callBuffer` under `stringNumbers`) as JSON values. There bulk and status replies
 * arrive as Buffers and integer replies as strings of digits, so the two cannot be confused: text is
 * decoded as UTF-8, an integer is a number while it is exact and its digits as a string past 2^53 (as the
 * spec writes every big number), arrays convert element by element.
 */
export function replyValue(reply: unknown): unknown {
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  if (typeof reply === 'string' && INTEGER.test(reply)) {
    const n = Number(reply);
    return Number.isSafeInteger(n) ? n : reply;
  }
  if (Array.isArray(reply)) return reply.map(replyValue);
  return reply;
}

/** A reply as rows: a scalar is one row `value`, a list one row per element, a flat pair list `field`/`value`. */
export function replyResult(name: string, reply: unknown, maxRows: number): ExecResult {
  let fields: string[];
  let rows: unknown[][];
  if (Array.isArray(reply)) {
    if (PAIR_REPLIES.has(name) && reply.length % 2 === 0 && reply.every((v) => !Array.isArray(v))) {
      fields = ['field', 'value'];
      rows = [];
      for (let i = 0; i < reply.length; i += 2) rows.push([reply[i], reply[i + 1]]);
    } else {
      fields = ['index', 'value'];
      rows = reply.map((v, i) => [i, Array.isArray(v) ? JSON.stringify(v) : jsonValue(v)]);
    }
  } else {
    fields = ['value'];
    rows = [[reply === null || reply === undefined ? null : jsonValue(reply)]];
  }
  const truncated = rows.length > maxRows;
  const kept = truncated ? rows.slice(0, maxRows) : rows;
  return {
    fields,
    rows: kept.map((r) => Object.fromEntries(fields.map((f, i) => [f, r[i]]))),
    rowCount: kept.length,
    truncated,
  };
}

export class RedisProvider implements Provider {
  readonly engine = 'redis' as const;
  readonly capabilities = redisCapabilities;
  private client: Redis;
  private running = 0;
  readonly catalog: Catalog;

  constructor(private readonly conn: ResolvedConnection) {
    this.client = openClient(conn);
    this.catalog = guardedCatalog(
      new RedisCatalog(() => this.client, redisDatabaseIndex(conn.descriptor.database), conn.descriptor.user),
      (work) => this.guarded(work),
    );
  }

  /** Drops the connection (stopping whatever runs on it) and opens a fresh one for the next command. */
  private reset(): void {
    const old = this.client;
    this.client = openClient(this.conn);
    old.disconnect();
  }

  private async guarded<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw mapRedisError(err);
    }
  }

  async query(sql: string, params: ParamValue[], opts: ExecOptions): Promise<ExecResult> {
    if (params.length > 0)
      throw unsupported('Redis commands take their arguments inline; params are not accepted');
    const parsed = parseRedisCommand(sql);
    if (!parsed.ok) throw queryError(parsed.reason);
    const { name, args } = parsed.command;
    if (REFUSED.has(name))
      throw queryError(`${name} takes the connection over and is not accepted by the portal`);
    const client = this.client;
    let cancelled = false;
    const cancel = async () => {
      cancelled = true;
      if (client === this.client) this.reset();
    };
    opts.onStart?.(cancel);
    this.running++;
    try {
      const reply = await withDeadline(
        this.guarded(() => client.callBuffer(name, ...args)),
        {
          timeoutMs: this.conn.queryTimeoutMs,
          cancel,
        },
      );
      return replyResult(name, replyValue(reply), opts.maxRows);
    } catch (err) {
      if (cancelled && !(err instanceof ProviderError && err.kind === 'timeout'))
        throw new ProviderError('cancelled', 'The command was cancelled');
      throw err;
    } finally {
      this.running--;
    }
  }

  /**
   * The read-only command filter: only commands on the read allowlist (commands.ts) reach the server. The
   * datasource's account can also be a read-only ACL user (docs/portal-governance.md), which the server enforces.
   */
  readOnlyView(): Provider {
    const query = async (sql: string, params: ParamValue[], opts: ExecOptions) => {
      const parsed = parseRedisCommand(sql);
      if (parsed.ok && !isReadCommand(parsed.command.name, parsed.command.args))
        throw queryError(
          `${parsed.command.name} is refused by the read-only command filter of this datasource`,
        );
      return this.query(sql, params, opts);
    };
    const view: Provider = new Proxy(this as Provider, {
      get: (target, prop) => {
        if (prop === 'query') return query;
        if (prop === 'stream')
          return async function* (
            sql: string,
            params: ParamValue[],
            opts: { maxRows: number; batchSize: number },
          ) {
            yield* resultBatches(await query(sql, params, { maxRows: opts.maxRows }), opts.batchSize);
          };
        if (prop === 'openSession')
          return async () => sessionWithoutTransactions(query, 'Redis datasources have no transactions here');
        if (prop === 'readOnlyView') return () => view;
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return view;
  }

  accountPrivileges(): Promise<string[]> {
    return redisAccountPrivileges((...args) =>
      this.guarded(() => this.client.call(args[0], ...args.slice(1))),
    );
  }

  async explain(): Promise<never> {
    throw unsupported('Redis has no query plans');
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
      'Redis datasources have no transactions here',
    );
  }

  poolStats() {
    return { total: 1, idle: this.running > 0 ? 0 : 1, waiting: Math.max(0, this.running - 1) };
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, _ctx: ProviderContext): Promise<Provider> {
  return new RedisProvider(conn);
}
