// The durable side of agent identity: credential hashes on agent rows, revocation, and the rotated
// registration token (its hash in server_settings, shared by every replica). Credentials and tokens are
// never stored in clear; a credential is found by the hash of what the agent presents.
import type { StoreDb } from './database.js';

/** server_settings key of the rotated registration token: `{hash, rotated_at, configured_hash}`. */
export const REGISTRATION_TOKEN_KEY = 'agents.registration_token';

export interface RotatedToken {
  /** SHA-256 hex of the token in force. */
  hash: string;
  rotated_at: string;
  /** Hash of the configured token (CI_AGENT_TOKEN / CI_CONFIG / data-dir file) when the rotation happened. */
  configured_hash: string;
}

export async function readRotatedToken(db: StoreDb): Promise<RotatedToken | undefined> {
  const row = await db
    .selectFrom('server_settings')
    .select('value')
    .where('key', '=', REGISTRATION_TOKEN_KEY)
    .executeTakeFirst();
  if (!row) return undefined;
  try {
    const v = JSON.parse(row.value) as RotatedToken;
    return typeof v.hash === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

export async function writeRotatedToken(db: StoreDb, token: RotatedToken): Promise<void> {
  const value = JSON.stringify(token);
  await db
    .insertInto('server_settings')
    .values({ key: REGISTRATION_TOKEN_KEY, value, updated_at: token.rotated_at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: token.rotated_at }))
    .execute();
}

export async function clearRotatedToken(db: StoreDb): Promise<void> {
  await db.deleteFrom('server_settings').where('key', '=', REGISTRATION_TOKEN_KEY).execute();
}

export interface CredentialOwner {
  id: string;
  name: string;
  revoked_at: string | null;
}

/** The agent a credential hash belongs to, if any. */
export async function agentByCredential(db: StoreDb, hash: string): Promise<CredentialOwner | undefined> {
  return db
    .selectFrom('agents')
    .select(['id', 'name', 'revoked_at'])
    .where('credential_hash', '=', hash)
    .executeTakeFirst();
}

export async function agentByName(db: StoreDb, name: string): Promise<CredentialOwner | undefined> {
  return db
    .selectFrom('agents')
    .select(['id', 'name', 'revoked_at'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** Stores the hash of the agent's new credential (replacing an older one); false when it was revoked. */
export async function setCredentialHash(db: StoreDb, agentId: string, hash: string): Promise<boolean> {
  const res = await db
    .updateTable('agents')
    .set({ credential_hash: hash })
    .where('id', '=', agentId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Revokes an agent: `revoked_at` is set (its credential is refused from then on). Answers the agent's name, or
 * undefined when no such agent exists; revoking twice keeps the first time.
 */
export async function revokeAgentRow(
  db: StoreDb,
  agentId: string,
  at: string,
): Promise<{ name: string; already: boolean } | undefined> {
  const row = await db
    .selectFrom('agents')
    .select(['name', 'revoked_at'])
    .where('id', '=', agentId)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.revoked_at) return { name: row.name, already: true };
  await db
    .updateTable('agents')
    // The hash stays, so the agent presenting the credential is told it was revoked (and stops).
    .set({ revoked_at: at, status: 'offline' })
    .where('id', '=', agentId)
    .execute();
  return { name: row.name, already: false };
}

/** True when the agent row was revoked (checked on heartbeats, so every replica notices a revocation). */
export async function isRevoked(db: StoreDb, agentId: string): Promise<boolean> {
  const row = await db.selectFrom('agents').select('revoked_at').where('id', '=', agentId).executeTakeFirst();
  return !row || row.revoked_at !== null;
}
