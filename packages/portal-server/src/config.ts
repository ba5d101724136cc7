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
  // 64 hex characters; when unset the key is derived from JWT_SECRET (see src/storage/store.ts).
  storageEncryptionKey: { env: 'STORAGE_ENCRYPTION_KEY', kind: 'string', secret: true },
  // YAML file of managed datasources (src/datasources/), re-read when it changes.
  datasourcesFile: { env: 'PORTAL_DATASOURCES', kind: 'string' },
  approvalTtlHours: { env: 'APPROVAL_TTL_HOURS', kind: 'int', min: 1, max: 8760, default: 24 },
  // Bot API callbacks and chat approvals (src/bot/, src/chat/, docs/portal-bot.md).
  callbackSigningSecret: { env: 'CALLBACK_SIGNING_SECRET', kind: 'string', secret: true },
  // Comma-separated host names (optionally `host:port`, or `*.example.com`) callbacks may be sent to.
  callbackAllowedHosts: { env: 'CALLBACK_ALLOWED_HOSTS', kind: 'string' },
  chatBotToken: { env: 'CHAT_BOT_TOKEN', kind: 'string', secret: true },
  chatSigningSecret: { env: 'CHAT_SIGNING_SECRET', kind: 'string', secret: true },
  chatReviewChannel: { env: 'CHAT_REVIEW_CHANNEL', kind: 'string' },
  // Slack-Web-API-compatible base URL; unset means https://slack.com/api.
  chatApiUrl: { env: 'CHAT_API_URL', kind: 'url' },
  // Sign-in and sessions (src/auth/, src/bootstrap.ts, docs/portal-auth.md).
  jwtSecret: { env: 'JWT_SECRET', kind: 'string', secret: true },
  authBootstrap: { env: 'AUTH_BOOTSTRAP', kind: 'bool', default: true },
  adminEmail: { env: 'ADMIN_EMAIL', kind: 'string', default: 'admin@localhost' },
  adminPassword: { env: 'ADMIN_PASSWORD', kind: 'string', secret: true },
  adminTotpSecret: { env: 'ADMIN_TOTP_SECRET', kind: 'string', secret: true },
  userEmail: { env: 'USER_EMAIL', kind: 'string' },
  userPassword: { env: 'USER_PASSWORD', kind: 'string', secret: true },
  userTotpSecret: { env: 'USER_TOTP_SECRET', kind: 'string', secret: true },
  authCookieSecure: { env: 'AUTH_COOKIE_SECURE', kind: 'bool' },
  nodeEnv: { env: 'NODE_ENV', kind: 'string', default: 'development' },
  publicUrl: { env: 'PUBLIC_URL', kind: 'url' },
  authProvider: { env: 'PUBLIC_AUTH_PROVIDER', kind: 'enum', values: ['local', 'oidc'], default: 'local' },
  oidcIssuer: { env: 'OIDC_ISSUER', kind: 'url' },
  oidcClientId: { env: 'OIDC_CLIENT_ID', kind: 'string' },
  oidcClientSecret: { env: 'OIDC_CLIENT_SECRET', kind: 'string', secret: true },
  oidcScope: { env: 'OIDC_SCOPE', kind: 'string', default: 'openid profile email' },
  oidcRoleClaim: { env: 'OIDC_ROLE_CLAIM', kind: 'string' },
  oidcAdminRoles: { env: 'OIDC_ADMIN_ROLES', kind: 'string', default: 'admin' },
  // Plain-HTTP issuers are refused unless on loopback or explicitly allowed (e.g. a compose network).
  oidcAllowInsecureHttp: { env: 'OIDC_ALLOW_INSECURE_HTTP', kind: 'bool', default: false },
  // Model provider of the AI routes (src/ai/, docs/portal-ai.md); AI is off while AI_PROVIDER is unset.
  aiProvider: { env: 'AI_PROVIDER', kind: 'enum', values: ['openai', 'ollama', 'gemini', 'anthropic'] },
  aiBaseUrl: { env: 'AI_BASE_URL', kind: 'url' },
  aiModel: { env: 'AI_MODEL', kind: 'string' },
  aiApiKey: { env: 'AI_API_KEY', kind: 'string', secret: true },
  // HashiCorp Vault (KV v2) where account provisioning writes generated passwords (src/provisioning/).
  vaultAddr: { env: 'VAULT_ADDR', kind: 'url' },
  vaultToken: { env: 'VAULT_TOKEN', kind: 'string', secret: true },
  vaultKvMount: { env: 'VAULT_KV_MOUNT', kind: 'string', default: 'secret' },
  // The investigation agent carries earlier runs of a thread into the next (docs/portal-ai.md).
  agentThreadContext: { env: 'PORTAL_AGENT_THREAD_CONTEXT', kind: 'bool', default: true },
  // Rate limits, requests per minute per replica (docs/configuration.md); beyond one: 429 with Retry-After.
  rateLoginPerEmail: { env: 'PORTAL_RATE_LOGIN_PER_EMAIL', kind: 'int', min: 1, max: 1_000_000, default: 10 },
  rateLoginPerAddress: {
    env: 'PORTAL_RATE_LOGIN_PER_ADDRESS',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    default: 50,
  },
  rateDatabasePerUser: {
    env: 'PORTAL_RATE_DATABASE_PER_USER',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    default: 300,
  },
  rateDatabasePerToken: {
    env: 'PORTAL_RATE_DATABASE_PER_TOKEN',
    kind: 'int',
    min: 1,
    max: 1_000_000,
    default: 300,
  },
  rateAiPerUser: { env: 'PORTAL_RATE_AI_PER_USER', kind: 'int', min: 1, max: 1_000_000, default: 30 },
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
