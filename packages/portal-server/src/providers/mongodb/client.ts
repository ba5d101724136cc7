// The MongoDB client of one provider: built from the connection string (as mongosh takes it) or from the
// host fields, with `authSource` naming the database that holds the credentials; server selection bounded
// by the connect timeout so a dead server answers 503 at once; 64-bit integers read as bigint so none loses
// precision. Driver failures are mapped onto the provider's error kinds.
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { ProviderError, queryError } from '../errors.js';
import { normalizeSsl } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';

/** MaxTimeMSExpired: the server stopped the operation at maxTimeMS. */
export const MAX_TIME_EXPIRED = 50;
/** Interrupted (killOp). */
const INTERRUPTED = new Set([11601, 11600, 11602]);
const AUTH_FAILED = 18;

export function openClient(conn: ResolvedConnection): MongoClient {
  const d = conn.descriptor;
  const ssl = normalizeSsl(d.ssl);
  const options: MongoClientOptions = {
    serverSelectionTimeoutMS: conn.connectTimeoutMs,
    connectTimeoutMS: conn.connectTimeoutMs,
    maxPoolSize: 10,
    useBigInt64: true,
    appName: 'database-portal',
    ...(d.user ? { auth: { username: d.user, password: d.password ?? '' } } : {}),
    ...(d.authSource ? { authSource: d.authSource } : {}),
    ...(ssl && ssl.mode !== 'disable'
      ? {
          tls: true,
          ...(ssl.ca ? { ca: ssl.ca } : {}),
          ...(ssl.cert ? { cert: ssl.cert } : {}),
          ...(ssl.key ? { key: ssl.key } : {}),
          tlsAllowInvalidCertificates: ssl.mode === 'require',
          tlsAllowInvalidHostnames: ssl.mode !== 'verify-full',
        }
      : {}),
  };
  const host = conn.host ?? d.host ?? '127.0.0.1';
  const port = conn.port ?? d.port ?? 27017;
  const uri = d.connectionString || `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  return new MongoClient(uri, options);
}

/** The database the datasource names (`database`, else the connection string's path, else `test`). */
export function databaseName(conn: ResolvedConnection): string {
  const d = conn.descriptor;
  if (d.database) return d.database;
  const cs = d.connectionString;
  if (cs) {
    const path = cs
      .replace(/^mongodb(\+srv)?:\/\/[^/]*/, '')
      .replace(/^\//, '')
      .split('?')[0];
    if (path) return decodeURIComponent(path);
  }
  return 'test';
}

export function mapMongoError(err: unknown, timeoutMs: number): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { name?: string; message?: string; code?: number; codeName?: string };
  const message = e?.message ?? String(err);
  if (e?.code === MAX_TIME_EXPIRED)
    return new ProviderError(
      'timeout',
      `Query exceeded the ${timeoutMs} ms timeout. Try a narrower filter or raise the connection's queryTimeout.`,
    );
  if (typeof e?.code === 'number' && INTERRUPTED.has(e.code))
    return new ProviderError('cancelled', 'The operation was cancelled');
  if (e?.code === AUTH_FAILED || e?.name === 'MongoMissingCredentialsError')
    return new ProviderError('authentication', `MongoDB refused the credentials: ${message}`);
  if (
    e?.name === 'MongoServerSelectionError' ||
    e?.name === 'MongoNetworkError' ||
    e?.name === 'MongoNetworkTimeoutError' ||
    e?.name === 'MongoTopologyClosedError'
  )
    return new ProviderError('connection', `MongoDB connection failed: ${message}`);
  return queryError(message, e?.codeName);
}
