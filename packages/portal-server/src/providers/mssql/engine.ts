// The SQL Server engine: capabilities, dialect (T-SQL: GO batches and semicolons, bracket quoting,
// OFFSET/FETCH), and the provider (mssql/tedious) loaded on first use.
import { mssqlSplitterOptions } from 'dbgate-query-splitter';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { mssqlAllowlist } from './allowlist.js';
import { mssqlDesignedDdl } from './classifier-ddl.js';
import { mssqlReading } from './reading.js';
import { mssqlCapabilities } from './statements.js';
import { mssqlTableDesign } from './table-design.js';

export const mssqlEngine: EngineDescriptor<'mssql', 'mssql'> = {
  engine: 'mssql',
  label: 'SQL Server',
  editor: sqlEditor('sql', 'transactsql'),
  dialect: 'mssql',
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['transactsql'],
      split: 'executor',
      lex: { ...lexicalRules.ansi, bracketIdentifiers: true, nestedComments: true },
      alternatives: alternativeReadings.pg,
      pipesAreOr: false,
      reading: mssqlReading,
      tokenAllowlist: mssqlAllowlist,
      designedDdl: mssqlDesignedDdl,
      systemRoutinePrefixes: ['sp_', 'xp_', 'openrowset', 'opendatasource', 'openquery', 'openxml'],
    },
  },
  defaultPort: 1433,
  fileBased: false,
  capabilities: mssqlCapabilities,
  sqlDialect: {
    name: 'mssql',
    tableDesign: mssqlTableDesign,
    // T-SQL scripts separate batches with GO and statements with semicolons.
    splitter: {
      ...mssqlSplitterOptions,
      allowSemicolon: true,
      keepSemicolonInCommands: false,
      skipSeparatorBeginEnd: true,
    },
    parser: { kind: 'nsp', database: 'transactsql' },
    quote: quoteStyles.bracket,
    // OFFSET/FETCH needs an ORDER BY in T-SQL; ORDER BY (SELECT NULL) keeps the engine's own order.
    limitClause: (limit, offset, hasOrderBy) =>
      `${hasOrderBy ? '' : 'ORDER BY (SELECT NULL) '}${limitClauses.offsetFetch(limit, offset)}`,
    numericBooleans: true,
    transactionControl(w1, w2) {
      if ((w1 === 'BEGIN' || w1 === 'SAVE') && /^(TRAN|TRANSACTION|DISTRIBUTED)$/.test(w2))
        return `${w1} ${w2}`;
      if (w1 === 'SET' && w2 === 'IMPLICIT_TRANSACTIONS') return 'SET IMPLICIT_TRANSACTIONS';
      return null;
    },
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
