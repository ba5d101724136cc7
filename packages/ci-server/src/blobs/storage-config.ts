// Which storage backend holds artifacts, caches and archived logs. Three sources, the first present wins:
// the configuration stored by PUT /api/v1/admin/storage (server_settings `storage`), CI_CONFIG `storage`,
// and the default (a folder: CI_DATA_DIR). It is read once at start and applied for the process's life;
// a change through the API is stored and applied at the next start (the route says so with
// X-Service-Restart-Required). An S3 secret key is stored sealed with CI_SECRET_KEY and never answered.
import { isAbsolute, normalize } from 'node:path';
import { createSecretBox } from '@app/kit';
import type { StoreDb } from '../store/database.js';
import { readServerSetting } from '../store/settings.js';
import type { BlobStorage } from './blob-storage.js';
import { FilesystemStorage } from './filesystem-storage.js';
import { type S3Settings, S3Storage } from './s3-storage.js';

export type StorageConfig = { backend: 'local'; path: string } | { backend: 's3'; s3: S3Settings };

export const STORAGE_SETTING_KEY = 'storage';

export class StorageConfigError extends Error {
  override name = 'StorageConfigError';
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Reads `{bucket, endpoint?, region?, prefix?, force_path_style?, access_key_id?, secret_access_key?}`. */
export function parseS3Settings(raw: Record<string, unknown>, where: string): S3Settings {
  const bucket = str(raw.bucket);
  if (!bucket || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new StorageConfigError(
      `${where}.bucket must be an S3 bucket name (3-63 lowercase letters, digits, . or -)`,
    );
  const endpoint = str(raw.endpoint);
  if (endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new StorageConfigError(`${where}.endpoint must be an http(s) URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new StorageConfigError(`${where}.endpoint must be an http(s) URL`);
  }
  let prefix = str(raw.prefix) ?? '';
  if (prefix.startsWith('/') || prefix.includes('..'))
    throw new StorageConfigError(`${where}.prefix must be relative (like ci/)`);
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  if (raw.force_path_style !== undefined && typeof raw.force_path_style !== 'boolean')
    throw new StorageConfigError(`${where}.force_path_style must be true or false`);
  const accessKeyId = str(raw.access_key_id);
  const secretAccessKey = str(raw.secret_access_key);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new StorageConfigError(`${where}: give both access_key_id and secret_access_key, or neither`);
  return {
    bucket,
    endpoint,
    region: str(raw.region) ?? 'us-east-1',
    prefix,
    // Self-hosted servers rarely have per-bucket DNS names: path style is the default with an endpoint.
    forcePathStyle: (raw.force_path_style as boolean | undefined) ?? endpoint !== undefined,
    accessKeyId,
    secretAccessKey,
  };
}

/** CI_CONFIG `storage: {backend: local|filesystem|s3, path?, s3?: {...}}`; absent means the data folder. */
export function storageFromFile(file: Record<string, unknown>, dataDir: string): StorageConfig {
  const raw = file.storage;
  if (raw === undefined || raw === null) return { backend: 'local', path: normalize(dataDir) };
  if (typeof raw !== 'object') throw new StorageConfigError('CI_CONFIG storage must be a mapping');
  const s = raw as Record<string, unknown>;
  const backend = s.backend ?? 'local';
  if (backend === 'local' || backend === 'filesystem') {
    const path = str(s.path) ?? dataDir;
    if (!isAbsolute(path)) throw new StorageConfigError('CI_CONFIG storage.path must be an absolute folder');
    return { backend: 'local', path: normalize(path) };
  }
  if (backend === 's3') {
    if (!s.s3 || typeof s.s3 !== 'object') throw new StorageConfigError('CI_CONFIG storage.s3 is required');
    return { backend: 's3', s3: parseS3Settings(s.s3 as Record<string, unknown>, 'CI_CONFIG storage.s3') };
  }
  throw new StorageConfigError(
    `CI_CONFIG storage.backend "${String(backend)}" is not one of local, filesystem, s3`,
  );
}

/** The configuration stored through the API, with its S3 secret opened; undefined when none is stored. */
export async function readStoredStorage(db: StoreDb, secretKey: string): Promise<StorageConfig | undefined> {
  const value = await readServerSetting(db, STORAGE_SETTING_KEY);
  return value === undefined ? undefined : decodeStored(value, secretKey);
}

export function decodeStored(value: string, secretKey: string): StorageConfig | undefined {
  let stored: any;
  try {
    stored = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (stored?.backend === 'local' && typeof stored.path === 'string')
    return { backend: 'local', path: stored.path };
  if (stored?.backend === 's3' && stored.s3 && typeof stored.s3 === 'object') {
    const { secret_sealed, ...rest } = stored.s3;
    const secretAccessKey =
      typeof secret_sealed === 'string'
        ? createSecretBox(secretKey).open(secret_sealed, 'storage.s3')
        : undefined;
    return { backend: 's3', s3: { ...rest, secretAccessKey } as S3Settings };
  }
  return undefined;
}

export function encodeStored(config: StorageConfig, secretKey: string): string {
  if (config.backend === 'local') return JSON.stringify(config);
  const { secretAccessKey, ...rest } = config.s3;
  const secret_sealed = secretAccessKey
    ? createSecretBox(secretKey).seal(secretAccessKey, 'storage.s3')
    : undefined;
  return JSON.stringify({ backend: 's3', s3: { ...rest, secret_sealed } });
}

/** Two configurations that would open the same storage (a changed secret counts as a change). */
export function sameStorage(a: StorageConfig, b: StorageConfig): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(c: StorageConfig): unknown {
  if (c.backend === 'local') return { backend: 'local', path: normalize(c.path) };
  const s = c.s3;
  return [
    s.bucket,
    s.endpoint ?? '',
    s.region,
    s.prefix,
    s.forcePathStyle,
    s.accessKeyId ?? '',
    s.secretAccessKey ?? '',
  ];
}

export function openStorage(config: StorageConfig): BlobStorage {
  return config.backend === 'local' ? new FilesystemStorage(config.path) : new S3Storage(config.s3);
}

/** What the API shows: never the secret key, only whether one is set. */
export function describeStorage(config: StorageConfig) {
  if (config.backend === 'local') return { backend: 'local' as const, path: config.path };
  const s = config.s3;
  return {
    backend: 's3' as const,
    s3: {
      bucket: s.bucket,
      endpoint: s.endpoint ?? null,
      region: s.region,
      prefix: s.prefix,
      force_path_style: s.forcePathStyle,
      access_key_id: s.accessKeyId ?? null,
      secret_access_key_set: s.secretAccessKey !== undefined,
    },
  };
}
