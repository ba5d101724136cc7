// The operator routes, registered in one call from http/api.ts: the plugin catalog (loaded here, once, at
// server start), the project log-archive/notification/cache routes and the admin
// retention and storage routes (docs/ci-decisions.md, "Plugins, project operations, retention and storage").

import type { BlobStorage } from '../blobs/blob-storage.js';
import { type CatalogLog, loadPluginCatalog, manifestDirs } from '../plugins/catalog.js';
import type { RetentionSettings } from '../retention/retention-settings.js';
import type { StoreDb } from '../store/database.js';
import { registerAdminRetentionRoute } from './admin/retention.js';
import { registerAdminStorageRoutes, type StorageRouteDeps } from './admin/storage.js';
import type { Api } from './context.js';
import { registerNotificationDeliveryRoute } from './notification-deliveries.js';
import { registerPluginRoutes } from './plugins.js';
import { registerProjectOperationRoutes } from './project-operations.js';

export interface OperatorRouteDeps {
  /** The whole CI_CONFIG document (`plugins.manifest_dirs`, `retention`). */
  file: Record<string, unknown>;
  log: CatalogLog;
  /** CI_CONFIG `retention` with defaults (read once in server.ts; the retention scheduler uses it too). */
  retention: RetentionSettings;
  /** The storage backend in use (cache purges remove blobs from it). */
  blobs: BlobStorage;
  /** The running and configured storage backends, for /api/v1/admin/storage. */
  storage: Omit<StorageRouteDeps, 'db'>;
  /** False when no notification signing secret is configured (webhooks go unsigned). */
  webhooksSigned?: boolean;
}

export function registerOperatorRoutes(api: Api, db: StoreDb, deps: OperatorRouteDeps): void {
  const catalog = loadPluginCatalog(manifestDirs(deps.file), deps.log);
  const retention = deps.retention;
  registerPluginRoutes(api, catalog);
  registerProjectOperationRoutes(api, {
    db,
    logArchive: retention.logArchive,
    blobs: deps.blobs,
    webhooksSigned: deps.webhooksSigned,
  });
  registerNotificationDeliveryRoute(api, db);
  registerAdminRetentionRoute(api, db, retention);
  registerAdminStorageRoutes(api, { db, ...deps.storage });
}
