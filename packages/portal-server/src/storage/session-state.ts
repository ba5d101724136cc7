// Sign-in state in the server storage (tables from migration 0004_session_state), shared by every replica on
// the same SQLite file or PostgreSQL database: a code is claimed by a conditional insert (exactly one replica
// wins it) and a logout is a row every replica reads. Expired rows are deleted as new ones are written.
import type { Kysely } from 'kysely';
import type { SessionStateStore } from '../auth/session-state.js';
import type { PortalDatabase } from './schema.js';

export class StoredSessionState implements SessionStateStore {
  constructor(
    private readonly db: Kysely<PortalDatabase>,
    private readonly now: () => number = Date.now,
  ) {}

  async claimCode(key: string, expiresAtMs: number): Promise<boolean> {
    const nowIso = new Date(this.now()).toISOString();
    await this.db.deleteFrom('auth_used_codes').where('expires_at', '<', nowIso).execute();
    const result = await this.db
      .insertInto('auth_used_codes')
      .values({ key, expires_at: new Date(expiresAtMs).toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async revoke(jti: string, expiresAtMs: number): Promise<void> {
    const nowIso = new Date(this.now()).toISOString();
    await this.db.deleteFrom('auth_revoked_sessions').where('expires_at', '<', nowIso).execute();
    await this.db
      .insertInto('auth_revoked_sessions')
      .values({ jti, expires_at: new Date(expiresAtMs).toISOString() })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
  }

  async isRevoked(jti: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('auth_revoked_sessions')
      .select('jti')
      .where('jti', '=', jti)
      .executeTakeFirst();
    return row !== undefined;
  }
}
