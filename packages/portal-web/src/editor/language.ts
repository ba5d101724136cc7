// Which Monaco language an engine's text is written in, and the keywords completion offers. MongoDB takes a
// JSON request, Redis and LevelDB a command line; every SQL engine gets the closest grammar Monaco ships.

export function languageFor(engine: string): string {
  switch (engine) {
    case 'mongodb':
      return 'json';
    case 'redis':
    case 'leveldb':
      return 'redis';
    case 'postgres':
    case 'duckdb':
      return 'pgsql';
    case 'mysql':
    case 'clickhouse':
      return 'mysql';
    default:
      return 'sql';
  }
}

/** Whether the engine's text is SQL (statements, formatting, table completion make sense). */
export function isSqlEngine(engine: string): boolean {
  return !['mongodb', 'redis', 'leveldb'].includes(engine);
}

export const SQL_KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS NULL',
  'IS NOT NULL',
  'LIKE',
  'BETWEEN',
  'JOIN',
  'LEFT JOIN',
  'RIGHT JOIN',
  'INNER JOIN',
  'FULL OUTER JOIN',
  'ON',
  'GROUP BY',
  'HAVING',
  'ORDER BY',
  'ASC',
  'DESC',
  'LIMIT',
  'OFFSET',
  'DISTINCT',
  'AS',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'UNION',
  'UNION ALL',
  'WITH',
  'INSERT INTO',
  'VALUES',
  'UPDATE',
  'SET',
  'DELETE FROM',
  'CREATE TABLE',
  'CREATE INDEX',
  'ALTER TABLE',
  'DROP TABLE',
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'COALESCE',
  'CAST',
  'EXISTS',
];

export const MONGO_OPERATIONS = [
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
];

export const REDIS_COMMANDS = [
  'GET',
  'SET',
  'DEL',
  'KEYS',
  'SCAN',
  'HGETALL',
  'HGET',
  'LRANGE',
  'SMEMBERS',
  'TTL',
  'TYPE',
  'INFO',
];
export const LEVELDB_COMMANDS = ['get', 'put', 'delete', 'prefix', 'range'];
