// Users and their preferences: the rows behind sign-in, `/api/v1/me`, account preferences and the admin
// user list. Usernames are unique regardless of case (`username_key`).
import { randomUUID } from 'node:crypto';
import type { UsersTable } from './auth-schema.js';
import { nowIso } from './auth-schema.js';
import type { StoreDb } from './database.js';

export type UserRow = UsersTable;

export interface NewUser {
  username: string;
  email?: string | null;
  role: string;
  passwordHash?: string | null;
  provider?: string;
  subject?: string | null;
}

export function usernameKey(username: string): string {
  return username.toLowerCase();
}

export async function insertUser(db: StoreDb, user: NewUser): Promise<UserRow> {
  const now = nowIso();
  const row: UserRow = {
    id: randomUUID(),
    username: user.username,
    username_key: usernameKey(user.username),
    email: user.email ?? null,
    role: user.role,
    password_hash: user.passwordHash ?? null,
    provider: user.provider ?? 'local',
    subject: user.subject ?? null,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function findUserById(db: StoreDb, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByUsername(db: StoreDb, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
}

export async function findUserBySubject(
  db: StoreDb,
  provider: string,
  subject: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function listUsers(
  db: StoreDb,
  limit: number,
  offset: number,
): Promise<{ rows: UserRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('users')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function countAdmins(db: StoreDb): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function updateUserRole(db: StoreDb, id: string, role: string): Promise<void> {
  await db.updateTable('users').set({ role, updated_at: nowIso() }).where('id', '=', id).execute();
}

export async function updateUserPassword(db: StoreDb, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

export async function updateUserProfile(
  db: StoreDb,
  id: string,
  fields: { email?: string | null; role?: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...fields, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

export interface PreferencesRow {
  preferences: Record<string, unknown>;
  updated_at: string | null;
}

export async function getPreferences(db: StoreDb, ownerId: string): Promise<PreferencesRow> {
  const row = await db
    .selectFrom('user_preferences')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) return { preferences: {}, updated_at: null };
  return { preferences: JSON.parse(row.preferences) as Record<string, unknown>, updated_at: row.updated_at };
}

export async function putPreferences(
  db: StoreDb,
  ownerId: string,
  preferences: Record<string, unknown>,
): Promise<void> {
  const text = JSON.stringify(preferences);
  const now = nowIso();
  await db
    .insertInto('user_preferences')
    .values({ owner_id: ownerId, preferences: text, updated_at: now })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ preferences: text, updated_at: now }))
    .execute();
}
