// Roles and principals: who a request acts as and what it may do. The vocabulary of authentication, used by
// the authorizer, the OIDC role mapping and every route's declared access (http/access.ts enforces it).
import type { FastifyReply, FastifyRequest } from 'fastify';

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
