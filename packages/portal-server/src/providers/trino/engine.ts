// The Trino engine (the federated query engine of decisions.md): its client protocol over HTTP (POST
// /v1/statement, then follow `nextUri`), `database` as the catalog and `schema` as the session schema, no
// connection string, a password only over TLS. Its dialect writes OFFSET before LIMIT (Trino's grammar: a
// trailing `LIMIT n OFFSET m` is transposed by the provider), quotes with double quotes, keeps no trailing
// semicolon, and has no positional params. The provider (index.ts) is loaded on first use.
import { defaultSplitterOptions } from 'dbgate-query-splitter';
import { quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import { normalizeSsl } from '../ssl.js';
import type { Capabilities, ConnectionDescriptor } from '../types.js';

export const trinoCapabilities: Capabilities = {
  supportsExplain: true,
  explainModes: ['estimate', 'analyze'],
  supportsCreateTable: false,
  // No primary keys to address a row by.
  supportsInlineRowEdit: false,
  supportsMaintenance: true,
  declaresForeignKeys: false,
  parameterStyle: '?',
  supportsPositionalParams: false,
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [
    {
      type: 'kill',
      targetRequired: true,
      description: 'CALL system.runtime.kill_query(query_id => <target>)',
    },
  ],
};

/** The session statements the portal answers itself: they would only change a session it does not keep. */
export const TRINO_SESSION_STATEMENT =
  /^\s*(SET\s+SESSION|RESET\s+SESSION|USE|PREPARE|DEALLOCATE\s+PREPARE)\b/i;

/** Descriptor checks: no connection string; a password travels only over TLS. */
export function validateTrino(conn: ConnectionDescriptor): void {
  if (conn.connectionString)
    throw configError('Trino takes host and port; a connectionString is not accepted');
  if (!conn.host) throw configError('A Trino connection needs host');
  if (conn.password && !normalizeSsl(conn.ssl))
    throw configError('A Trino password is sent only over TLS: set ssl: true (or an ssl object)');
}

export const trinoEngine: EngineDescriptor<'trino', 'trino'> = {
  engine: 'trino',
  label: 'Trino',
  editor: sqlEditor('sql', 'trino'),
  dialect: 'trino',
  acceptsConnectionString: false,
  passwordNeedsTls: true,
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['trino', 'postgresql'],
      split: { options: 'default' },
      lex: lexicalRules.ansi,
      alternatives: alternativeReadings.escapes,
      pipesAreOr: false,
      providerSessionStatements: true,
    },
  },
  defaultPort: 8080,
  fileBased: false,
  capabilities: trinoCapabilities,
  validate: validateTrino,
  sqlDialect: {
    name: 'trino',
    splitter: { ...defaultSplitterOptions },
    parser: { kind: 'nsp', database: 'trino' },
    quote: quoteStyles.double,
    // Trino's grammar: OFFSET m comes before LIMIT n.
    limitClause: (limit, offset) => (offset > 0 ? `OFFSET ${offset} LIMIT ${limit}` : `LIMIT ${limit}`),
    transactionControl: (w1) => (w1 === 'BEGIN' ? 'BEGIN' : null),
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
