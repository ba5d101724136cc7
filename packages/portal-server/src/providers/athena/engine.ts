// The serverless query engine (`athena` in decisions.md): every statement is a job run through the Athena
// API with @aws-sdk/client-athena (submit, poll, read page by page, stop at `queryTimeout`). `region` is
// required, `workgroup` defaults to `primary`, `outputLocation` is the S3 prefix for results (optional when the
// workgroup sets one), `database` the default Glue database. `user`/`password` are the access key id and
// secret access key (omitted: the SDK's default credential chain). `endpoint` overrides the service URL, for
// Athena-compatible services and the test double. Presto/Trino grammar: OFFSET precedes LIMIT (the provider
// transposes a trailing `LIMIT n OFFSET m`), DML quotes identifiers with double quotes (generated SQL does),
// DDL needs backticks (the user's own DDL is sent as written). No plans, keys, indexes or storage figures.
import { defaultSplitterOptions } from 'dbgate-query-splitter';
import { quoteStyles } from '../../sql/dialect.js';
import { alternativeReadings, lexicalRules } from '../classifier-rules.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities, ConnectionDescriptor } from '../types.js';

export const athenaCapabilities: Capabilities = {
  supportsExplain: false,
  explainModes: [],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: true,
  declaresForeignKeys: false,
  // Athena's execution parameters are literal text the service splices in: refused, as text substitution.
  parameterStyle: '?',
  supportsPositionalParams: false,
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [
    { type: 'kill', targetRequired: true, description: 'StopQueryExecution(<query execution id>)' },
  ],
  // Athena DDL is Hive external-table DDL over S3 (LOCATION, backticks): the generic writer cannot produce it.
  sqlExport: false,
};

/** The descriptor's Athena settings, checked. */
export function athenaSettings(conn: ConnectionDescriptor): {
  region: string;
  workgroup: string;
  outputLocation?: string;
  endpoint?: string;
} {
  const str = (k: string): string | undefined => {
    const v = conn[k];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw configError(`Athena \`${k}\` must be a string`);
    return v.trim();
  };
  const region = str('region');
  if (!region) throw configError('Athena needs `region` (e.g. eu-west-1)');
  if (!/^[a-z]{2}(-[a-z0-9]+)+-\d+$/.test(region))
    throw configError(`Athena region ${region} is not a region name`);
  const outputLocation = str('outputLocation');
  if (outputLocation && !/^s3:\/\/[^/]+/.test(outputLocation))
    throw configError('Athena `outputLocation` must be an s3:// URI');
  const endpoint = str('endpoint');
  if (endpoint) {
    let u: URL;
    try {
      u = new URL(endpoint);
    } catch {
      throw configError('Athena `endpoint` must be an http(s) URL');
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:')
      throw configError('Athena `endpoint` must be an http(s) URL');
  }
  return {
    region,
    workgroup: str('workgroup') ?? 'primary',
    ...(outputLocation ? { outputLocation } : {}),
    ...(endpoint ? { endpoint } : {}),
  };
}

export const athenaEngine: EngineDescriptor<'athena', 'athena'> = {
  engine: 'athena',
  label: 'Amazon Athena',
  editor: sqlEditor('sql', 'trino'),
  dialect: 'athena',
  datasourceAddress: 'fields',
  classifier: {
    sql: {
      family: 'nsp',
      grammars: ['athena', 'trino'],
      split: { options: 'default' },
      lex: lexicalRules.backtick,
      alternatives: alternativeReadings.escapes,
      pipesAreOr: false,
    },
  },
  fileBased: false,
  capabilities: athenaCapabilities,
  connectionFields: [
    { name: 'region', label: 'Region', required: true, placeholder: 'e.g. eu-west-1' },
    { name: 'workgroup', label: 'Workgroup', required: false, placeholder: 'primary' },
    { name: 'outputLocation', label: 'Output location', required: false, placeholder: 's3://bucket/prefix/' },
    {
      name: 'endpoint',
      label: 'Endpoint override',
      required: false,
      placeholder: 'https://athena.<region>.amazonaws.com',
    },
  ],
  validate(conn) {
    athenaSettings(conn);
    if (conn.connectionString !== undefined && conn.connectionString !== '')
      throw configError('Athena takes no connectionString; give region (and workgroup, outputLocation)');
    if (conn.user && !conn.password)
      throw configError(
        'Athena credentials are an access key id (user) with its secret access key (password)',
      );
  },
  sqlDialect: {
    name: 'athena',
    splitter: { ...defaultSplitterOptions },
    parser: { kind: 'nsp', database: 'trino' },
    quote: quoteStyles.double,
    limitClause: (limit, offset) => (offset > 0 ? `OFFSET ${offset} LIMIT ${limit}` : `LIMIT ${limit}`),
    transactionControl: (w1) => (w1 === 'BEGIN' ? 'BEGIN' : null),
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
