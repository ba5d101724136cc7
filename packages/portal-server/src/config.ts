// The portal's settings (spec/RUNTIME.md, "Database portal", and the variables named in
// spec/database-portal.md). Validated at start; every problem names the variable.
import { resolve } from 'node:path';
import { type ConfigOf, loadConfig } from '@app/kit';

export const portalConfigSpec = {
  host: { env: 'HOST', kind: 'string', default: '127.0.0.1' },
  port: { env: 'PORT', kind: 'port', default: 3000 },
  dataDir: { env: 'PORTAL_DATA_DIR', kind: 'string', default: './.data/portal' },
  role: { env: 'PORTAL_ROLE', kind: 'enum', values: ['studio', 'agent', 'worker'], default: 'studio' },
  storageProvider: {
    env: 'STORAGE_PROVIDER',
    kind: 'enum',
    values: ['local', 'sqlite', 'postgres'],
    default: 'local',
  },
  storageSqlitePath: { env: 'STORAGE_SQLITE_PATH', kind: 'string' },
  storagePostgresUrl: { env: 'STORAGE_POSTGRES_URL', kind: 'string', secret: true },
  logLevel: {
    env: 'LOG_LEVEL',
    kind: 'enum',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
  },
} as const;

export type PortalSettings = ConfigOf<typeof portalConfigSpec> & {
  dataDir: string;
  storageSqlitePath: string;
};

export function loadPortalSettings(env: NodeJS.ProcessEnv = process.env): PortalSettings {
  const cfg = loadConfig(portalConfigSpec, env);
  const dataDir = resolve(cfg.dataDir);
  return { ...cfg, dataDir, storageSqlitePath: resolve(dataDir, cfg.storageSqlitePath ?? 'portal.db') };
}
