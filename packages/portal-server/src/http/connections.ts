// `GET /api/connections/managed`: the managed datasources the caller's role may see, without secrets and
// without `objectRules`, plus `pendingSeeds`: the seed runs (src/seed/) queued or running on those
// datasources, so a client knows which are being filled. Also home of `SessionReader`, the seam through
// which these storage-side routes verify the session.

import { unauthorized } from '@app/kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { toPublicConnection } from '../datasources/public-view.js';
import type { ManagedDatasources } from '../datasources/registry.js';
import { errorResponses, ManagedConnections } from './response-schemas.js';

/** Verifies the request's session again (the guard is not the authorization boundary); undefined = none. */
export type SessionReader = (request: FastifyRequest) => Promise<Principal | undefined>;

/** The verified session or 401 in the portal error shape. */
export async function requireUser(sessions: SessionReader, request: FastifyRequest): Promise<Principal> {
  const user = await sessions(request);
  if (!user) throw unauthorized();
  return user;
}

/** A seed run in flight: queued or running (database-portal.md "seed run"). */
export interface PendingSeed {
  datasourceId: string;
  runId: string;
  status: string;
  /** `generate` or `copy`. */
  mode: string;
}

export interface ConnectionRoutesOptions {
  sessions: SessionReader;
  datasources: () => ManagedDatasources;
  /** The seed runs in flight; absent without server storage (no seed runs, so none pending). */
  pendingSeeds?: () => Promise<PendingSeed[]>;
}

export function registerConnectionRoutes(app: FastifyInstance, options: ConnectionRoutesOptions): void {
  const schema = {
    tags: ['connections'],
    description:
      'The managed datasources the caller may see (no secrets, no objectRules) and the seed copies in flight. 401 without a session.',
    response: { 200: ManagedConnections, ...errorResponses(401) },
  };
  app.get('/api/connections/managed', { schema }, async (request) => {
    const user = await requireUser(options.sessions, request);
    const entries = options.datasources().visibleTo(user.role);
    const connections = entries.map((entry) => toPublicConnection(entry, user));
    // Only runs on datasources the caller sees: the list must not reveal a hidden datasource's id.
    const visible = new Set(entries.map((entry) => entry.datasource.id));
    const pending = (await options.pendingSeeds?.()) ?? [];
    const pendingSeeds = pending.filter((p) => visible.has(p.datasourceId));
    return { connections, pendingSeeds };
  });
}
