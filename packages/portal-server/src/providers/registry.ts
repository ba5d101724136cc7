// The engine registry: the one list of engine descriptors (providers/<engine>/engine.ts) and the one way to
// look an engine up (engineFor, engineDescriptor). `EngineId` and the SQL dialects derive from it; routes look
// capabilities and dialects up here and never branch on an engine id themselves. Adding an engine is one folder and one line below (docs/portal-engines.md).

import type { SqlDialect } from '../sql/dialect.js';
import { athenaEngine } from './athena/engine.js';
import { cassandraEngine } from './cassandra/engine.js';
import { clickhouseEngine } from './clickhouse/engine.js';
import { couchbaseEngine } from './couchbase/engine.js';
import { druidEngine } from './druid/engine.js';
import { duckdbEngine } from './duckdb/engine.js';
import { elasticsearchEngine } from './elasticsearch/engine.js';
import { configError } from './errors.js';
import { leveldbEngine } from './leveldb/engine.js';
import { libsqlEngine } from './libsql/engine.js';
import { mongodbEngine } from './mongodb/engine.js';
import { mssqlEngine } from './mssql/engine.js';
import { mysqlEngine } from './mysql/engine.js';
import { opensearchEngine } from './opensearch/engine.js';
import { oracleEngine } from './oracle/engine.js';
import { postgresEngine } from './postgres/engine.js';
import { redisEngine } from './redis/engine.js';
import { sqliteEngine } from './sqlite/engine.js';
import { trinoEngine } from './trino/engine.js';
import type { ProviderFactory } from './types.js';

/** Every engine the portal runs, in the order the UI offers them. */
export const ENGINES = [
  postgresEngine,
  mysqlEngine,
  sqliteEngine,
  libsqlEngine,
  duckdbEngine,
  mssqlEngine,
  oracleEngine,
  mongodbEngine,
  redisEngine,
  leveldbEngine,
  couchbaseEngine,
  clickhouseEngine,
  druidEngine,
  trinoEngine,
  athenaEngine,
  elasticsearchEngine,
  opensearchEngine,
  cassandraEngine,
] as const;

export type EngineId = (typeof ENGINES)[number]['engine'];

/** The SQL dialects the engines define (an engine may speak another's, as libSQL speaks SQLite's). */
export type Dialect = (typeof ENGINES)[number]['dialect'];

const BY_ID = new Map<string, ProviderFactory>(ENGINES.map((e) => [e.engine, e as ProviderFactory]));
const DIALECTS = new Map<string, SqlDialect>();
for (const e of ENGINES) DIALECTS.set(e.dialect, e.sqlDialect);

/** The descriptor of an engine id, or undefined. */
export function engineDescriptor(id: string): ProviderFactory | undefined {
  return BY_ID.get(id);
}

/** The rules of a SQL dialect. */
export function sqlDialect(dialect: Dialect): SqlDialect {
  const d = DIALECTS.get(dialect);
  if (!d) throw new Error(`No SQL dialect ${dialect}`);
  return d;
}

/** The descriptor of a connection's `type`; an unknown type is a configuration error naming the known ones. */
export function engineFor(type: unknown): ProviderFactory {
  const f = typeof type === 'string' ? BY_ID.get(type) : undefined;
  if (!f) {
    throw configError(
      `Unsupported connection type ${JSON.stringify(type)}; supported: ${[...BY_ID.keys()].join(', ')}`,
    );
  }
  return f;
}
