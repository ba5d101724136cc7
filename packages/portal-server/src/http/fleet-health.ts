// `POST /api/admin/fleet-health` (admin): tests many connections at once with the same path as
// `/api/db/test-connection` (a fresh connection, not the cached pool, within the connectivity deadline), at
// most FLEET_CONCURRENCY at a time, answering one result per connection in request order. Spec Errors 4: no
// session is exactly 401 `{"error":"Authentication required"}` (the guard leaves this route open so the answer
// is ours), a non-admin 403 in the portal shape.

import { HttpError } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Principal } from '../auth/principal.js';
import type { QueryDeps } from '../execution/contracts.js';
import { resolveTarget } from '../execution/target.js';
import { toHttpError } from '../providers/errors.js';
import { connectionSchema } from './connection-schema.js';
import { readSession, requireAdmin } from './guard.js';
import { checkedByHandler } from './request-input.js';
import { errorResponses, FleetHealth } from './response-schemas.js';

/** Connections tested at the same time. */
export const FLEET_CONCURRENCY = 4;
/** Most connections in one request (each may take the full connectivity deadline). */
export const FLEET_MAX_CONNECTIONS = 100;
/** Longest error text in a result. */
const ERROR_CHARS = 500;

export interface FleetResult {
  connectionId: string | null;
  status: 'ok' | 'error';
  latencyMs: number;
  engine?: string;
  serverVersion?: string;
  error?: string;
  code?: string;
  /** Privileges of the datasource's account beyond what the portal needs (superuser, FILE, SUPER, …). */
  privileges?: string[];
  /** Set with `privileges`: what to do about them. */
  warning?: string;
}

/** Where a least-privilege account comes from. */
export const PROVISIONING_HINT =
  'create a least-privilege account with account provisioning (Admin → Accounts; docs/portal-seed-and-accounts.md)';

/** The warning for an account holding `privileges`. */
export function privilegeWarning(privileges: readonly string[]): string {
  return `The datasource account holds ${privileges.join(', ')}: every signed-in user reaches the server through it; ${PROVISIONING_HINT}`;
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function idOf(item: unknown): string | null {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object') {
    const o = item as { id?: unknown; connectionId?: unknown };
    if (typeof o.id === 'string') return o.id;
    if (typeof o.connectionId === 'string') return o.connectionId;
  }
  return null;
}

async function testOne(deps: QueryDeps, session: Principal, item: unknown): Promise<FleetResult> {
  const connectionId = idOf(item);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // A string (or `{connectionId}`) names a managed or saved connection; an object is a descriptor.
    const body =
      typeof item === 'string'
        ? { connectionId: item }
        : item && typeof item === 'object' && !('type' in item) && connectionId
          ? { connectionId }
          : { connection: item };
    const target = await resolveTarget(deps, session, body);
    const { profile, privileges } = await deps.providers.probe(target.descriptor, async (p) => ({
      profile: await p.catalog.profile(),
      // A check the account may not run leaves it unjudged rather than failing the health check.
      privileges: (await p.accountPrivileges?.().catch(() => [])) ?? [],
    }));
    return {
      connectionId,
      status: 'ok',
      latencyMs: elapsed(),
      engine: profile.engine,
      ...(profile.serverVersion ? { serverVersion: profile.serverVersion } : {}),
      ...(privileges.length > 0 ? { privileges, warning: privilegeWarning(privileges) } : {}),
    };
  } catch (err) {
    const e = toHttpError(err);
    return {
      connectionId,
      status: 'error',
      latencyMs: elapsed(),
      error: e.message.slice(0, ERROR_CHARS),
      ...(e.code ? { code: e.code } : {}),
    };
  }
}

/** The exact spec body for a caller without a session, before the body is parsed. */
async function sessionFirst(request: FastifyRequest, reply: FastifyReply) {
  if (await readSession(request)) return;
  return reply.code(401).send({ error: 'Authentication required' });
}

export function registerFleetHealthRoute(app: FastifyInstance, deps: QueryDeps): void {
  app.post(
    '/api/admin/fleet-health',
    {
      onRequest: sessionFirst,
      schema: {
        tags: ['admin'],
        description:
          `Tests each connection of \`{connections: [descriptor | connectionId, …]}\` (at most ${FLEET_MAX_CONNECTIONS}) like /api/db/test-connection, ` +
          `${FLEET_CONCURRENCY} at a time: \`{results: [{connectionId, status: ok|error, latencyMs, engine?, serverVersion?, error?, code?, privileges?, warning?}]}\` in request order; ` +
          '`privileges` names what the datasource account holds beyond a data account (superuser, FILE, SUPER, admin commands) and `warning` points to account provisioning. ' +
          '400 when `connections` is missing or not an array; 401 `{"error":"Authentication required"}` without a session; 403 for a non-admin.',
        body: Type.Object({
          connections: Type.Array(
            Type.Union([Type.String({ description: 'a managed datasource id' }), connectionSchema]),
            { maxItems: FLEET_MAX_CONNECTIONS },
          ),
        }),
        response: { 200: FleetHealth, ...errorResponses(400, 401, 403) },
      },
      // The handler checks the body after the administrator check (401/403 first), in its own words.
      ...checkedByHandler,
    },
    async (request) => {
      const session = await requireAdmin(request);
      const body = request.body as { connections?: unknown } | null | undefined;
      const connections = body && typeof body === 'object' ? body.connections : undefined;
      if (!Array.isArray(connections)) {
        throw new HttpError(
          400,
          'connections is required: an array of connection descriptors',
          'BAD_REQUEST',
        );
      }
      if (connections.length > FLEET_MAX_CONNECTIONS) {
        throw new HttpError(
          400,
          `connections has ${connections.length} entries; at most ${FLEET_MAX_CONNECTIONS} are tested at once`,
          'BAD_REQUEST',
        );
      }
      const results = await mapBounded(connections, FLEET_CONCURRENCY, (item) =>
        testOne(deps, session, item),
      );
      return { results };
    },
  );
}
