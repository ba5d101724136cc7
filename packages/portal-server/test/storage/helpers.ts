// Opens a fresh portal store on SQLite (a temp file) or on the shared test PostgreSQL (a new database).
import { join } from 'node:path';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { inject } from 'vitest';
import {
  type OpenStoreOptions,
  openPortalStore,
  type PortalStore,
  type StorageSettings,
} from '../../src/storage/store.js';

export type StoreKind = 'sqlite' | 'postgres';

export const JWT = 'j'.repeat(40);

export async function storageSettings(
  kind: StoreKind,
  extra: Partial<StorageSettings> = {},
): Promise<StorageSettings> {
  const dataDir = tempDir('portal-store-');
  return {
    storageProvider: kind,
    storageSqlitePath: join(dataDir, 'portal.db'),
    storagePostgresUrl:
      kind === 'postgres' ? await createPostgresDatabase(inject('services').postgresUrl) : undefined,
    dataDir,
    ...extra,
  };
}

export async function openStore(
  kind: StoreKind,
  options: OpenStoreOptions = {},
  extra: Partial<StorageSettings> = {},
): Promise<{ store: PortalStore; settings: StorageSettings }> {
  const settings = await storageSettings(kind, extra);
  const store = await openPortalStore(settings, { jwtSecret: JWT, ...options });
  if (!store) throw new Error('expected a store');
  return { store, settings };
}
