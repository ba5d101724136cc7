// Service accounts: non-human principals with a role, whose tokens are minted by administrators.
import { randomUUID } from 'node:crypto';
import type { ServiceAccountsTable } from './auth-schema.js';
import { nowIso } from './auth-schema.js';
import type { StoreDb } from './database.js';

export type ServiceAccountRow = ServiceAccountsTable;

export async function insertServiceAccount(
  db: StoreDb,
  fields: { name: string; role: string; createdBy: string | null },
): Promise<ServiceAccountRow> {
  const row: ServiceAccountRow = {
    id: randomUUID(),
    name: fields.name,
    name_key: fields.name.toLowerCase(),
    role: fields.role,
    created_at: nowIso(),
    created_by: fields.createdBy,
  };
  await db.insertInto('service_accounts').values(row).execute();
  return row;
}

export async function findServiceAccount(db: StoreDb, id: string): Promise<ServiceAccountRow | undefined> {
  return db.selectFrom('service_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findServiceAccountByName(
  db: StoreDb,
  name: string,
): Promise<ServiceAccountRow | undefined> {
  return db
    .selectFrom('service_accounts')
    .selectAll()
    .where('name_key', '=', name.toLowerCase())
    .executeTakeFirst();
}

export async function listServiceAccounts(
  db: StoreDb,
  limit: number,
  offset: number,
): Promise<{ rows: ServiceAccountRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('service_accounts')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('service_accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
