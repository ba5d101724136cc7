// Who may call a route. Every route declares its minimum access in its definition
// (`config: { access: 'viewer' }`); a route under /api/v1 without one makes the server fail to build, so an
// unprotected route cannot ship by accident. Enforcement is one pluggable authorizer run before handlers.
import type { FastifyInstance } from 'fastify';
import type { Access, Authorizer } from '../auth/roles.js';

export {
  type Access,
  type Authorizer,
  type Principal,
  ROLES,
  type Role,
  roleAtLeast,
} from '../auth/roles.js';

/** Used until authentication is configured and when CI_AUTH_ENABLED=false: everything is open, as an admin. */
export const openAuthorizer: Authorizer = async (request) => {
  request.principal = { kind: 'anonymous', id: '', username: 'anonymous', role: 'admin' };
};

export class MissingAccessError extends Error {
  override name = 'MissingAccessError';
}

/** Requires a declared access on every route and runs `authorizer` before each handler. */
export function registerAccessControl(app: FastifyInstance, getAuthorizer: () => Authorizer): void {
  app.addHook('onRoute', (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (access === undefined && route.url.startsWith('/api/v1')) {
      throw new MissingAccessError(
        `route ${String(route.method)} ${route.url} declares no access (config.access)`,
      );
    }
  });
  // onRequest: refuse before the body is even read.
  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'public';
    if (access === 'public') return;
    await getAuthorizer()(request, reply, access);
  });
}
