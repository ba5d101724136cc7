// Sign-in sessions: a random cookie value whose SHA-256 is the server-side key. A session ends after
// 12 hours without use (sliding) and at the latest 7 days after sign-in; `last_seen_at` is written at most
// once a minute so reads do not turn into writes.
import { hashToken, randomToken } from '@app/kit';
import {
  deleteExpiredSessions,
  deleteSession,
  findSession,
  insertSession,
  touchSession,
} from '../store/auth-sessions.js';
import type { StoreDb } from '../store/database.js';

export const IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
export const ABSOLUTE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 1000;

export interface ResolvedSession {
  idHash: string;
  userId: string;
  username: string;
  role: string;
}

export class SessionStore {
  constructor(
    private readonly db: StoreDb,
    private readonly now: () => number = Date.now,
  ) {}

  /** Creates a session and returns the cookie value (shown to the browser only). */
  async create(userId: string): Promise<string> {
    const value = randomToken('', 32);
    const now = this.now();
    // Sign-in is a natural moment to drop sessions that have run out.
    await deleteExpiredSessions(this.db, new Date(now).toISOString());
    await insertSession(this.db, {
      id_hash: hashToken(value),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + IDLE_TIMEOUT_MS).toISOString(),
    });
    return value;
  }

  async resolve(value: string): Promise<ResolvedSession | undefined> {
    const idHash = hashToken(value);
    const row = await findSession(this.db, idHash);
    if (!row) return undefined;
    const now = this.now();
    if (Date.parse(row.expires_at) <= now) {
      await deleteSession(this.db, idHash);
      return undefined;
    }
    if (now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
      const hardEnd = Date.parse(row.created_at) + ABSOLUTE_LIFETIME_MS;
      const expires = Math.min(now + IDLE_TIMEOUT_MS, hardEnd);
      await touchSession(this.db, idHash, new Date(now).toISOString(), new Date(expires).toISOString());
    }
    return { idHash, userId: row.user_id, username: row.username, role: row.role };
  }

  async destroy(value: string): Promise<void> {
    await deleteSession(this.db, hashToken(value));
  }
}
