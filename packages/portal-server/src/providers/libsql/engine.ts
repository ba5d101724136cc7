// The libSQL engine: a file under the portal's folder (libsql's native driver in a child process) or a
// network database by URL; it speaks SQLite's dialect. The provider (@libsql/client) loads on first use.

import { sqliteFamilyRules } from '../classifier-rules.js';
import { embeddedPath, IN_MEMORY } from '../descriptor.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import { sqliteDialect } from '../sqlite/dialect.js';
import { sqliteFamilyCapabilities, sqliteGuard } from '../sqlite/provider.js';
import type { ConnectionDescriptor } from '../types.js';
import { libsqlAllowlist } from './allowlist.js';

export const libsqlCapabilities = sqliteFamilyCapabilities([
  { type: 'reindex', targetRequired: false, description: 'REINDEX (a table or index, or all)' },
  { type: 'integrity_check', targetRequired: false, description: 'PRAGMA integrity_check' },
]);

const NETWORK_URL = /^(libsql|https?|wss?):\/\//i;

/** The network URL of a descriptor, or undefined for a file database. */
export function libsqlUrl(conn: ConnectionDescriptor): string | undefined {
  for (const v of [conn.connectionString, conn.database, conn.host]) {
    if (typeof v === 'string' && NETWORK_URL.test(v)) return v;
  }
  return undefined;
}

export const libsqlEngine: EngineDescriptor<'libsql', 'sqlite'> = {
  engine: 'libsql',
  label: 'libSQL / Turso',
  editor: sqlEditor('sql', 'sqlite'),
  dialect: 'sqlite',
  datasourceAddress: 'file-or-url',
  classifier: { sql: { ...sqliteFamilyRules, allowlist: libsqlAllowlist } },
  fileBased: true,
  readOnly: 'pragma',
  dryRun: { enter: [], savepoints: true, updatedRowWeight: 1, implicitCommit: false },
  capabilities: libsqlCapabilities,
  validate(conn, access) {
    if (libsqlUrl(conn)) return;
    if (embeddedPath(conn.database, access.embeddedDir, access.privileged) === IN_MEMORY) {
      throw configError('libSQL needs a database file or a network URL');
    }
  },
  localFile: (conn, embeddedDir) =>
    libsqlUrl(conn) ? undefined : embeddedPath(conn.database, embeddedDir, true),
  guardStatement: sqliteGuard,
  sqlDialect: sqliteDialect,
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
