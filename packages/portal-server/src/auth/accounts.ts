// The two local accounts of the spec (administrator from ADMIN_*, user from USER_* when its password is set)
// and the credential check: every slot is compared in constant time, so the answer's timing says nothing
// about which part was wrong or whether the user account exists.
import { randomBytes } from 'node:crypto';
import { ConfigError, safeEqual } from '@app/kit';
import type { PortalSettings } from '../config.js';
import type { Role } from './session.js';
import { parseTotpSecret } from './totp.js';

export interface LocalAccount {
  /** Stable key for per-account state (second-factor replay). */
  id: 'admin' | 'user';
  email: string;
  password: string;
  role: Role;
  /** Base32 TOTP secret when the second factor is on for this account. */
  totpSecret?: string;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function localAccounts(settings: PortalSettings, adminPassword: string): LocalAccount[] {
  const problems: string[] = [];
  if (settings.adminTotpSecret) parseTotpSecret(settings.adminTotpSecret, 'ADMIN_TOTP_SECRET', problems);
  if (settings.userTotpSecret) parseTotpSecret(settings.userTotpSecret, 'USER_TOTP_SECRET', problems);
  const accounts: LocalAccount[] = [
    {
      id: 'admin',
      email: normalizeEmail(settings.adminEmail),
      password: adminPassword,
      role: 'admin',
      totpSecret: settings.adminTotpSecret,
    },
  ];
  if (settings.userPassword) {
    if (!settings.userEmail) problems.push('USER_EMAIL: required when USER_PASSWORD is set');
    else if (normalizeEmail(settings.userEmail) === accounts[0].email)
      problems.push('USER_EMAIL: must differ from ADMIN_EMAIL');
    else
      accounts.push({
        id: 'user',
        email: normalizeEmail(settings.userEmail),
        password: settings.userPassword,
        role: 'user',
        totpSecret: settings.userTotpSecret,
      });
  }
  if (problems.length) throw new ConfigError(problems);
  return accounts;
}

// Stands in for an absent user account so both slots always cost the same; it can never match.
const ABSENT: LocalAccount = {
  id: 'user',
  email: `absent-${randomBytes(16).toString('hex')}@invalid`,
  password: randomBytes(32).toString('hex'),
  role: 'user',
};

/** The account these credentials open, or undefined. Always compares against both slots. */
export function matchAccount(
  accounts: readonly LocalAccount[],
  email: string,
  password: string,
): LocalAccount | undefined {
  const wanted = normalizeEmail(email);
  let found: LocalAccount | undefined;
  for (const slot of [accounts[0], accounts[1] ?? ABSENT]) {
    // `&` rather than `&&`: the password comparison runs even when the email did not match.
    const ok = Number(safeEqual(wanted, slot.email)) & Number(safeEqual(password, slot.password));
    if (ok && slot !== ABSENT && !found) found = slot;
  }
  return found;
}
