// Who may call a route. Every route declares its minimum access in its definition
// (`config: { access: 'viewer' }`); a route under /api/v1 without one makes the server fail to build, so an
// unprotected route cannot ship by accident. Enforcement is one pluggable authorizer run before handlers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const ROLES = ['viewer', 'maintainer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * `public`: no authentication (health, /auth/*, webhooks). `authenticated`: any signed-in role (account
 * routes). A role: that role or above.
 */
export type Access = 'public' | 'authenticated' | Role;

export interface Principal {
  kind: 'user' | 'token' | 'service_account' | 'anonymous';
  /** User or service-account id; empty for anonymous. */
  id: string;
  username: string;
  role: Role;
  /** Set when authenticated by a token. */
  tokenId?: string;
  /** Set when authenticated by a session cookie (state-changing calls are origin-checked). */
  viaCookie?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

/** Decides a request. Throws an HttpError (401/403) to refuse; may set `request.principal`. */
export type Authorizer = (request: FastifyRequest, reply: FastifyReply, access: Access) => Promise<void>;

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
