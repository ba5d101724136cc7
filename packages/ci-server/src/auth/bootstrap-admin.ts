// The bootstrap administrator: created at first start from CI_ADMIN_USERNAME / CI_ADMIN_PASSWORD. When no
// password is configured one is generated, returned once for printing, and stored only as a scrypt hash.
// An existing user of that name is never touched (so a changed password survives restarts).
import type { CiSettings } from '../config.js';
import { findUserByUsername, insertUser } from '../store/auth-users.js';
import type { StoreDb } from '../store/database.js';
import { generatePassword, hashPassword } from './passwords.js';

/** Creates the administrator when missing; returns the line to print when a password was generated. */
export async function ensureBootstrapAdmin(db: StoreDb, settings: CiSettings): Promise<string | undefined> {
  // Without local accounts a password could not be used; administrators then come from the identity
  // provider's role mapping.
  if (!settings.localAccounts) return undefined;
  const username = settings.adminUsername;
  if (await findUserByUsername(db, username)) return undefined;
  const generated = !settings.adminPassword;
  const password = settings.adminPassword ?? generatePassword();
  try {
    await insertUser(db, { username, role: 'admin', passwordHash: await hashPassword(password) });
  } catch (err) {
    // Another instance sharing the database created it first.
    if (await findUserByUsername(db, username)) return undefined;
    throw err;
  }
  return generated
    ? `Generated the bootstrap administrator "${username}" with password: ${password} ` +
        '(shown once; change it with POST /api/v1/me/password or set CI_ADMIN_PASSWORD before the first start)'
    : undefined;
}
