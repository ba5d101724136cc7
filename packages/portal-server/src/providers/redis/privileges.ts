// Privileges of a Redis datasource account beyond what the portal needs (issue 27: fleet health and the
// datasource page warn, pointing to account provisioning, docs/portal-seed-and-accounts.md): the account's own
// ACL entry (`ACL WHOAMI`, `ACL GETUSER`). Every command, or the admin, dangerous or scripting categories,
// or CONFIG/EVAL/MODULE/DEBUG allowed, is more than a data account needs.

const RISKY_RULES = [
  '+@all',
  'allcommands',
  '+@admin',
  '+@dangerous',
  '+@scripting',
  '+config',
  '+eval',
  '+module',
  '+debug',
  '+acl',
];

/** The risky rules of an ACL GETUSER answer (flags and the command rule text). */
export function redisPrivilegeWarnings(flags: readonly string[], commands: string): string[] {
  const rules = [...flags, ...commands.split(/\s+/)].map((r) => r.toLowerCase());
  const found = RISKY_RULES.filter((r) => rules.includes(r));
  if (flags.includes('nopass')) found.push('nopass');
  return found;
}

/** Asks the server through `call`; an account that may not read its own ACL entry is left unjudged. */
export async function redisAccountPrivileges(
  call: (...args: string[]) => Promise<unknown>,
): Promise<string[]> {
  let name: string;
  let entry: unknown[];
  try {
    name = String(await call('ACL', 'WHOAMI'));
    entry = (await call('ACL', 'GETUSER', name)) as unknown[];
  } catch {
    return [];
  }
  const field = (key: string) => {
    const i = entry.findIndex((v) => String(v) === key);
    return i >= 0 ? entry[i + 1] : undefined;
  };
  const flags = ((field('flags') as unknown[]) ?? []).map(String);
  return redisPrivilegeWarnings(flags, String(field('commands') ?? ''));
}
