// Settings documents kept in the store: the server's own (`server_settings`, by key: the storage backend, the
// retention sweeper's last report) and each project's (`project_settings`, by project and key: the
// log-archive override, the notification config). Values are text (JSON documents); writing null removes.
import type { StoreDb } from './database.js';
import { nowIso } from './ids.js';

export async function readServerSetting(db: StoreDb, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}

/** Writes (upserts) the server setting, or removes it when `value` is null. */
export async function writeServerSetting(
  db: StoreDb,
  key: string,
  value: string | null,
  updatedAt = nowIso(),
): Promise<void> {
  if (value === null) {
    await db.deleteFrom('server_settings').where('key', '=', key).execute();
    return;
  }
  await db
    .insertInto('server_settings')
    .values({ key, value, updated_at: updatedAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: updatedAt }))
    .execute();
}

/** Writes the server setting only when it does not exist yet (another writer may have been first). */
export async function insertServerSettingIfAbsent(db: StoreDb, key: string, value: string): Promise<void> {
  await db
    .insertInto('server_settings')
    .values({ key, value, updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

export async function readProjectSetting(
  db: StoreDb,
  projectId: string,
  key: string,
): Promise<{ value: string; updated_at: string } | undefined> {
  return db
    .selectFrom('project_settings')
    .select(['value', 'updated_at'])
    .where('project_id', '=', projectId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Writes (upserts) the project setting, or removes it (the project inherits) when `value` is null. */
export async function writeProjectSetting(
  db: StoreDb,
  projectId: string,
  key: string,
  value: string | null,
): Promise<void> {
  if (value === null) {
    await db
      .deleteFrom('project_settings')
      .where('project_id', '=', projectId)
      .where('key', '=', key)
      .execute();
    return;
  }
  const updated_at = nowIso();
  await db
    .insertInto('project_settings')
    .values({ project_id: projectId, key, value, updated_at })
    .onConflict((oc) => oc.columns(['project_id', 'key']).doUpdateSet({ value, updated_at }))
    .execute();
}
