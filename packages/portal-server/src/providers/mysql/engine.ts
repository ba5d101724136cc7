// The MySQL/MariaDB engine: capabilities, dialect (node-sql-parser's MariaDB grammar, backtick quoting, `#`
// and executable comments), read-only sessions, and the provider (mysql2) loaded on first use.

import { mysqlSplitterOptions } from 'dbgate-query-splitter';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import type { Capabilities } from '../types.js';
import { mysqlAllowlist, mysqlReading } from './allowlist.js';
import { mysqlTableDesign } from './table-design.js';

export const mysqlCapabilities: Capabilities = {
  supportsExplain: true,
  explainModes: ['estimate', 'analyze'],
  supportsCreateTable: true,
  supportsInlineRowEdit: true,
  supportsMaintenance: true,
  declaresForeignKeys: true,
  parameterStyle: '?',
  supportsPositionalParams: true,
  supportsCancel: true,
  supportsTransactions: true,
  maintenanceOperations: [
    { type: 'optimize', targetRequired: true, description: 'OPTIMIZE TABLE <target>' },
    { type: 'analyze', targetRequired: true, description: 'ANALYZE TABLE <target>' },
    { type: 'check', targetRequired: true, description: 'CHECK TABLE <target>' },
    { type: 'repair', targetRequired: true, description: 'REPAIR TABLE <target>' },
    {
      type: 'cancel',
      targetRequired: true,
      description: 'KILL QUERY <connection id>: cancel its running statement',
    },
    { type: 'kill', targetRequired: true, description: 'KILL <connection id>' },
  ],
};

export const mysqlEngine: EngineDescriptor<'mysql', 'mysql'> = {
  engine: 'mysql',
  label: 'MySQL / MariaDB',
  editor: sqlEditor('mysql', 'mysql'),
  dialect: 'mysql',
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['mariadb', 'mysql'],
      split: 'executor',
      lex: lexicalRules.mysql,
      alternatives: alternativeReadings.mysql,
      pipesAreOr: true,
      tokenAllowlist: mysqlAllowlist,
      reading: mysqlReading,
    },
    aliases: ['mariadb'],
  },
  defaultPort: 3306,
  fileBased: false,
  readOnly: 'session', // SET SESSION TRANSACTION READ ONLY … SET SESSION TRANSACTION READ WRITE
  dryRun: {
    enter: ['SET SESSION innodb_lock_wait_timeout = 2', 'SET SESSION lock_wait_timeout = 2'],
    reset: ['SET SESSION innodb_lock_wait_timeout = DEFAULT', 'SET SESSION lock_wait_timeout = DEFAULT'],
    savepoints: true,
    updatedRowWeight: 2,
    implicitCommit: true,
  },
  capabilities: mysqlCapabilities,
  sqlDialect: {
    name: 'mysql',
    tableDesign: mysqlTableDesign,
    // Routine bodies (BEGIN … END) stay one statement even without a DELIMITER line.
    splitter: { ...mysqlSplitterOptions, skipSeparatorBeginEnd: true },
    parser: { kind: 'nsp', database: 'mariadb' },
    quote: quoteStyles.backtick,
    limitClause: limitClauses.limitOffset,
    mysqlComments: true,
    backslashEscapes: true,
    transactionControl(w1, w2, body) {
      // BEGIN [WORK] starts a transaction; MariaDB's `BEGIN NOT ATOMIC` opens a compound statement.
      if (w1 === 'BEGIN' && (w2 === '' || w2 === 'WORK' || w2 === ';')) return 'BEGIN';
      if (w1 === 'XA') return 'XA';
      if (
        /^SET\s+(?:(?:SESSION|GLOBAL|LOCAL)\s+|@@(?:SESSION\.|GLOBAL\.|LOCAL\.)?)?autocommit\b/i.test(body)
      ) {
        return 'SET autocommit';
      }
      return null;
    },
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
