// OIDC providers added through the admin API (those from CI_CONFIG live in the configuration file). The
// client secret is stored sealed and is never returned by any route.
import type { AuthProvidersTable } from './auth-schema.js';
import type { StoreDb } from './database.js';

export type ProviderRow = AuthProvidersTable;

export async function listProviderRows(db: StoreDb): Promise<ProviderRow[]> {
  return db.selectFrom('auth_providers').selectAll().orderBy('name').limit(1000).execute();
}

export async function findProviderRow(db: StoreDb, id: string): Promise<ProviderRow | undefined> {
  return db.selectFrom('auth_providers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertProviderRow(db: StoreDb, row: ProviderRow): Promise<void> {
  await db.insertInto('auth_providers').values(row).execute();
}

export async function deleteProviderRow(db: StoreDb, id: string): Promise<boolean> {
  const r = await db.deleteFrom('auth_providers').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
