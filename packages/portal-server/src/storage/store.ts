// Opens the portal's server-side store for `STORAGE_PROVIDER` (`local` = none, `sqlite`, `postgres`),
// applies the migrations, settles the encryption key for stored credentials and checks it against the key
// the store was first written with, so a changed key is refused at start instead of failing row by row.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  createSecretBox,
  type DialectName,
  deriveKey,
  migrateToLatest,
  openDatabase,
  pingDatabase,
  randomHex,
  readOrCreateSecretFile,
  type SecretBox,
  SecretBoxError,
} from '@app/kit';
import type { Kysely } from 'kysely';
import { ApprovalRepository } from './approvals.js';
import { AuditEventRepository } from './audit-events.js';
import { SavedConnectionRepository } from './connections.js';
import { JobQueue } from './jobs.js';
import { portalMigrations } from './migrations/index.js';
import { QueryHistoryRepository, SavedQueryRepository } from './queries.js';
import type { PortalDatabase } from './schema.js';
import { ServiceTokenRepository } from './service-tokens.js';
import { StoredSessionState } from './session-state.js';

/** Everything the portal keeps server-side, behind one interface for both SQL dialects. */
export interface PortalStore {
  provider: 'sqlite' | 'postgres';
  dialect: DialectName;
  /** Redacted location, safe to log. */
  displayUrl: string;
  db: Kysely<PortalDatabase>;
  connections: SavedConnectionRepository;
  queries: SavedQueryRepository;
  history: QueryHistoryRepository;
  approvals: ApprovalRepository;
  serviceTokens: ServiceTokenRepository;
  audit: AuditEventRepository;
  jobs: JobQueue;
  /** Accepted second-factor codes and logged-out sessions, shared by every replica on this storage. */
  sessionState: StoredSessionState;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StorageSettings {
  /** `local`, `sqlite` or `postgres` (validated by the configuration loader; anything else is refused). */
  storageProvider: string;
  storageSqlitePath: string;
  storagePostgresUrl?: string;
  storageEncryptionKey?: string;
  dataDir: string;
}

export interface OpenStoreOptions {
  /** The portal's JWT secret: the storage key is derived from it when STORAGE_ENCRYPTION_KEY is unset. */
  jwtSecret?: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** Query-history entries kept per user (default 1000). */
  historyLimit?: number;
  now?: () => Date;
}

const KEY_CHECK = 'storage-key-check';
const KEY_CHECK_PLAINTEXT = 'portal-storage-key-check-v1';

/**
 * The storage key, in order: STORAGE_ENCRYPTION_KEY (64 hex characters), derived from the JWT secret, or —
 * only when neither is available — a key generated once into `storage.key` in the data directory (0600).
 */
export function resolveStorageKey(settings: StorageSettings, jwtSecret?: string): Buffer {
  const given = settings.storageEncryptionKey?.trim();
  if (given) {
    if (!/^[0-9a-fA-F]{64}$/.test(given)) {
      throw new ConfigError([
        'STORAGE_ENCRYPTION_KEY: expected 64 hexadecimal characters (a 32-byte key), e.g. from `openssl rand -hex 32`',
      ]);
    }
    return Buffer.from(given, 'hex');
  }
  if (jwtSecret) return deriveKey(jwtSecret, 'portal-storage');
  const { value } = readOrCreateSecretFile(join(settings.dataDir, 'storage.key'), () => randomHex(32));
  return Buffer.from(value, 'hex');
}

function storageUrl(settings: StorageSettings): string {
  if (settings.storageProvider === 'postgres') {
    const url = settings.storagePostgresUrl?.trim();
    if (!url) throw new ConfigError(['STORAGE_POSTGRES_URL: required when STORAGE_PROVIDER is postgres']);
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new ConfigError(['STORAGE_POSTGRES_URL: expected a postgres:// or postgresql:// URL']);
    }
    return url;
  }
  return `sqlite:${settings.storageSqlitePath}`;
}

/** Seals a known value on first use and opens it on every later start: a wrong key fails here, loudly. */
async function checkKey(db: Kysely<PortalDatabase>, box: SecretBox): Promise<void> {
  const row = await db
    .selectFrom('storage_meta')
    .select('value')
    .where('key', '=', KEY_CHECK)
    .executeTakeFirst();
  if (!row) {
    await db
      .insertInto('storage_meta')
      .values({ key: KEY_CHECK, value: box.seal(KEY_CHECK_PLAINTEXT, KEY_CHECK) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return;
  }
  try {
    if (box.open(row.value, KEY_CHECK) === KEY_CHECK_PLAINTEXT) return;
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
  }
  throw new ConfigError([
    'STORAGE_ENCRYPTION_KEY: this storage was written with a different key (set STORAGE_ENCRYPTION_KEY, or the JWT_SECRET it was derived from, back to the original value)',
  ]);
}

/** Opens the configured store, or answers undefined for `local` (no server-side storage). */
export async function openPortalStore(
  settings: StorageSettings,
  options: OpenStoreOptions = {},
): Promise<PortalStore | undefined> {
  const provider = settings.storageProvider;
  if (provider === 'local') return undefined;
  if (provider !== 'sqlite' && provider !== 'postgres') {
    throw new ConfigError([`STORAGE_PROVIDER: expected one of local, sqlite, postgres, got "${provider}"`]);
  }
  const url = storageUrl(settings);
  const key = resolveStorageKey(settings, options.jwtSecret);
  const database = openDatabase<PortalDatabase>(url, { poolSize: options.poolSize });
  try {
    // Only the service account reads the file (SQLite gives its -wal and -shm files the same mode).
    if (database.dialect === 'sqlite') chmodSync(settings.storageSqlitePath, 0o600);
    await migrateToLatest(database.db, portalMigrations);
    const box = createSecretBox(key);
    await checkKey(database.db, box);
    const { db } = database;
    const now = options.now;
    return {
      provider,
      dialect: database.dialect,
      displayUrl: database.displayUrl,
      db,
      connections: new SavedConnectionRepository(db, box, now),
      queries: new SavedQueryRepository(db, now),
      history: new QueryHistoryRepository(db, options.historyLimit, now),
      approvals: new ApprovalRepository(db, now),
      serviceTokens: new ServiceTokenRepository(db, now),
      audit: new AuditEventRepository(db),
      jobs: new JobQueue(db, database.dialect, now),
      sessionState: new StoredSessionState(db, now ? () => now().getTime() : Date.now),
      ping: () => pingDatabase(db),
      close: () => database.close(),
    };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}
