// The one place that registers the control plane's route modules, in their order: the authentication
// surface, the core API (projects … runs, execution data, agents, operator routes: http/api.ts), the trigger
// routes (webhooks, trigger settings, VSM, admin views: http/triggers.ts), and last the web UI with its page
// fallback for unknown non-API paths. Health (/healthz, /readyz) and the OpenAPI collector are registered by
// server.ts before `installAuth`, so probes stay outside the audit hooks every route below inherits.
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import { type ApiDeps, registerApi } from './api.js';
import { registerAuthSurface } from './auth-surface.js';
import { registerTriggerApi } from './triggers.js';
import { registerWeb } from './web.js';

export interface RouteDeps {
  auth: AuthContext;
  api: ApiDeps;
  triggers: Parameters<typeof registerTriggerApi>[1];
}

export async function registerRoutes(app: FastifyInstance, deps: RouteDeps): Promise<void> {
  await registerAuthSurface(app, deps.auth);
  await registerApi(app, deps.api);
  await registerTriggerApi(app, deps.triggers);
  await registerWeb(app);
}
