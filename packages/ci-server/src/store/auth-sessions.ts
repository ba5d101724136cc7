// Server-side sign-in sessions, keyed by the SHA-256 of the cookie value. A lookup joins the user so the
import type { StoreDb } from './database.js';
// role is always the current one.

export interface SessionWithUser {
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  username: string;
  role: string;
}

export async function insertSession(
  db: StoreDb,
  row: { id_hash: string; user_id: string; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('user_sessions')
    .values({ ...row, last_seen_at: row.created_at })
    .execute();
}

export async function findSession(db: StoreDb, idHash: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id_hash',
      's.user_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      'u.username',
      'u.role',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
}

export async function touchSession(
  db: StoreDb,
  idHash: string,
  lastSeenAt: string,
  expiresAt: string,
): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
    .where('id_hash', '=', idHash)
    .execute();
}

export async function deleteSession(db: StoreDb, idHash: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user except `keepHash` (after a password change). */
export async function deleteUserSessions(db: StoreDb, userId: string, keepHash?: string): Promise<void> {
  let q = db.deleteFrom('user_sessions').where('user_id', '=', userId);
  if (keepHash) q = q.where('id_hash', '!=', keepHash);
  await q.execute();
}

export async function deleteExpiredSessions(db: StoreDb, now: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
}
