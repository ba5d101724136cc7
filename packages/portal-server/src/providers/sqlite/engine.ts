// The SQLite engine: a database file under the portal's folder (better-sqlite3 in a child process),
// capabilities, dialect, `PRAGMA query_only` for read-only, and the guard against ATTACH of server files.
import { sqliteFamilyRules } from '../classifier-rules.js';
import { embeddedPath, IN_MEMORY } from '../descriptor.js';
import { sqlEditor } from '../editor-facts.js';
import type { EngineDescriptor } from '../engine.js';
import { configError } from '../errors.js';
import { sqliteAllowlist } from './allowlist.js';
import { sqliteDialect } from './dialect.js';
import { sqliteFamilyCapabilities, sqliteGuard } from './provider.js';
import { sqliteTableDesign } from './table-design.js';

export const sqliteCapabilities = sqliteFamilyCapabilities([
  { type: 'vacuum', targetRequired: false, description: 'VACUUM (rebuild the file, reclaim space)' },
  { type: 'analyze', targetRequired: false, description: 'ANALYZE statistics (a table or all)' },
  { type: 'reindex', targetRequired: false, description: 'REINDEX (a table or index, or all)' },
  { type: 'integrity_check', targetRequired: false, description: 'PRAGMA integrity_check' },
  { type: 'optimize', targetRequired: false, description: 'PRAGMA optimize' },
  { type: 'checkpoint', targetRequired: false, description: 'PRAGMA wal_checkpoint(TRUNCATE)' },
]);

export const sqliteEngine: EngineDescriptor<'sqlite', 'sqlite'> = {
  engine: 'sqlite',
  label: 'SQLite',
  editor: sqlEditor('sql', 'sqlite'),
  dialect: 'sqlite',
  classifier: { sql: { ...sqliteFamilyRules, allowlist: sqliteAllowlist } },
  fileBased: true,
  readOnly: 'pragma',
  dryRun: { enter: [], savepoints: true, updatedRowWeight: 1, implicitCommit: false },
  capabilities: sqliteCapabilities,
  validate(conn, access) {
    if (embeddedPath(conn.database, access.embeddedDir, access.privileged) === IN_MEMORY) {
      // Sessions and exports use their own connections, which would each see a different empty database.
      throw configError('SQLite needs a database file; :memory: is offered by DuckDB');
    }
  },
  localFile: (conn, embeddedDir) => embeddedPath(conn.database, embeddedDir, true),
  guardStatement: sqliteGuard,
  sqlDialect: { ...sqliteDialect, tableDesign: sqliteTableDesign },
  create: async (conn, ctx) => (await import('./index.js')).createProvider(conn, ctx),
};
