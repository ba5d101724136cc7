// The descriptor's `ssl` field turned into Node TLS options. `true` means `require` (encrypted, certificate
// not checked, as libpq's sslmode=require); `verify-ca` checks the chain; `verify-full` also the host name.
import type { ConnectionOptions } from 'node:tls';
import { configError } from './errors.js';
import type { SslConfig } from './types.js';

export function normalizeSsl(ssl: boolean | SslConfig | undefined): SslConfig | undefined {
  if (ssl === undefined || ssl === false) return undefined;
  if (ssl === true) return { mode: 'require' };
  if (typeof ssl !== 'object' || ssl === null)
    throw configError('ssl must be a boolean or an SSL config object');
  const mode = ssl.mode ?? 'require';
  if (!['disable', 'require', 'verify-ca', 'verify-full'].includes(mode)) {
    throw configError('ssl.mode must be disable, require, verify-ca or verify-full');
  }
  for (const k of ['ca', 'cert', 'key', 'servername'] as const) {
    if (ssl[k] !== undefined && typeof ssl[k] !== 'string') throw configError(`ssl.${k} must be a string`);
  }
  return mode === 'disable' ? undefined : { ...ssl, mode };
}

/** TLS options for drivers that take Node's `tls.connect` options (pg, mysql2, mssql/tedious). */
export function tlsOptions(
  ssl: SslConfig | undefined,
  host: string | undefined,
): ConnectionOptions | undefined {
  if (!ssl) return undefined;
  const verify = ssl.mode === 'verify-ca' || ssl.mode === 'verify-full';
  const opts: ConnectionOptions = { rejectUnauthorized: verify };
  if (ssl.ca) opts.ca = ssl.ca;
  if (ssl.cert) opts.cert = ssl.cert;
  if (ssl.key) opts.key = ssl.key;
  if (ssl.servername ?? host) opts.servername = ssl.servername ?? host;
  // verify-ca accepts any host name on a certificate the CA signed.
  if (ssl.mode === 'verify-ca') opts.checkServerIdentity = () => undefined;
  return opts;
}
