// MySQL/MariaDB driver errors mapped onto the provider error classes, and column type names.
import type { FieldPacket } from 'mysql2/promise';
import { ProviderError, timeoutError } from '../errors.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'ER_BAD_DB_ERROR',
  'ER_CON_COUNT_ERROR',
]);

export function mapMysqlError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { code?: string; message?: string; errno?: number };
  const message = e.message ?? String(err);
  const code = e.code ?? '';
  if (code === 'ER_QUERY_INTERRUPTED' || e.errno === 1317)
    return new ProviderError('cancelled', message, code);
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') {
    return new ProviderError('authentication', message, code);
  }
  if (code === 'ER_STATEMENT_TIMEOUT' || e.errno === 1969 || e.errno === 3024) return timeoutError(timeoutMs);
  if (CONNECTION_CODES.has(code)) return new ProviderError('connection', message, code);
  return new ProviderError('query', message, code);
}

const TYPES: Record<number, string> = {
  0: 'DECIMAL',
  1: 'TINYINT',
  2: 'SMALLINT',
  3: 'INT',
  4: 'FLOAT',
  5: 'DOUBLE',
  6: 'NULL',
  7: 'TIMESTAMP',
  8: 'BIGINT',
  9: 'MEDIUMINT',
  10: 'DATE',
  11: 'TIME',
  12: 'DATETIME',
  13: 'YEAR',
  15: 'VARCHAR',
  16: 'BIT',
  245: 'JSON',
  246: 'DECIMAL',
  247: 'ENUM',
  248: 'SET',
  249: 'TINYBLOB',
  250: 'MEDIUMBLOB',
  251: 'LONGBLOB',
  252: 'BLOB',
  253: 'VARCHAR',
  254: 'CHAR',
  255: 'GEOMETRY',
};

export function mysqlTypeName(f: FieldPacket): string {
  const t = (f as { columnType?: number; type?: number }).columnType ?? f.type ?? -1;
  return TYPES[t] ?? `type:${t}`;
}
