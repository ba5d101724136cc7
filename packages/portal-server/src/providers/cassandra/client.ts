// The cassandra-driver Client for one datasource: options from the descriptor (contact point, keyspace,
// local data center, PasswordAuthenticator credentials, TLS), the driver's errors mapped onto the provider
// error kinds, and CQL values normalised to JSON (blobs as 0x-hex, bigint/varint/counter/decimal as exact
// digit strings, uuids/inet/dates/durations as their text, collections as JSON arrays/objects).
import cassandra from 'cassandra-driver';
import { ProviderError, queryError, timeoutError } from '../errors.js';
import { normalizeSsl, tlsOptions } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';

const { types, errors, auth } = cassandra;

export function openClient(conn: ResolvedConnection): cassandra.Client {
  const d = conn.descriptor;
  const host = conn.host ?? d.host ?? '127.0.0.1';
  const port = conn.port ?? d.port ?? 9042;
  const tls = tlsOptions(normalizeSsl(d.ssl), d.host);
  return new cassandra.Client({
    contactPoints: [`${host}:${port}`],
    localDataCenter: String(d.localDataCenter),
    ...(d.database ? { keyspace: d.database } : {}),
    ...(d.user ? { authProvider: new auth.PlainTextAuthProvider(d.user, d.password ?? '') } : {}),
    ...(tls ? { sslOptions: tls } : {}),
    protocolOptions: { port, maxVersion: types.protocolVersion.v4 },
    // The portal reads system_schema itself when asked; no schema copy is kept in memory per datasource.
    isMetadataSyncEnabled: false,
    socketOptions: {
      connectTimeout: conn.connectTimeoutMs,
      // The provider's deadline (withDeadline) decides timeouts; the driver waits a little longer.
      readTimeout: conn.queryTimeoutMs + 5_000,
    },
    pooling: { coreConnectionsPerHost: { [types.distance.local]: 1, [types.distance.remote]: 0 } },
    // One attempt per statement: a write must never be sent twice because a reply was slow.
    policies: { retry: new cassandra.policies.retry.FallthroughRetryPolicy() },
    queryOptions: { consistency: types.consistencies.localQuorum },
  });
}

function unwrap(err: unknown): unknown {
  if (err instanceof errors.NoHostAvailableError) {
    const inner = Object.values((err as { innerErrors?: Record<string, unknown> }).innerErrors ?? {});
    if (inner.length > 0) return inner[0];
  }
  return err;
}

/** Maps a driver failure: server error codes decide query/timeout/auth; no host reachable is a connection error. */
export function mapCassandraError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = unwrap(err) as { code?: number; message?: string; name?: string };
  const message = e?.message ?? String(err);
  const codes = types.responseErrorCodes;
  if (
    err instanceof errors.AuthenticationError ||
    e instanceof errors.AuthenticationError ||
    e?.code === codes.badCredentials
  )
    return new ProviderError('authentication', `Cassandra refused the credentials: ${message}`);
  if (e instanceof errors.OperationTimedOutError) return timeoutError(timeoutMs);
  if (e instanceof errors.ResponseError) {
    if (e.code === codes.readTimeout || e.code === codes.writeTimeout)
      return new ProviderError('timeout', `Cassandra timed out on the server: ${message}`, String(e.code));
    if (
      e.code === codes.unavailableException ||
      e.code === codes.overloaded ||
      e.code === codes.isBootstrapping
    )
      return new ProviderError('connection', message, String(e.code));
    return queryError(message, `0x${(e.code ?? 0).toString(16).padStart(4, '0')}`);
  }
  if (err instanceof errors.NoHostAvailableError || /ECONNREFUSED|connect|socket/i.test(message))
    return new ProviderError('connection', `Cassandra connection failed: ${message}`);
  if (e instanceof errors.ArgumentError || e instanceof TypeError) return queryError(message);
  return new ProviderError('connection', `Cassandra connection failed: ${message}`);
}

/** One CQL value as JSON with no precision loss. */
export function cqlValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v !== 'object') return v;
  if (Buffer.isBuffer(v)) return `0x${v.toString('hex')}`;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof types.Long || v instanceof types.Integer || v instanceof types.BigDecimal)
    return v.toString();
  if (
    v instanceof types.Uuid ||
    v instanceof types.InetAddress ||
    v instanceof types.LocalDate ||
    v instanceof types.LocalTime ||
    v instanceof types.Duration
  )
    return v.toString();
  if (v instanceof types.Tuple) return v.values().map(cqlValue);
  if (Array.isArray(v)) return v.map(cqlValue);
  if (v instanceof Set) return [...v].map(cqlValue);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(cqlValue(k)), cqlValue(x)]));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cqlValue(x)]));
}

const TYPE_NAMES: Record<number, string> = {
  1: 'ascii',
  2: 'bigint',
  3: 'blob',
  4: 'boolean',
  5: 'counter',
  6: 'decimal',
  7: 'double',
  8: 'float',
  9: 'int',
  11: 'timestamp',
  12: 'uuid',
  13: 'text',
  14: 'varint',
  15: 'timeuuid',
  16: 'inet',
  17: 'date',
  18: 'time',
  19: 'smallint',
  20: 'tinyint',
  21: 'duration',
};

type ColumnType = { code: number; info?: unknown };

/** The CQL type name of a result column (`text`, `bigint`, `map<text, int>`, …), from the protocol's type codes. */
export function cqlTypeName(type: ColumnType | null | undefined): string {
  if (!type) return 'unknown';
  const info = type.info as ColumnType | ColumnType[] | string | null | undefined;
  switch (type.code) {
    case 0x0000:
      return typeof info === 'string' ? `'${info}'` : 'custom';
    case 0x0020:
      return `list<${cqlTypeName(info as ColumnType)}>`;
    case 0x0022:
      return `set<${cqlTypeName(info as ColumnType)}>`;
    case 0x0021: {
      const [k, v] = (info as ColumnType[]) ?? [];
      return `map<${cqlTypeName(k)}, ${cqlTypeName(v)}>`;
    }
    case 0x0030:
      return `frozen<${String((info as { name?: string } | null)?.name ?? 'udt')}>`;
    case 0x0031:
      return `tuple<${((info as ColumnType[]) ?? []).map(cqlTypeName).join(', ')}>`;
    default:
      return TYPE_NAMES[type.code] ?? `type:${type.code}`;
  }
}
