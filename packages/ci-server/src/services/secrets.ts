// Project secrets: names and timestamps in listings, values only written (sealed with the server's secret
// box, bound to their project and name so a sealed value copied to another row does not open) and opened
// only for the dispatcher through `openProjectSecrets`. A value never appears in a response or a log.
import { badRequest, notFound, type SecretBox } from '@app/kit';
import { ENV_NAME, NAME_MAX } from '../domain/index.js';
import { projectSecretAad } from '../store/auth-secrets.js';
import type { StoreDb } from '../store/database.js';
import { nowIso } from '../store/ids.js';
import { projectIdOf } from '../store/lookups.js';

/** Largest secret value accepted (bytes of UTF-8): certificates and keys fit, whole files do not. */
export const SECRET_VALUE_MAX = 64 * 1024;

const associated = projectSecretAad;

export function checkSecretName(name: string): void {
  if (name.length > NAME_MAX)
    throw badRequest(`secret name is ${name.length} characters long; at most ${NAME_MAX} are allowed`);
  if (!ENV_NAME.test(name))
    throw badRequest(
      `"${name}" is not a valid secret name: use letters, digits and _ (not starting with a digit)`,
    );
}

export async function listSecrets(db: StoreDb, slug: string) {
  const id = await projectIdOf(db, slug);
  const secrets = await db
    .selectFrom('project_secrets')
    .select(['name', 'created_at', 'updated_at'])
    .where('project_id', '=', id)
    .orderBy('name')
    .execute();
  return { secrets };
}

/** Stores a secret; `created` is false when it replaced the value of an existing name. */
export async function putSecret(
  db: StoreDb,
  box: SecretBox,
  slug: string,
  name: string,
  value: string,
): Promise<{ created: boolean; secret: { name: string; created_at: string; updated_at: string } }> {
  checkSecretName(name);
  if (value === '') throw badRequest('the secret value is empty');
  if (Buffer.byteLength(value) > SECRET_VALUE_MAX)
    throw badRequest(`the secret value is larger than ${SECRET_VALUE_MAX} bytes`);
  const id = await projectIdOf(db, slug);
  const now = nowIso();
  const sealed = box.seal(value, associated(id, name));
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('project_secrets')
      .select('created_at')
      .where('project_id', '=', id)
      .where('name', '=', name)
      .executeTakeFirst();
    await trx
      .insertInto('project_secrets')
      .values({ project_id: id, name, value_sealed: sealed, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['project_id', 'name']).doUpdateSet({ value_sealed: sealed, updated_at: now }),
      )
      .execute();
    const created_at = existing?.created_at ?? now;
    return { created: !existing, secret: { name, created_at, updated_at: now } };
  });
}

export async function deleteSecret(db: StoreDb, slug: string, name: string): Promise<void> {
  const id = await projectIdOf(db, slug);
  const result = await db
    .deleteFrom('project_secrets')
    .where('project_id', '=', id)
    .where('name', '=', name)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(`project "${slug}" has no secret "${name}"`);
}

/** Plain values of the named secrets of a project that exist (for the dispatcher; never for responses). */
export async function openProjectSecrets(
  db: StoreDb,
  box: SecretBox,
  projectId: string,
  names: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  const rows = await db
    .selectFrom('project_secrets')
    .select(['name', 'value_sealed'])
    .where('project_id', '=', projectId)
    .where('name', 'in', [...names])
    .execute();
  for (const row of rows) out.set(row.name, box.open(row.value_sealed, associated(projectId, row.name)));
  return out;
}
