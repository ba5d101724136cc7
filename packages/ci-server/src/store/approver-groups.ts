// Approver groups (gocdnext's `approval.approver_groups` naming a group rather than one of our roles): named
// lists of users (names or e-mail addresses) an admin keeps, stored as one server setting. The gate check
// (services/gate-approvers.ts) reads them at decision time, so a change applies to gates already waiting.
import type { StoreDb } from './database.js';
import { readServerSetting, writeServerSetting } from './settings.js';

const SETTING = 'approver_groups';

/** Group name -> members (user names or e-mail addresses, as written). */
export type ApproverGroups = ReadonlyMap<string, readonly string[]>;

export async function readApproverGroups(db: StoreDb): Promise<Map<string, string[]>> {
  const text = await readServerSetting(db, SETTING);
  const obj = text ? (JSON.parse(text) as Record<string, string[]>) : {};
  return new Map(Object.entries(obj).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Sets a group's members (replacing them), or removes the group when `members` is null; false: no such group. */
export async function writeApproverGroup(
  db: StoreDb,
  name: string,
  members: string[] | null,
): Promise<boolean> {
  const groups = await readApproverGroups(db);
  const existed = groups.has(name);
  if (members === null) groups.delete(name);
  else groups.set(name, members);
  await writeServerSetting(db, SETTING, JSON.stringify(Object.fromEntries(groups)));
  return existed;
}
