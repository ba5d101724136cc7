// The DuckDB engine: an embedded file (or `:memory:`), capabilities, dialect (PostgreSQL's grammar through
// libpg-query, which DuckDB's parser derives from), and the provider (@duckdb/node-api) loaded on first use.
import { postgreSplitterOptions } from 'dbgate-query-splitter';
import { beginEndAbort, limitClauses, quoteStyles } from '../../sql/dialect.js';
import { pgFamilyRules } from '../classifier-rules.js';
import { embeddedPath, IN_MEMORY } from '../descriptor.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import type { Capabilities } from '../types.js';
import { duckdbAllowlist } from './allowlist.js';
import { duckdbTableDesign } from './table-design.js';

export const duckdbCapabilities: Capabilities = {
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
    { type: 'vacuum', targetRequired: false, description: 'VACUUM (a table or all)' },
    { type: 'analyze', targetRequired: false, description: 'ANALYZE statistics (a table or all)' },
    { type: 'checkpoint', targetRequired: false, description: 'CHECKPOINT the write-ahead log' },
  ],
};

export const duckdbEngine: EngineDescriptor<'duckdb', 'duckdb'> = {
  engine: 'duckdb',
  label: 'DuckDB',
  editor: sqlEditor('pgsql', 'duckdb'),
  dialect: 'duckdb',
  // DuckDB's parser derives from PostgreSQL's; its own forms (FROM-first, DESCRIBE, PRAGMA) have fallbacks.
  classifier: { sql: { ...pgFamilyRules, pragmas: true, fromFirst: true, allowlist: duckdbAllowlist } },
  fileBased: true,
  readOnly: 'begin-read-only', // BEGIN TRANSACTION READ ONLY
  dryRun: { enter: [], savepoints: false, updatedRowWeight: 1, implicitCommit: false },
  capabilities: duckdbCapabilities,
  validate(conn, access) {
    embeddedPath(conn.database, access.embeddedDir, access.privileged);
  },
  localFile(conn, embeddedDir) {
    const path = embeddedPath(conn.database, embeddedDir, true);
    return path === IN_MEMORY ? undefined : path;
  },
  sqlDialect: {
    name: 'duckdb',
    tableDesign: duckdbTableDesign,
    splitter: postgreSplitterOptions,
    parser: { kind: 'libpg' },
    quote: quoteStyles.double,
    limitClause: limitClauses.limitOffset,
    transactionControl: beginEndAbort,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
