// The wide-column engine (`cassandra` in decisions.md): CQL over the native protocol with cassandra-driver.
// `database` is the keyspace; `localDataCenter` is required (the driver's load balancing needs it); no
// connection string. CQL has no OFFSET: the auto-limit appends `LIMIT n` and a page past the first is
// refused with that reason (rows beyond a page are read through the driver's paging state, not OFFSET).
// No plans, no cancellation (the protocol has no cancel message), no maintenance, no transactions.
// `BEGIN BATCH … APPLY BATCH` is a CQL batch, not transaction control; the statements inside a batch are
// written without semicolons (CQL allows it) so the script splitter keeps the batch whole.
import { defaultSplitterOptions } from 'dbgate-query-splitter';
import { quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError, unsupported } from '../errors.js';
import type { Capabilities } from '../types.js';

export const cassandraCapabilities: Capabilities = {
  supportsExplain: false,
  explainModes: [],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: false,
  declaresForeignKeys: false,
  parameterStyle: '?',
  supportsPositionalParams: true,
  supportsCancel: false,
  supportsTransactions: false,
  maintenanceOperations: [],
  // The generic CREATE TABLE/INSERT writer cannot produce valid CQL (every table needs a PRIMARY KEY).
  sqlExport: false,
};

/** CQL words after BEGIN that open a batch (not a transaction). */
const BATCH_WORDS = new Set(['BATCH', 'UNLOGGED', 'COUNTER']);

export const cassandraEngine: EngineDescriptor<'cassandra', 'cassandra'> = {
  engine: 'cassandra',
  label: 'Apache Cassandra',
  editor: sqlEditor(),
  dialect: 'cassandra',
  acceptsConnectionString: false,
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['mysql', 'postgresql'],
      split: 'executor',
      lex: { ...lexicalRules.ansi, slashSlashComments: true, dollarQuotes: true },
      alternatives: alternativeReadings.escapes,
      pipesAreOr: false,
      allowFiltering: true,
    },
  },
  fileBased: false,
  defaultPort: 9042,
  capabilities: cassandraCapabilities,
  connectionFields: [
    { name: 'localDataCenter', label: 'Local data center', required: true, placeholder: 'e.g. datacenter1' },
  ],
  validate(conn) {
    if (conn.connectionString !== undefined && conn.connectionString !== '')
      throw configError('Cassandra takes no connectionString; give host, port and localDataCenter');
    if (typeof conn.localDataCenter !== 'string' || conn.localDataCenter.trim() === '')
      throw configError('Cassandra needs localDataCenter (the data center the driver treats as local)');
    if (typeof conn.host !== 'string' || conn.host.trim() === '') throw configError('Cassandra needs host');
    if (
      conn.database !== undefined &&
      (typeof conn.database !== 'string' || !/^\w{0,48}$/.test(conn.database))
    )
      throw configError('Cassandra `database` is a keyspace name (letters, digits, underscore)');
  },
  sqlDialect: {
    name: 'cassandra',
    // CQL comments: `--`, `//` and block comments; `$$` strings.
    splitter: { ...defaultSplitterOptions, javaScriptComments: true, allowDollarDollarString: true },
    // Double quotes are identifiers in CQL, as in PostgreSQL's grammar (auto-limit reads the SELECT with it).
    parser: { kind: 'nsp', database: 'postgresql' },
    quote: quoteStyles.double,
    limitClause: (limit, offset) => {
      if (offset > 0)
        throw unsupported(
          'Cassandra has no OFFSET: only the first page of a result can be read here; narrow the WHERE clause (or page on the clustering key) instead',
        );
      return `LIMIT ${limit}`;
    },
    transactionControl: (w1, w2) => (w1 === 'BEGIN' && !BATCH_WORDS.has(w2) ? 'BEGIN' : null),
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
