// The document engine with a JSON query language (`mongodb`, driver `mongodb`): `sql` holds one JSON request
// (request.ts), classified by governance/classify/mongodb.ts. No SQL grammar reads it, so its dialect brings
// the request reader's own facts (`analyze`: which operations only read, which already limit their rows) and
// applies the portal's auto-limit and paging natively (`applyLimit`: `limit`/`skip` options of a find, `$skip`
// and `$limit` stages appended to a pipeline). Exports are JSON and CSV only (documents have no SQL DDL).
import { EJSON } from 'bson';
import { noSplitSplitterOptions } from 'dbgate-query-splitter';
import type { StatementFacts } from '../../sql/analyze.js';
import { limitClauses, quoteStyles } from '../../sql/dialect.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import type { Capabilities } from '../types.js';
import { isReadOperation, parseMongoRequest } from './request.js';

export const mongoCapabilities: Capabilities = {
  supportsExplain: false,
  explainModes: [],
  supportsCreateTable: false,
  supportsInlineRowEdit: false,
  supportsMaintenance: false,
  declaresForeignKeys: false,
  // Values are written inside the JSON request; positional params are refused.
  parameterStyle: '?',
  supportsPositionalParams: false,
  // A running operation is stopped with killOp (found by the comment the provider tags it with).
  supportsCancel: true,
  supportsTransactions: false,
  maintenanceOperations: [],
  // Documents have no SQL table layout: sql-insert/sql-ddl export answer 400.
  sqlExport: false,
};

const UNKNOWN: StatementFacts = { kind: 'unknown', readOnly: false, hasLimit: false, hasOrderBy: false };

/** Facts about one request, from the same reader the provider and the classifier use. */
export function mongoFacts(statement: string): StatementFacts {
  const parsed = parseMongoRequest(statement);
  if (!parsed.ok) return UNKNOWN;
  const r = parsed.request;
  if (!isReadOperation(r.operation)) return { ...UNKNOWN, kind: 'other' };
  const text = JSON.stringify(EJSON.serialize(r));
  // Server-side JavaScript and writing stages are never a plain read (the classifier says why).
  if (/"\$(where|function|accumulator|out|merge)"/.test(text)) return { ...UNKNOWN, kind: 'other' };
  const hasLimit =
    r.operation === 'find'
      ? r.options.limit !== undefined || r.options.skip !== undefined
      : r.operation === 'aggregate'
        ? r.pipeline.some((s) => '$limit' in s || '$skip' in s)
        : true; // findOne, count and distinct answer a bounded list the provider caps itself
  return {
    kind: 'select',
    readOnly: true,
    hasLimit,
    hasOrderBy: r.operation === 'find' ? r.options.sort !== undefined : false,
  };
}

/** The request with the portal's limit and offset applied (only called for a read without its own limit). */
export function mongoLimit(statement: string, limit: number, offset: number): string {
  const parsed = parseMongoRequest(statement);
  if (!parsed.ok) return statement;
  const raw = JSON.parse(statement.trim()) as Record<string, unknown>;
  if (parsed.request.operation === 'find') {
    const options: Record<string, unknown> = { ...((raw.options as Record<string, unknown>) ?? {}), limit };
    if (offset > 0) options.skip = offset;
    return JSON.stringify({ ...raw, options });
  }
  if (parsed.request.operation === 'aggregate') {
    const stages = [
      ...(raw.pipeline as unknown[]),
      ...(offset > 0 ? [{ $skip: offset }] : []),
      { $limit: limit },
    ];
    return JSON.stringify({ ...raw, pipeline: stages });
  }
  return statement;
}

export const mongodbEngine: EngineDescriptor<'mongodb', 'mongodb'> = {
  engine: 'mongodb',
  label: 'MongoDB',
  editor: {
    request: 'json',
    language: 'json',
    formatter: 'json',
    keywords: [
      'find',
      'findOne',
      'aggregate',
      'count',
      'distinct',
      'insertOne',
      'insertMany',
      'updateOne',
      'updateMany',
      'deleteOne',
      'deleteMany',
    ],
  },
  dialect: 'mongodb',
  classifier: { reader: 'document-request' },
  fileBased: false,
  defaultPort: 27017,
  capabilities: mongoCapabilities,
  validate(conn) {
    const cs = conn.connectionString;
    if (cs !== undefined && cs !== '' && !/^mongodb(\+srv)?:\/\//.test(cs))
      throw configError('A MongoDB connectionString must start with mongodb:// or mongodb+srv://');
    if (conn.authSource !== undefined && (typeof conn.authSource !== 'string' || conn.authSource === ''))
      throw configError('authSource must be a database name');
  },
  sqlDialect: {
    name: 'mongodb',
    splitter: { ...noSplitSplitterOptions },
    parser: { kind: 'nsp', database: 'mongodb' },
    quote: quoteStyles.double,
    limitClause: limitClauses.limitOffset,
    transactionControl: () => null,
    analyze: mongoFacts,
    applyLimit: mongoLimit,
  },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
