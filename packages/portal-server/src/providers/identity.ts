// The cache key of a provider: a hash over every descriptor field the server reads to open a connection
// (database-portal.md, "Fields the server reads"), never a client-chosen id alone, so two descriptors that
// share an id but differ in host, credentials or timeout never share a pool.
import { createHash } from 'node:crypto';
import type { ConnectionDescriptor } from './types.js';

/**
 * The descriptor fields a provider opens its connection with: the datasource file's connection keys
 * (datasources/validate.ts accepts exactly these besides its display keys), so a field an engine reads
 * cannot be left out of the identity (Athena's `region`, `workgroup`, `outputLocation` and `endpoint` were:
 * an edited region kept the pool of the old one).
 */
export const CONNECTION_FIELDS = [
  'host',
  'port',
  'user',
  'password',
  'database',
  'schema',
  'connectionString',
  'ssl',
  'sshTunnel',
  'sshProfile',
  'serviceName',
  'instanceName',
  'localDataCenter',
  'authSource',
  'region',
  'workgroup',
  'outputLocation',
  'endpoint',
  'queryTimeout',
  'skipObjectScan',
] as const;

export const IDENTITY_FIELDS = [
  'id',
  'name',
  'type',
  ...CONNECTION_FIELDS,
  'agentUser',
  'agentPassword',
] as const;

/** JSON with object keys sorted, so equal descriptors hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}

export function connectionIdentity(conn: ConnectionDescriptor): string {
  const picked: Record<string, unknown> = {};
  for (const f of IDENTITY_FIELDS) picked[f] = conn[f];
  return createHash('sha256').update(canonical(picked)).digest('hex');
}
