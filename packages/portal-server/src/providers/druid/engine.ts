// The Druid engine (the real-time analytics engine of decisions.md): its HTTP SQL API (POST /druid/v2/sql) on a
// router (default 8888) or broker (8082, same API), host and port only, optional basic auth. Druid's SQL
// engine only reads: INSERT/REPLACE need the multi-stage engine and UPDATE, DELETE, CREATE TABLE are not in
// its grammar. The portal refuses such a statement first, as Druid would, with Druid's own message (400
// QUERY_ERROR) and sends nothing; the provider refuses it again, and the engine would too. Identifiers are
// double-quoted; plans are Druid's native-query trees (EXPLAIN PLAN FOR); no maintenance.
import { defaultSplitterOptions } from 'dbgate-query-splitter';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities, ConnectionDescriptor } from '../types.js';

export const druidCapabilities: Capabilities = {
  supportsExplain: true,
  explainModes: ['estimate'],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: false,
  declaresForeignKeys: false,
  // Druid SQL binds `?` parameters as typed values ({type, value}).
  parameterStyle: '?',
  supportsPositionalParams: true,
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [],
  readOnlyEngine: true,
};

/** Statement heads Druid's SQL engine runs (reads). */
const READ_HEADS = new Set(['SELECT', 'WITH', 'EXPLAIN', 'VALUES', '(']);

/** The first word of a statement (upper-cased) after comments and whitespace, or `(`. */
function headWord(statement: string): string | undefined {
  let i = 0;
  for (;;) {
    while (i < statement.length && /\s/.test(statement[i])) i++;
    if (statement.startsWith('--', i)) {
      const nl = statement.indexOf('\n', i);
      i = nl < 0 ? statement.length : nl + 1;
    } else if (statement.startsWith('/*', i)) {
      const end = statement.indexOf('*/', i + 2);
      i = end < 0 ? statement.length : end + 2;
    } else break;
  }
  return /^(?:[A-Za-z_][A-Za-z0-9_]*|\S)/.exec(statement.slice(i))?.[0].toUpperCase();
}

/** Druid's refusal of a statement its SQL engine will not run, in Druid's words; undefined for a read. */
export function druidRefusal(statement: string): string | undefined {
  const w1 = headWord(statement);
  if (w1 === undefined || READ_HEADS.has(w1)) return undefined;
  if (w1 === 'INSERT' || w1 === 'REPLACE')
    return `${w1} operations are not supported by requested SQL engine [native], consider using MSQ.`;
  return `Incorrect syntax near the keyword '${w1}' at line 1, column 1`;
}

/** Only host and port (and optional credentials) describe a Druid connection. */
export function validateDruid(conn: ConnectionDescriptor): void {
  if (conn.connectionString)
    throw configError('Druid takes host and port; a connectionString is not accepted');
  if (!conn.host) throw configError('A Druid connection needs host');
}

export const druidEngine: EngineDescriptor<'druid', 'druid'> = {
  engine: 'druid',
  label: 'Apache Druid',
  editor: sqlEditor(),
  dialect: 'druid',
  acceptsConnectionString: false,
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['postgresql', 'mysql'],
      split: { options: 'default' },
      lex: lexicalRules.ansi,
      alternatives: alternativeReadings.escapes,
      pipesAreOr: false,
    },
  },
  defaultPort: 8888,
  fileBased: false,
  capabilities: druidCapabilities,
  validate: validateDruid,
  refuseStatement: druidRefusal,
  writeRefusal: 'engine',
  sqlDialect: {
    name: 'druid',
    splitter: { ...defaultSplitterOptions },
    // Druid SQL is Calcite's; PostgreSQL's grammar reads the common SELECT (a bare OFFSET counts as a limit,
    // so a statement ending in OFFSET is sent unchanged).
    parser: { kind: 'nsp', database: 'postgresql' },
    quote: quoteStyles.double,
    limitClause: limitClauses.limitOffset,
    transactionControl: (w1) => (w1 === 'BEGIN' ? 'BEGIN' : null),
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
