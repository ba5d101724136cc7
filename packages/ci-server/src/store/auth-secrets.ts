// Global secrets (admin-only): values sealed with the server's secret box; listings carry names and
// timestamps only.
import { nowIso } from './auth-schema.js';
import type { StoreDb } from './database.js';

/** Associated data binding a sealed value to its name: `box.open(sealed, globalSecretAad(name))`. */
export const globalSecretAad = (name: string) => `global_secret:${name}`;
/** Associated data binding a project secret to its project and name. */
export const projectSecretAad = (projectId: string, name: string) =>
  `project-secret\u0000${projectId}\u0000${name}`;

export interface SecretMeta {
  name: string;
  created_at: string;
  updated_at: string;
}

export async function listGlobalSecrets(db: StoreDb): Promise<SecretMeta[]> {
  return db
    .selectFrom('global_secrets')
    .select(['name', 'created_at', 'updated_at'])
    .orderBy('name')
    .limit(10_000)
    .execute();
}

/** Inserts or replaces a secret; `created` tells which happened. */
export async function putGlobalSecret(
  db: StoreDb,
  name: string,
  sealed: string,
): Promise<{ secret: SecretMeta; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const existing = await trx
      .selectFrom('global_secrets')
      .select(['created_at'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (existing) {
      await trx
        .updateTable('global_secrets')
        .set({ value_sealed: sealed, updated_at: now })
        .where('name', '=', name)
        .execute();
      return { secret: { name, created_at: existing.created_at, updated_at: now }, created: false };
    }
    await trx
      .insertInto('global_secrets')
      .values({ name, value_sealed: sealed, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value_sealed: sealed, updated_at: now }))
      .execute();
    return { secret: { name, created_at: now, updated_at: now }, created: true };
  });
}

export async function deleteGlobalSecret(db: StoreDb, name: string): Promise<boolean> {
  const r = await db.deleteFrom('global_secrets').where('name', '=', name).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
