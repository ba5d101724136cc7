// Issuing API tokens for users and service accounts: the secret is returned to the caller once and only
// its hash is stored.
import { randomUUID } from 'node:crypto';
import { insertToken, type TokenOwner, type TokenRow } from '../store/auth-tokens.js';
import type { StoreDb } from '../store/database.js';
import { mintToken } from './tokens.js';
import { type TokenView, tokenView } from './views.js';

export async function issueToken(
  db: StoreDb,
  owner: TokenOwner,
  name: string,
  expiresAt: string | null,
): Promise<TokenView & { secret: string }> {
  const minted = mintToken('userId' in owner ? 'user' : 'service_account');
  const row: TokenRow = {
    id: randomUUID(),
    name,
    prefix: minted.prefix,
    token_hash: minted.hash,
    user_id: 'userId' in owner ? owner.userId : null,
    service_account_id: 'serviceAccountId' in owner ? owner.serviceAccountId : null,
    created_at: new Date().toISOString(),
    expires_at: expiresAt,
    last_used_at: null,
    revoked_at: null,
  };
  await insertToken(db, row);
  return { ...tokenView(row), secret: minted.secret };
}
