// What the database already has, read before planning accounts: the database and connecting account, whether
// that account may create accounts, which named schemas exist and which planned accounts exist already.

import type { Provider } from '../providers/types.js';
import { existingSchemas } from '../seed/catalog.js';
import type { SeedFamily } from '../seed/types.js';
import type { AccountInventory } from './types.js';

async function rows(p: Provider, sql: string, params: unknown[] = []) {
  return (await p.query(sql, params as never[], { maxRows: 1000 })).rows;
}

async function canCreate(p: Provider, family: SeedFamily): Promise<boolean> {
  if (family === 'postgres') {
    const r = await rows(
      p,
      'SELECT (rolsuper OR rolcreaterole) AS ok FROM pg_roles WHERE rolname = current_user',
    );
    return r[0]?.ok === true;
  }
  // The grantee as information_schema spells it: 'user'@'host' of CURRENT_USER().
  const r = await rows(
    p,
    `SELECT COUNT(*) AS n FROM information_schema.USER_PRIVILEGES
      WHERE PRIVILEGE_TYPE = 'CREATE USER'
        AND GRANTEE = CONCAT('''', SUBSTRING_INDEX(CURRENT_USER(), '@', 1), '''@''', SUBSTRING_INDEX(CURRENT_USER(), '@', -1), '''')`,
  );
  return Number(r[0]?.n ?? 0) > 0;
}

async function existingAccounts(p: Provider, family: SeedFamily, names: string[]): Promise<string[]> {
  if (family === 'postgres') {
    const marks = names.map((_, i) => `$${i + 1}`).join(', ');
    const r = await rows(p, `SELECT rolname AS n FROM pg_roles WHERE rolname IN (${marks})`, names);
    return r.map((x) => String(x.n));
  }
  try {
    const marks = names.map(() => '?').join(', ');
    const r = await rows(
      p,
      `SELECT User AS n FROM mysql.user WHERE Host = '%' AND User IN (${marks})`,
      names,
    );
    return r.map((x) => String(x.n));
  } catch {
    // No read access to mysql.user: plan CREATE USER and let the database say if the account exists.
    return [];
  }
}

export async function readInventory(
  p: Provider,
  family: SeedFamily,
  engine: string,
  schemas: string[],
  accounts: string[],
): Promise<AccountInventory> {
  const who = await rows(
    p,
    family === 'postgres'
      ? 'SELECT current_user AS u, current_database() AS d'
      : 'SELECT CURRENT_USER() AS u, DATABASE() AS d',
  );
  const present = await existingSchemas(p, family, schemas);
  return {
    engine,
    database: String(who[0]?.d ?? ''),
    connectedAs: String(who[0]?.u ?? ''),
    canCreateRoles: await canCreate(p, family),
    schemas: schemas.map((name) => ({ name, exists: present.has(name) })),
    existingAccounts: await existingAccounts(p, family, accounts),
  };
}
