// `GET /api/admin/audit` (filters, paging, newest first, `source` store or buffer) and `POST /api/admin/audit`
// (a browser-reported event, actor taken from the session, appended to the in-process buffer only). Both
// answer exactly 403 `{"error":"Unauthorized. Admin access required."}` to a caller without a session and to
// a non-admin (spec, Errors 4), and 400 in the portal error shape to a malformed query or body.

import { badRequest } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuditLog } from '../audit/audit-log.js';
import { parseAuditQuery } from '../audit/query.js';
import type { Principal } from '../auth/principal.js';
import type { SessionReader } from './connections.js';
import { checkedByHandler } from './request-input.js';
import { AuditPage, AuditWritten, errorResponses } from './response-schemas.js';

export const ADMIN_REQUIRED = 'Unauthorized. Admin access required.';

export interface AuditRoutesOptions {
  sessions: SessionReader;
  audit: AuditLog;
}

const admins = new WeakMap<FastifyRequest, Principal>();

/**
 * Route-level onRequest check, so the 403 comes before body parsing: a caller without a session gets the
 * exact 403 even when its body is not JSON.
 */
function adminOnly(sessions: SessionReader) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await sessions(request);
    if (user?.role === 'admin') {
      admins.set(request, user);
      return;
    }
    return reply.code(403).send({ error: ADMIN_REQUIRED });
  };
}

const Text = (description: string) => Type.Optional(Type.String({ description }));
/** The filters `parseAuditQuery` reads (it checks them; an empty value counts as absent, a repeated one is 400). */
const AuditFilters = Type.Object({
  type: Text('event type, at most 200 characters'),
  actor: Text('at most 200 characters'),
  connection: Text('datasource id, at most 200 characters'),
  result: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')])),
  from: Text('ISO-8601 instant with a zone, inclusive'),
  to: Text('ISO-8601 instant with a zone, inclusive'),
  limit: Text('1..500, default 100'),
  offset: Text('≥ 0, default 0'),
  source: Type.Optional(Type.Union([Type.Literal('store'), Type.Literal('buffer')])),
});
const ClientEvent = Type.Object(
  {
    type: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$' }),
    result: Type.Optional(Type.Union([Type.Literal('success'), Type.Literal('failure')])),
    connection: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  {
    additionalProperties: true,
    description: 'Any further fields are kept; actor, time and id are the server’s',
  },
);
const ADMIN_403 =
  'exactly 403 `{"error":"Unauthorized. Admin access required."}` without a session or for a non-administrator';

export function registerAuditRoutes(app: FastifyInstance, options: AuditRoutesOptions): void {
  const onRequest = adminOnly(options.sessions);

  const listSchema = {
    tags: ['audit'],
    description: `The audit log, newest first, filtered and paged; \`source\` says whether the store or the in-process buffer answered. 400 a malformed filter; ${ADMIN_403}.`,
    querystring: AuditFilters,
    response: { 200: AuditPage, ...errorResponses(400, 403) },
  };
  app.get('/api/admin/audit', { onRequest, schema: listSchema, ...checkedByHandler }, async (request) => {
    const parsed = parseAuditQuery(request.query as Record<string, unknown>);
    if (!parsed.ok) throw badRequest(parsed.error);
    return options.audit.query(parsed.query, parsed.source);
  });

  const appendSchema = {
    tags: ['audit'],
    description: `A browser-reported event, appended to the in-process buffer with the session's user as actor. 400 a malformed body; ${ADMIN_403}.`,
    body: ClientEvent,
    response: { 200: AuditWritten, ...errorResponses(400, 403) },
  };
  const appendOptions = { onRequest, bodyLimit: 64 * 1024, schema: appendSchema, ...checkedByHandler };
  app.post('/api/admin/audit', appendOptions, async (request) => {
    const user = admins.get(request)!;
    const body = request.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw badRequest('The body must be a JSON object describing the event');
    }
    const input = body as Record<string, unknown>;
    if (typeof input.type !== 'string' || !/^[A-Za-z0-9_.:-]{1,100}$/.test(input.type)) {
      throw badRequest('type is required: 1 to 100 letters, digits, _ . : or -');
    }
    if (input.result !== undefined && input.result !== 'success' && input.result !== 'failure') {
      throw badRequest('result must be success or failure');
    }
    if (input.connection !== undefined && input.connection !== null && typeof input.connection !== 'string') {
      throw badRequest('connection must be a string');
    }
    // Whoever the body names, the actor is the session's user; the server's clock dates the event.
    const { actor: _actor, user: _user, at: _at, id: _id, audit: _audit, ...rest } = input;
    const event = options.audit.append({
      ...rest,
      type: input.type,
      actor: user.username,
      user: { username: user.username, role: user.role },
      origin: 'client',
    });
    return { success: true, event };
  });
}
