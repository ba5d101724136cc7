// Everything the auth routes and hooks share, built once per server by `installAuth`.
import type { SecretBox } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import type { CiSettings } from '../config.js';
import type { StoreDb } from '../store/database.js';
import type { AuditRecorder } from './audit.js';
import type { CookieFlags } from './cookies.js';
import type { FlowDeps } from './oidc/flow.js';
import type { ProviderRegistry } from './oidc/registry.js';
import type { LoginLimiter } from './rate-limit.js';
import type { Principal } from './roles.js';
import type { SessionStore } from './sessions.js';

export interface AuthContext {
  db: StoreDb;
  settings: CiSettings;
  sessions: SessionStore;
  limiter: LoginLimiter;
  registry: ProviderRegistry;
  /** The server's secret box (CI_SECRET_KEY): global secrets and provider client secrets. */
  secretBox: SecretBox;
  flow: FlowDeps;
  audit: AuditRecorder;
  /** Origin of CI_PUBLIC_URL. */
  publicOrigin: string;
  cookieFlags: CookieFlags;
  /** Resolves once the store is migrated and the bootstrap administrator exists; 503 otherwise. */
  ready(): Promise<void>;
  identify(request: FastifyRequest): Promise<Principal | undefined>;
}
