// One Redis connection for the provider: opened lazily, never retried in the background (a dead server
// answers 503 at once rather than queueing), replaced after a cancel (the only way to stop a running
// command is to drop its connection), and its errors mapped onto the provider's error kinds.
import { Redis, type RedisOptions } from 'ioredis';
import { ProviderError, queryError } from '../errors.js';
import { normalizeSsl, tlsOptions } from '../ssl.js';
import type { ResolvedConnection } from '../types.js';
import { redisDatabaseIndex } from './engine.js';

export function redisOptions(conn: ResolvedConnection): RedisOptions {
  const d = conn.descriptor;
  const tls = tlsOptions(normalizeSsl(d.ssl), conn.host ?? d.host);
  return {
    host: conn.host ?? d.host ?? '127.0.0.1',
    port: conn.port ?? d.port ?? 6379,
    ...(d.user ? { username: d.user } : {}),
    ...(d.password ? { password: d.password } : {}),
    db: redisDatabaseIndex(d.database),
    ...(tls ? { tls } : {}),
    lazyConnect: true,
    connectTimeout: conn.connectTimeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableReadyCheck: true,
    // Integer replies as their digits: a JavaScript number rounds past 2^53 (INCR to 9007199254740993 read
    // back as …992). The provider turns the exact ones back into numbers (index.ts `replyValue`).
    stringNumbers: true,
  };
}

/** Opens a client from the descriptor (a connectionString wins over host fields, as redis-cli -u does). */
export function openClient(conn: ResolvedConnection): Redis {
  const cs = conn.descriptor.connectionString;
  const client = cs
    ? new Redis(cs, { ...redisOptions(conn), host: undefined, port: undefined })
    : new Redis(redisOptions(conn));
  // Errors reach callers through their commands; an unhandled 'error' event would crash the process.
  client.on('error', () => undefined);
  return client;
}

/** Maps an ioredis failure: server error replies are query errors, refused credentials authentication, the rest connection. */
export function mapRedisError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const e = err as { name?: string; message?: string; code?: string };
  const message = e?.message ?? String(err);
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(message))
    return new ProviderError('authentication', `Redis refused the credentials: ${message}`);
  if (e?.name === 'ReplyError') return queryError(message, message.split(' ')[0]);
  return new ProviderError('connection', `Redis connection failed: ${message}`);
}
