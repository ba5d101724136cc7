// SQLite provider: a database file on the server (better-sqlite3 in a child process, see embedded/).
import { embeddedPath, IN_MEMORY } from '../descriptor.js';
import { configError } from '../errors.js';
import type { ProviderFactory } from '../types.js';
import { WorkerBackend } from './backend.js';
import { SqliteFamilyProvider, sqliteFamilyCapabilities, sqliteGuard } from './provider.js';

export const sqliteCapabilities = sqliteFamilyCapabilities([
  { type: 'vacuum', targetRequired: false, description: 'VACUUM (rebuild the file, reclaim space)' },
  { type: 'analyze', targetRequired: false, description: 'ANALYZE statistics (a table or all)' },
  { type: 'reindex', targetRequired: false, description: 'REINDEX (a table or index, or all)' },
  { type: 'integrity_check', targetRequired: false, description: 'PRAGMA integrity_check' },
  { type: 'optimize', targetRequired: false, description: 'PRAGMA optimize' },
  { type: 'checkpoint', targetRequired: false, description: 'PRAGMA wal_checkpoint(TRUNCATE)' },
]);

export const sqliteFactory: ProviderFactory = {
  engine: 'sqlite',
  dialect: 'sqlite',
  capabilities: sqliteCapabilities,
  validate(conn, access) {
    if (embeddedPath(conn.database, access.embeddedDir, access.privileged) === IN_MEMORY) {
      // Sessions and exports use their own connections, which would each see a different empty database.
      throw configError('SQLite needs a database file; :memory: is offered by DuckDB');
    }
  },
  localFile: (conn, embeddedDir) => embeddedPath(conn.database, embeddedDir, true),
  guardStatement: sqliteGuard,
  async create(conn, ctx) {
    const path = embeddedPath(conn.descriptor.database, ctx.embeddedDir, true);
    const backend = new WorkerBackend('better-sqlite3', path, conn.queryTimeoutMs);
    return new SqliteFamilyProvider('sqlite', sqliteCapabilities, backend);
  },
};
