// The ClickHouse engine (the columnar engine over HTTP of decisions.md): capabilities, dialect and the
// provider (@clickhouse/client over the HTTP interface) loaded on first use. Statements are sent as written:
// the provider asks for JSON through the `default_format` URL parameter, so a statement ending in its own
// FORMAT or SETTINGS clause goes out unchanged (no grammar the auto-limit uses reads such a tail as a
// SELECT, so it never gets a limit and `wasLimited` stays false). ALTER TABLE … DELETE/UPDATE mutations
// are judged as the DELETE/UPDATE they are (governance/classify/clickhouse.ts).
import { mysqlSplitterOptions } from 'dbgate-query-splitter';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import { lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities } from '../types.js';
import { clickhouseAllowlist } from './allowlist.js';

export const clickhouseCapabilities: Capabilities = {
  // EXPLAIN exists from ClickHouse 20.6; an older server answers its own syntax error (400 QUERY_ERROR).
  supportsExplain: true,
  explainModes: ['estimate'],
  // CREATE TABLE needs an ENGINE clause the portal's table builder does not write.
  supportsCreateTable: false,
  // Rows have no key to address them by; changes are asynchronous mutations.
  supportsInlineRowEdit: false,
  supportsMaintenance: true,
  declaresForeignKeys: false,
  // The HTTP interface binds named `{name:Type}` parameters only; positional params are refused.
  parameterStyle: '?',
  supportsPositionalParams: false,
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [
    { type: 'optimize', targetRequired: true, description: 'OPTIMIZE TABLE <target> FINAL (merges parts)' },
    {
      type: 'analyze',
      targetRequired: true,
      description: 'Per-column storage statistics of <target> (rows, compressed and uncompressed bytes)',
    },
    { type: 'kill', targetRequired: true, description: 'KILL QUERY WHERE query_id = <target>' },
  ],
};

/** The HTTP(S) URL a `connectionString` names; anything else is refused. */
export function clickhouseUrl(connectionString: string): URL {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    throw configError('A ClickHouse connectionString must be an http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw configError('A ClickHouse connectionString must be an http:// or https:// URL');
  return url;
}

export const clickhouseEngine: EngineDescriptor<'clickhouse', 'clickhouse'> = {
  engine: 'clickhouse',
  label: 'ClickHouse',
  editor: sqlEditor('mysql', 'clickhouse'),
  dialect: 'clickhouse',
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['mysql', 'postgresql'],
      split: { options: 'mysql' },
      lex: { ...lexicalRules.backtick, hashComments: true, backslashEscapes: true },
      alternatives: [{ backslashEscapes: false }],
      pipesAreOr: false,
      columnarForms: true,
      tokenAllowlist: clickhouseAllowlist,
    },
  },
  defaultPort: 8123,
  fileBased: false,
  readOnly: 'provider', // readonly=2 on every request (ClickhouseProvider.readOnlyView)
  capabilities: clickhouseCapabilities,
  validate(conn) {
    if (conn.connectionString) clickhouseUrl(conn.connectionString);
    else if (!conn.host) throw configError('A ClickHouse connection needs host or connectionString');
  },
  sqlDialect: {
    name: 'clickhouse',
    splitter: { ...mysqlSplitterOptions },
    // node-sql-parser has no ClickHouse grammar; MySQL's reads the common SELECT (LIMIT n OFFSET m, backticks).
    parser: { kind: 'nsp', database: 'mysql' },
    quote: quoteStyles.backtick,
    limitClause: limitClauses.limitOffset,
    mysqlComments: true,
    backslashEscapes: true,
    // ClickHouse has no transactions over HTTP: BEGIN and friends are refused as transaction control.
    transactionControl: (w1) => (w1 === 'BEGIN' || w1 === 'END' ? w1 : null),
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
