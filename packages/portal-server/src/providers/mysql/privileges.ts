// Privileges of a MySQL/MariaDB datasource account beyond what the portal needs (issue 27: fleet health and the
// datasource page warn, pointing to account provisioning, docs/portal-seed-and-accounts.md): read from the
// account's own `SHOW GRANTS`. FILE reads and writes server files (LOAD_FILE, INTO OUTFILE), SUPER and the
// administrative privileges change the server, GRANT OPTION and CREATE USER hand out access.

/** Privileges that make an account more than a data account, as SHOW GRANTS spells them. */
const RISKY = [
  'ALL PRIVILEGES',
  'FILE',
  'SUPER',
  'PROCESS',
  'SHUTDOWN',
  'RELOAD',
  'CREATE USER',
  'GRANT OPTION',
  'REPLICATION SLAVE ADMIN',
  'BINLOG ADMIN',
  'CONNECTION ADMIN',
  'READ_ONLY ADMIN',
  'SYSTEM_VARIABLES_ADMIN',
  'SET USER',
];

/** The risky privileges named in `SHOW GRANTS` lines (global `*.*` grants, and WITH GRANT OPTION anywhere). */
export function mysqlPrivilegeWarnings(grants: readonly string[]): string[] {
  const found = new Set<string>();
  for (const line of grants) {
    const upper = line.toUpperCase();
    if (/\bWITH\b[^']*\bGRANT OPTION\b/.test(upper)) found.add('GRANT OPTION');
    const m = /^GRANT\s+(.*?)\s+ON\s+(\S+)\s+TO\b/.exec(upper);
    if (m?.[2] !== '*.*') continue;
    for (const p of RISKY) if (new RegExp(`(^|,\\s*)${p}(\\s*,|$|\\s*\\()`).test(m[1])) found.add(p);
  }
  return [...found];
}

/** Runs the account's SHOW GRANTS through `query` and answers the risky privileges. */
export async function mysqlAccountPrivileges(query: (sql: string) => Promise<unknown[]>): Promise<string[]> {
  const rows = (await query('SHOW GRANTS')) as Record<string, unknown>[];
  return mysqlPrivilegeWarnings(rows.map((r) => String(Object.values(r)[0] ?? '')));
}
