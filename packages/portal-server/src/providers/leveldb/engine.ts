// The embedded key-value engine (`leveldb`): a LevelDB folder under the portal's folder for embedded files
// (classic-level, in process), with the small command grammar of command.ts instead of SQL. Its "dialect"
// keeps the whole text as one statement and never injects a limit (the provider bounds every answer;
// `levelFacts` tells the export route which commands only read).
import { noSplitSplitterOptions } from 'dbgate-query-splitter';
import type { StatementFacts } from '../../sql/analyze.js';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { embeddedPath, IN_MEMORY } from '../descriptor.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities } from '../types.js';
import { parseLevelCommand } from './command.js';

export const levelCapabilities: Capabilities = {
  supportsExplain: false,
  explainModes: [],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: false,
  declaresForeignKeys: false,
  parameterStyle: '?',
  supportsPositionalParams: false,
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [],
};

/** Statement facts for the routes that need a plain read (export): GET, PREFIX and RANGE read, bounded by the provider. */
export function levelFacts(statement: string): StatementFacts {
  const parsed = parseLevelCommand(statement);
  const reads = parsed.ok && parsed.command.verb !== 'PUT' && parsed.command.verb !== 'DELETE';
  return { kind: reads ? 'select' : 'other', readOnly: reads, hasLimit: reads, hasOrderBy: false };
}

export const leveldbEngine: EngineDescriptor<'leveldb', 'leveldb'> = {
  engine: 'leveldb',
  label: 'LevelDB',
  editor: {
    request: 'command',
    language: 'redis',
    keywords: ['get', 'put', 'delete', 'prefix', 'range'],
  },
  dialect: 'leveldb',
  classifier: { reader: 'ordered-keys' },
  fileBased: true,
  capabilities: levelCapabilities,
  validate(conn, access) {
    if (embeddedPath(conn.database, access.embeddedDir, access.privileged) === IN_MEMORY)
      throw configError('LevelDB needs a database folder; :memory: is offered by DuckDB');
  },
  sqlDialect: {
    name: 'leveldb',
    splitter: { ...noSplitSplitterOptions },
    parser: { kind: 'nsp', database: 'leveldb' },
    quote: quoteStyles.double,
    limitClause: limitClauses.limitOffset,
    transactionControl: () => null,
    analyze: levelFacts,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
