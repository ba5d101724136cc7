// Sign-in state several replicas must share: second-factor codes already accepted (an accepted code cannot be
// reused, spec Authentication 6) and sessions ended by logout before their expiry. Rows expire with the code's
// validity window or the token's `exp` and are swept as they pass (storage/session-state.ts).
import type { Migration } from 'kysely';

export const m0004SessionState: Migration = {
  async up(db) {
    await db.schema
      .createTable('auth_used_codes')
      .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
      .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('auth_used_codes_expiry')
      .on('auth_used_codes')
      .column('expires_at')
      .execute();
    await db.schema
      .createTable('auth_revoked_sessions')
      .addColumn('jti', 'varchar(100)', (c) => c.primaryKey())
      .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('auth_revoked_sessions_expiry')
      .on('auth_revoked_sessions')
      .column('expires_at')
      .execute();
  },
};
