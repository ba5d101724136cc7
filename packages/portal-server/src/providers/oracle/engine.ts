// The Oracle engine: capabilities, dialect (PL/SQL blocks keep their semicolon; node-sql-parser has no
// Oracle grammar, DB2's is the closest), and the provider (oracledb) loaded on first use.
import { oracleSplitterOptions } from 'dbgate-query-splitter';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { oracleAllowlist } from './allowlist.js';
import { oracleDesignedDdl } from './classifier-ddl.js';
import { oracleReading } from './reading.js';
import { oracleCapabilities } from './statements.js';
import { oracleTableDesign } from './table-design.js';

export const oracleEngine: EngineDescriptor<'oracle', 'oracle'> = {
  engine: 'oracle',
  label: 'Oracle',
  editor: sqlEditor('sql', 'plsql'),
  dialect: 'oracle',
  // node-sql-parser has no Oracle grammar: DB2's is closest, PostgreSQL's reads the ANSI remainder.
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['db2', 'postgresql'],
      split: 'executor',
      lex: { ...lexicalRules.ansi, qQuotes: true },
      alternatives: alternativeReadings.escapes,
      pipesAreOr: false,
      reading: oracleReading,
      tokenAllowlist: oracleAllowlist,
      designedDdl: oracleDesignedDdl,
      systemRoutinePrefixes: ['dbms_', 'utl_'],
    },
  },
  defaultPort: 1521,
  fileBased: false,
  capabilities: oracleCapabilities,
  sqlDialect: {
    name: 'oracle',
    tableDesign: oracleTableDesign,
    splitter: { ...oracleSplitterOptions, skipSeparatorBeginEnd: true },
    // A failed parse means no limit is injected and the driver-level cap still bounds the rows.
    parser: { kind: 'nsp', database: 'db2' },
    quote: quoteStyles.double,
    limitClause: (limit, offset) => limitClauses.offsetFetch(limit, offset),
    plsqlBlocks: true,
    numericBooleans: true,
    // Oracle starts transactions implicitly; the common words are all it has.
    transactionControl: () => null,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
