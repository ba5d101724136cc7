// The Redis engine (the key-value engine of decisions.md): a server reached with ioredis. It has no SQL:
// `sql` holds one command as text or JSON {command, args} (command.ts), classified from the command flags
// the client library ships (governance/classify/redis.ts). Its "dialect" keeps the whole text as one
// statement (the command reader refuses a second command), never injects a limit (the provider bounds every
// answer; `redisFacts` tells the export route which commands are plain reads) and names
// MULTI/EXEC/DISCARD/WATCH/UNWATCH as transaction control.
import { noSplitSplitterOptions } from 'dbgate-query-splitter';
import type { StatementFacts } from '../../sql/analyze.js';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities } from '../types.js';
import { parseRedisCommand } from './command.js';
import { isReadCommand } from './commands.js';

export const REDIS_TRANSACTION_WORDS = new Set(['MULTI', 'EXEC', 'DISCARD', 'WATCH', 'UNWATCH']);

export const redisCapabilities: Capabilities = {
  supportsExplain: false,
  explainModes: [],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: false,
  declaresForeignKeys: false,
  // Commands take their arguments inline; positional params are refused.
  parameterStyle: '?',
  supportsPositionalParams: false,
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [],
  // Replies are values, not rows of a table: an INSERT or CREATE TABLE export would invent one (400).
  sqlExport: false,
};

/** The logical database index `database` names (0 when absent). */
export function redisDatabaseIndex(database: string | undefined): number {
  const raw = (database ?? '').trim();
  if (raw === '') return 0;
  if (!/^\d{1,5}$/.test(raw)) throw configError('Redis `database` must be a database index (0, 1, …)');
  return Number(raw);
}

/**
 * Statement facts for the routes that need a plain read (export): a command the allowlist (commands.ts)
 * knows to read, and its answer is bounded by the provider (so no limit is injected). Scripts and
 * functions never count as plain reads; the classifier stays the judge of writes for every other route.
 */
export function redisFacts(statement: string): StatementFacts {
  const parsed = parseRedisCommand(statement);
  const reads = parsed.ok && isReadCommand(parsed.command.name, parsed.command.args);
  return { kind: reads ? 'select' : 'other', readOnly: reads, hasLimit: reads, hasOrderBy: false };
}

export const redisEngine: EngineDescriptor<'redis', 'redis'> = {
  engine: 'redis',
  label: 'Redis',
  editor: {
    request: 'command',
    language: 'redis',
    keywords: [
      'GET',
      'SET',
      'DEL',
      'KEYS',
      'SCAN',
      'HGETALL',
      'HGET',
      'LRANGE',
      'SMEMBERS',
      'TTL',
      'TYPE',
      'INFO',
    ],
  },
  dialect: 'redis',
  // Judged from the command flags the client library ships.
  classifier: { reader: 'command-flags' },
  fileBased: false,
  readOnly: 'provider', // the read-only command filter (RedisProvider.readOnlyView)
  defaultPort: 6379,
  capabilities: redisCapabilities,
  validate(conn) {
    redisDatabaseIndex(conn.database);
    if (
      conn.connectionString !== undefined &&
      conn.connectionString !== '' &&
      !/^rediss?:\/\//.test(conn.connectionString)
    )
      throw configError('A Redis connectionString must start with redis:// or rediss://');
  },
  sqlDialect: {
    name: 'redis',
    splitter: { ...noSplitSplitterOptions },
    // No SQL grammar: the parser fails, so nothing is ever read as a SELECT or given a limit clause.
    parser: { kind: 'nsp', database: 'redis' },
    quote: quoteStyles.double,
    limitClause: limitClauses.limitOffset,
    transactionControl: (w1) => (REDIS_TRANSACTION_WORDS.has(w1) ? w1 : null),
    analyze: redisFacts,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
