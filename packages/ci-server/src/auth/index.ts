// Wires authentication into the control plane: the context the auth routes share (http/auth-surface.ts
// registers them), the audit recorder, the OIDC provider registry, the bootstrap administrator and the real
// authorizer (installed by server.ts unless CI_AUTH_ENABLED=false).
import { createSecretBox, type Database, deriveKey, HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { CiSettings } from '../config.js';
import type { StoreSchema } from '../store/database.js';
import { KnownSecrets } from '../store/known-secrets.js';
import { AuditRecorder } from './audit.js';
import { createAuthorizer, identify } from './authorizer.js';
import { ensureBootstrapAdmin } from './bootstrap-admin.js';
import type { AuthContext } from './context.js';
import { ProviderRegistry, providersFromConfig } from './oidc/registry.js';
import { DEFAULT_LOGIN_LIMITS, type LimiterOptions, LoginLimiter } from './rate-limit.js';
import type { Authorizer } from './roles.js';
import { SessionStore } from './sessions.js';

export { recordRouteTable, routeTable } from './route-table.js';

export interface InstallAuthOptions {
  app: FastifyInstance;
  database: Database<StoreSchema>;
  settings: CiSettings;
  /** CI_SECRET_KEY (64 hex characters). */
  secretKey: string;
  /** Applies pending migrations (throws while the store is unreachable). */
  ensureMigrated: () => Promise<void>;
  /** Lines main.ts prints at start; the generated administrator password goes here. */
  announcements: string[];
  /** False when the store was unreachable at start: bootstrap then waits for the first request. */
  storeReady: boolean;
  loginLimits?: LimiterOptions;
}

export interface AuthInstallation {
  authorizer: Authorizer;
  context: AuthContext;
}

export async function installAuth(options: InstallAuthOptions): Promise<AuthInstallation> {
  const { app, settings } = options;
  const db = options.database.db;
  const secretBox = createSecretBox(options.secretKey);
  const registry = new ProviderRegistry(db, secretBox, providersFromConfig(settings.file));
  const sessions = new SessionStore(db);
  const publicUrl = settings.publicUrl;
  const audit = new AuditRecorder(db, app.log, new KnownSecrets(db, secretBox));

  let readiness: Promise<void> | undefined;
  let announce = (line: string): void => void options.announcements.push(line);
  const ready = (): Promise<void> => {
    readiness ??= (async () => {
      await options.ensureMigrated();
      const line = await ensureBootstrapAdmin(db, settings);
      if (line) announce(line);
    })().catch((err: Error) => {
      readiness = undefined;
      app.log.error({ err }, 'authentication store is not ready');
      throw new HttpError(503, `The store is not available: ${err.message}`);
    });
    return readiness;
  };

  const context: AuthContext = {
    db,
    settings,
    sessions,
    limiter: new LoginLimiter(options.loginLimits ?? DEFAULT_LOGIN_LIMITS),
    registry,
    secretBox,
    flow: {
      db,
      registry,
      cookieBox: createSecretBox(deriveKey(options.secretKey, 'ci-oidc-login-cookie')),
      publicUrl,
    },
    audit,
    publicOrigin: new URL(publicUrl).origin,
    cookieFlags: { secure: publicUrl.startsWith('https:') },
    ready,
    identify: (request) => identify({ db, sessions }, request),
  };

  // Before any route: the audit hooks must be inherited by every plugin registered after this.
  audit.install(app);

  // At start the generated password joins the start-up announcements; if the store only comes up later, it
  // is logged when it is created.
  if (options.storeReady) await ready().catch(() => {});
  announce = (line) => app.log.warn(line);

  const authorizer = createAuthorizer({ db, sessions, publicOrigin: context.publicOrigin, ready });
  return { authorizer, context };
}
