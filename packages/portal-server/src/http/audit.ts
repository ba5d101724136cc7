// `GET /api/admin/audit` (filters, paging, newest first, `source` store or buffer) and `POST /api/admin/audit`
// (a browser-reported event, actor taken from the session, appended to the in-process buffer only). Both
// answer exactly 403 `{"error":"Unauthorized. Admin access required."}` to a caller without a session and to
// a non-admin (spec, Errors 4), and 400 in the portal error shape to a malformed query or body.
import { badRequest } from '@app/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';
import { parseAuditQuery } from '../audit/query.js';
import type { SessionIdentity, SessionReader } from './connections.js';

export const ADMIN_REQUIRED = 'Unauthorized. Admin access required.';

export interface AuditRoutesOptions {
  sessions: SessionReader;
  audit: AuditLog;
}

const admins = new WeakMap<FastifyRequest, SessionIdentity>();

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

export function registerAuditRoutes(app: FastifyInstance, options: AuditRoutesOptions): void {
  const onRequest = adminOnly(options.sessions);

  app.get('/api/admin/audit', { onRequest }, async (request) => {
    const parsed = parseAuditQuery(request.query as Record<string, unknown>);
    if (!parsed.ok) throw badRequest(parsed.error);
    return options.audit.query(parsed.query, parsed.source);
  });

  app.post('/api/admin/audit', { onRequest, bodyLimit: 64 * 1024 }, async (request) => {
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
