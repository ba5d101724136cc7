// The object tree follows DDL typed in the editor: after a run whose text creates, alters, drops or renames
// something, the connection's tree listings and object descriptions are read again (the table designer
// does the same after its own DDL). A text test, not a parse: reading the tree again costs little, so a
// false positive is harmless and comments are taken off first so a commented-out CREATE does not count.
import type { QueryClient } from '@tanstack/react-query';

const DDL = /(^|;)\s*(create|alter|drop|rename|truncate|comment\s+on)\b/i;

export function isDdl(sql: string): boolean {
  const bare = sql.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(--|#)[^\n]*/g, ' ');
  return DDL.test(bare);
}

export function refreshAfterDdl(qc: QueryClient, connectionKey: string, sql: string): void {
  if (!isDdl(sql)) return;
  for (const key of ['objects', 'describe', 'table-rows'])
    void qc.invalidateQueries({ queryKey: [key, connectionKey] });
}
