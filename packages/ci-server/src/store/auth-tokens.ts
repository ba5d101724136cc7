// API tokens of users and service accounts: only the SHA-256 of the token text is stored. A lookup by hash
// joins the issuer so a token always carries its issuer's current role.
import type { ApiTokensTable } from './auth-schema.js';
import type { StoreDb } from './database.js';

export type TokenRow = ApiTokensTable;

export type TokenOwner = { userId: string } | { serviceAccountId: string };

export interface TokenWithIssuer extends TokenRow {
  /** Username of the issuing user, or name of the service account. */
  issuer_name: string | null;
  issuer_role: string | null;
}

export async function insertToken(db: StoreDb, row: TokenRow): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

export async function findTokenByHash(db: StoreDb, hash: string): Promise<TokenWithIssuer | undefined> {
  const row = await db
    .selectFrom('api_tokens as t')
    .leftJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('service_accounts as sa', 'sa.id', 't.service_account_id')
    .selectAll('t')
    .select(['u.username', 'u.role as user_role', 'sa.name as sa_name', 'sa.role as sa_role'])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { username, user_role, sa_name, sa_role, ...token } = row;
  return {
    ...token,
    issuer_name: username ?? sa_name ?? null,
    issuer_role: user_role ?? sa_role ?? null,
  };
}

const ownerColumn = (owner: TokenOwner) =>
  'userId' in owner
    ? (['user_id', owner.userId] as const)
    : (['service_account_id', owner.serviceAccountId] as const);

/** Tokens not revoked, newest first (expired ones stay listed so their owner sees them lapse). */
export async function listTokens(db: StoreDb, owner: TokenOwner): Promise<TokenRow[]> {
  const [column, value] = ownerColumn(owner);
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('revoked_at', 'is', null)
    .where(column, '=', value)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(1000)
    .execute();
}

/** Revokes a live token of `owner`; false when there is none with that id. */
export async function revokeToken(db: StoreDb, owner: TokenOwner, id: string, at: string): Promise<boolean> {
  const [column, value] = ownerColumn(owner);
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where(column, '=', value)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function markTokenUsed(db: StoreDb, id: string, at: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}
