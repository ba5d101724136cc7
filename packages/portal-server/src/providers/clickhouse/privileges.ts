// Privileges of a ClickHouse datasource account beyond what the portal needs (issue 27: fleet health and the
// datasource page warn, pointing to account provisioning, docs/portal-seed-and-accounts.md). Servers with SQL
// access control answer `SHOW GRANTS` (ALL, FILE, URL, REMOTE, SOURCES, ACCESS MANAGEMENT, SYSTEM …); older
// ones keep accounts in users.xml, where the profile's `readonly` setting is what limits an account.

const RISKY = [
  'ALL',
  'FILE',
  'URL',
  'REMOTE',
  'SOURCES',
  'ACCESS MANAGEMENT',
  'SYSTEM',
  'INTROSPECTION',
  'ADMIN OPTION',
  'GRANT OPTION',
];

/** The risky privileges named in `SHOW GRANTS` lines. */
export function clickhousePrivilegeWarnings(grants: readonly string[]): string[] {
  const found = new Set<string>();
  for (const line of grants) {
    const upper = line.toUpperCase();
    if (/WITH (GRANT|ADMIN) OPTION/.test(upper))
      found.add(upper.includes('ADMIN OPTION') ? 'ADMIN OPTION' : 'GRANT OPTION');
    const m = /^GRANT\s+(.*?)\s+ON\s+(\S+)\s+TO\b/.exec(upper);
    if (!m) continue;
    for (const p of m[1].split(/\s*,\s*/)) {
      const name = p.replace(/\(.*$/, '').trim();
      if (RISKY.includes(name) && (name !== 'ALL' || m[2] === '*.*')) found.add(name);
    }
  }
  return [...found];
}

/** Asks the server; `query` answers the first column of every row as text. */
export async function clickhouseAccountPrivileges(
  query: (sql: string) => Promise<string[]>,
): Promise<string[]> {
  try {
    return clickhousePrivilegeWarnings(await query('SHOW GRANTS'));
  } catch {
    // No SQL access control (users.xml): a profile without `readonly` writes and reaches files and URLs.
    const [readonly] = await query("SELECT value FROM system.settings WHERE name = 'readonly'");
    return readonly === '0' ? ['readonly = 0 (writes, table functions)'] : [];
  }
}
