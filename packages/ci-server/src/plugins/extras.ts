// Wires the plugin catalog and the other late additions to the API in one call from http/api.ts: the catalog
// (loaded here, once, at server start), the project log-archive/notification/cache routes and the admin
// retention and storage routes (docs/ci-decisions.md, "Plugins, project extras, retention and storage").
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { readRetentionSettings, registerAdminRetentionRoute } from '../http/admin/retention.js';
import { registerAdminStorageRoutes } from '../http/admin/storage.js';
import type { Api } from '../http/context.js';
import { registerPluginRoutes } from '../http/plugins.js';
import { registerProjectExtraRoutes } from '../http/project-extras.js';
import { type CatalogLog, loadPluginCatalog, manifestDirs } from './catalog.js';

export interface ExtrasDeps {
  /** The whole CI_CONFIG document (`plugins.manifest_dirs`, `retention`). */
  file: Record<string, unknown>;
  /** CI_DATA_DIR: where artifacts/ and caches/ live. */
  dataDir: string;
  log: CatalogLog;
}

export function registerExtraRoutes(api: Api, db: Kysely<any>, deps: ExtrasDeps): void {
  const catalog = loadPluginCatalog(manifestDirs(deps.file), deps.log);
  const retention = readRetentionSettings(deps.file, deps.log);
  registerPluginRoutes(api, catalog);
  registerProjectExtraRoutes(api, {
    db,
    logArchive: retention.logArchive,
    cacheRoot: join(deps.dataDir, 'caches'),
  });
  registerAdminRetentionRoute(api, db, retention);
  registerAdminStorageRoutes(api, db, deps.dataDir);
}
