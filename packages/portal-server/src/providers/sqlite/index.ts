// SQLite provider: a database file on the server (better-sqlite3 in a child process, see embedded/). The
// engine's descriptor (capabilities, dialect, validation) is engine.ts.
import { embeddedPath } from '../descriptor.js';
import type { Provider, ProviderContext, ResolvedConnection } from '../types.js';
import { WorkerBackend } from './backend.js';
import { sqliteCapabilities } from './engine.js';
import { SqliteFamilyProvider } from './provider.js';

export { sqliteCapabilities } from './engine.js';

/** Opens the provider (the registry calls this through the engine descriptor, on first use). */
export async function createProvider(conn: ResolvedConnection, ctx: ProviderContext): Promise<Provider> {
  const path = embeddedPath(conn.descriptor.database, ctx.embeddedDir, true);
  const backend = new WorkerBackend('better-sqlite3', path, conn.queryTimeoutMs);
  return new SqliteFamilyProvider('sqlite', sqliteCapabilities, backend);
}
