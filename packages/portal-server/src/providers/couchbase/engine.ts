// The Couchbase engine (the document engine with a SQL++ dialect, over REST; decisions.md `couchbase`):
// `database` is the bucket, `port` the management port (8091, 18091 with TLS) and the query port is found in
// the cluster map. SQL++ is split like MySQL text (backslash escapes, `…` identifiers, "…" strings) and read
// by the engine's own statement reader (statement.ts), which also tells the auto-limit whether a SELECT
// already limits itself (the dialect's `analyze`) (no parser grammar reads three-part keyspaces, UPSERT or USE KEYS).
import { mysqlSplitterOptions } from 'dbgate-query-splitter';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities } from '../types.js';
import { selectFacts } from './statement.js';

export const couchbaseCapabilities: Capabilities = {
  supportsExplain: true,
  // EXPLAIN returns the planner's plan; the query service has no "run and measure" plan.
  explainModes: ['estimate'],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: true,
  declaresForeignKeys: false,
  parameterStyle: '$n',
  supportsPositionalParams: true,
  supportsCancel: true,
  // N1QL transactions over REST need a txid threaded through every request; the portal does not offer them.
  supportsTransactions: false,
  // Documents have no CREATE TABLE or row INSERT to write: sql-insert and sql-ddl exports are 400.
  sqlExport: false,
  maintenanceOperations: [
    {
      type: 'analyze',
      targetRequired: true,
      description: 'UPDATE STATISTICS for a keyspace (`scope.collection`); Enterprise Edition only',
    },
    {
      type: 'reindex',
      targetRequired: true,
      description:
        'BUILD INDEX: every deferred index of `scope.collection`, or one index `scope.collection.index`',
    },
    { type: 'kill', targetRequired: true, description: 'Stops a running request by its requestID' },
  ],
};

/** The bucket a descriptor names (required: the object surface and keyspace paths start from it). */
export function couchbaseBucket(database: string | undefined): string {
  const b = (database ?? '').trim();
  if (b === '') throw configError('Couchbase needs `database`: the bucket name');
  if (!/^[A-Za-z0-9._%-]{1,100}$/.test(b)) throw configError('Couchbase `database` must be a bucket name');
  return b;
}

export const couchbaseEngine: EngineDescriptor<'couchbase', 'couchbase'> = {
  engine: 'couchbase',
  label: 'Couchbase',
  editor: sqlEditor(),
  dialect: 'couchbase',
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['mysql'],
      split: { options: 'default' },
      lex: { ...lexicalRules.backtick, doubleQuoteStrings: true, backslashEscapes: true },
      alternatives: [{ backslashEscapes: false }],
      pipesAreOr: false,
    },
    // SQL++ is read by the engine's own statement reader, split exactly as the executor splits it.
    reader: 'sqlpp',
  },
  fileBased: false,
  defaultPort: 8091,
  capabilities: couchbaseCapabilities,
  validate(conn) {
    couchbaseBucket(conn.database);
    if (conn.connectionString !== undefined && conn.connectionString !== '')
      throw configError(
        'Couchbase takes host, port (the management port) and database (the bucket), not a connectionString',
      );
  },
  sqlDialect: {
    name: 'couchbase',
    splitter: { ...mysqlSplitterOptions, allowCustomDelimiter: false },
    // Unused: `facts` reads SQL++ instead of a parser grammar.
    parser: { kind: 'nsp', database: 'mysql' },
    quote: quoteStyles.backtick,
    limitClause: limitClauses.limitOffset,
    transactionControl: (w1, w2) =>
      ['BEGIN', 'START', 'SAVEPOINT'].includes(w1) || (w1 === 'SET' && w2 === 'TRANSACTION') ? w1 : null,
    backslashEscapes: true,
    analyze: selectFacts,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
