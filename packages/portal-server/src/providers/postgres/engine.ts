// The PostgreSQL engine: capabilities, dialect (PostgreSQL's own grammar through libpg-query), read-only
// transactions, and the provider (node-postgres) loaded on first use.

import { postgreSplitterOptions } from 'dbgate-query-splitter';
import { beginEndAbort, limitClauses, quoteStyles } from '../../sql/dialect.js';
import { pgFamilyRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import type { Capabilities } from '../types.js';
import { postgresAllowlist } from './allowlist.js';
import { postgresTableDesign } from './table-design.js';

export const postgresCapabilities: Capabilities = {
  supportsExplain: true,
  explainModes: ['estimate', 'analyze'],
  supportsCreateTable: true,
  supportsInlineRowEdit: true,
  supportsMaintenance: true,
  declaresForeignKeys: true,
  parameterStyle: '$n',
  supportsPositionalParams: true,
  supportsCancel: true,
  supportsTransactions: true,
  maintenanceOperations: [
    { type: 'vacuum', targetRequired: false, description: 'VACUUM a table (or the whole database)' },
    { type: 'analyze', targetRequired: false, description: 'ANALYZE a table (or the whole database)' },
    { type: 'reindex', targetRequired: true, description: 'REINDEX TABLE <target>' },
    {
      type: 'cancel',
      targetRequired: true,
      description: 'pg_cancel_backend(<pid>): cancel its running statement',
    },
    { type: 'kill', targetRequired: true, description: 'pg_terminate_backend(<pid>)' },
  ],
};

export const postgresEngine: EngineDescriptor<'postgres', 'postgres'> = {
  engine: 'postgres',
  label: 'PostgreSQL',
  editor: sqlEditor('pgsql', 'postgresql'),
  dialect: 'postgres',
  classifier: { sql: { ...pgFamilyRules, allowlist: postgresAllowlist } },
  defaultPort: 5432,
  fileBased: false,
  readOnly: 'transaction', // BEGIN; SET TRANSACTION READ ONLY
  dryRun: {
    enter: ["SET LOCAL lock_timeout = '2s'", "SET LOCAL statement_timeout = '30s'"],
    savepoints: true,
    updatedRowWeight: 1,
    implicitCommit: false,
    // This transaction's row counts per table: rows changed by triggers and ON DELETE/UPDATE CASCADE too.
    changedRows: `SELECT relid::bigint AS relid, coalesce(pg_partition_root(relid), relid)::bigint AS root,
      quote_ident(schemaname) || '.' || quote_ident(relname) AS name,
      n_tup_ins AS ins, n_tup_upd AS upd, n_tup_del AS del
      FROM pg_stat_xact_all_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0`,
    tableId: 'SELECT to_regclass($1)::oid::bigint AS relid',
  },
  capabilities: postgresCapabilities,
  sqlDialect: {
    name: 'postgres',
    tableDesign: postgresTableDesign,
    splitter: postgreSplitterOptions,
    parser: { kind: 'libpg' },
    quote: quoteStyles.double,
    limitClause: limitClauses.limitOffset,
    transactionControl: beginEndAbort,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
