// The CI control plane's settings (spec/RUNTIME.md): environment variables, optionally also read from the
// YAML file named by CI_CONFIG, with the environment winning.
import { resolve } from 'node:path';
import { type ConfigOf, loadConfig, readYamlConfig } from '@app/kit';

export const ciConfigSpec = {
  host: { env: 'CI_HOST', kind: 'string', default: '127.0.0.1', yaml: 'host' },
  httpPort: { env: 'CI_HTTP_PORT', kind: 'port', default: 8153, yaml: 'http_port' },
  grpcPort: { env: 'CI_GRPC_PORT', kind: 'port', default: 8154, yaml: 'grpc_port' },
  dataDir: { env: 'CI_DATA_DIR', kind: 'string', default: './.data/ci', yaml: 'data_dir' },
  databaseUrl: { env: 'CI_DATABASE_URL', kind: 'string', yaml: 'database_url', secret: true },
  publicUrl: { env: 'CI_PUBLIC_URL', kind: 'url', yaml: 'public_url' },
  authEnabled: { env: 'CI_AUTH_ENABLED', kind: 'bool', default: true, yaml: 'auth.enabled' },
  localAccounts: { env: 'CI_LOCAL_ACCOUNTS', kind: 'bool', default: true, yaml: 'auth.local_accounts' },
  adminUsername: { env: 'CI_ADMIN_USERNAME', kind: 'string', default: 'admin', yaml: 'auth.admin_username' },
  adminPassword: { env: 'CI_ADMIN_PASSWORD', kind: 'string', yaml: 'auth.admin_password', secret: true },
  agentToken: { env: 'CI_AGENT_TOKEN', kind: 'string', yaml: 'agent_token', secret: true },
  secretKey: { env: 'CI_SECRET_KEY', kind: 'string', yaml: 'secret_key', secret: true },
  /** TLS on the agent port (docs/ci-agents.md): on unless turned off explicitly. */
  grpcTls: { env: 'CI_GRPC_TLS', kind: 'bool', default: true, yaml: 'grpc_tls.enabled' },
  /** PEM certificate (chain) and key the agent port serves; a self-signed pair is generated when unset. */
  grpcTlsCert: { env: 'CI_GRPC_TLS_CERT', kind: 'string', yaml: 'grpc_tls.cert' },
  grpcTlsKey: { env: 'CI_GRPC_TLS_KEY', kind: 'string', yaml: 'grpc_tls.key' },
  /** Webhook secret of every SCM host without its own `webhooks.<host>.secret` (docs/ci-triggers.md). */
  webhookSecret: { env: 'CI_WEBHOOK_SECRET', kind: 'string', yaml: 'webhooks.secret', secret: true },
  /**
   * Group commit of a tick's job reports and claims coalesced per tick (dispatch/report-batches.ts); on
   * unless turned off (the dispatch benchmark's baseline turns it off).
   */
  dispatchBatching: { env: 'CI_DISPATCH_BATCHING', kind: 'bool', default: true, yaml: 'dispatch.batching' },
  logLevel: {
    env: 'LOG_LEVEL',
    kind: 'enum',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    yaml: 'log_level',
  },
} as const;

export type CiSettings = ConfigOf<typeof ciConfigSpec> & {
  /** Resolved absolute data directory. */
  dataDir: string;
  databaseUrl: string;
  publicUrl: string;
  /** The whole CI_CONFIG document, for structured settings (OIDC providers, webhook secrets, …). */
  file: Record<string, unknown>;
};

export function loadCiSettings(env: NodeJS.ProcessEnv = process.env): CiSettings {
  const file = env.CI_CONFIG ? readYamlConfig(env.CI_CONFIG, 'CI_CONFIG') : {};
  const cfg = loadConfig(ciConfigSpec, env, file);
  const dataDir = resolve(cfg.dataDir);
  return {
    ...cfg,
    dataDir,
    databaseUrl: cfg.databaseUrl ?? `sqlite:${resolve(dataDir, 'ci.db')}`,
    publicUrl: (cfg.publicUrl ?? `http://localhost:${cfg.httpPort}`).replace(/\/+$/, ''),
    file,
  };
}
