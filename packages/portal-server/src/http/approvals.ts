// The approval routes of decisions.md (database-portal.md "Approvals (session)"): GET /api/approvals (what
// the caller reviews, or `?scope=mine`), GET /api/approvals/{id} (its requester or a reviewer; 404 for anyone
// else) and POST /api/approvals/{id}/decision. Session first (401), then server storage (503); the rules
// themselves are the ApprovalService's (src/governance/approvals.ts).
import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type ApprovalService, publicApproval, type Reviewer } from '../governance/approvals.js';
import { requireUser, type SessionReader } from './connections.js';
import { checkedByHandler } from './request-input.js';
import { Approval, ApprovalList, errorResponses } from './response-schemas.js';

export interface ApprovalRoutesOptions {
  sessions: SessionReader;
  approvals: ApprovalService;
}

const RECORD =
  'Approval record: {id, datasourceId, datasourceName, requester, statement, route, status (pending|approved|rejected|expired), ' +
  'requestedAt, reviewer?, reviewedAt?, windowUntil? (approved), guardrail?, approvals? [{reviewer, at}], approvedBy?, ticket?, note?}.';

const IdParam = Type.Object({ id: Type.String({ description: 'approval request id' }) });
const ListQuery = Type.Object({
  scope: Type.Optional(Type.Union([Type.Literal('mine'), Type.Literal('review'), Type.Literal('')])),
  limit: Type.Optional(Type.String({ description: '1..500, default 100' })),
  offset: Type.Optional(Type.String({ description: '≥ 0, default 0' })),
});
const Decision = Type.Object({
  decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
  windowMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 240, default: 15 })),
  note: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
});

function parseInteger(v: unknown, name: string, min: number, max: number, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new HttpError(400, `${name} must be an integer from ${min} to ${max}`, 'BAD_REQUEST');
  return n;
}

export function registerApprovalRoutes(app: FastifyInstance, options: ApprovalRoutesOptions): void {
  const { approvals } = options;
  const caller = async (request: Parameters<SessionReader>[0]): Promise<Reviewer> => {
    const user = await requireUser(options.sessions, request);
    if (!approvals.available) {
      throw new HttpError(
        503,
        'Approvals need server storage (STORAGE_PROVIDER sqlite or postgres)',
        'STORAGE_UNAVAILABLE',
      );
    }
    return { username: user.username, role: user.role };
  };

  app.get(
    '/api/approvals',
    {
      schema: {
        tags: ['approvals'],
        description:
          'Requests the caller may review (datasource `approverRoles`, or administrators): pending first (oldest first), then decisions ' +
          '(newest first). `?scope=mine` lists the caller’s own requests. Query `limit` (1..500, default 100), `offset`. ' +
          `Answers \`{approvals: [...]}\`. 401 without a session, 503 without server storage. ${RECORD}`,
        querystring: ListQuery,
        response: { 200: ApprovalList, ...errorResponses(400, 401, 503) },
      },
      // The handler reads the raw query values (an integer check with its own words; no coercion).
      ...checkedByHandler,
    },
    async (request) => {
      const who = await caller(request);
      const q = (request.query ?? {}) as Record<string, unknown>;
      if (q.scope !== undefined && q.scope !== 'mine' && q.scope !== 'review' && q.scope !== '')
        throw new HttpError(400, 'scope must be "mine" (or absent)', 'BAD_REQUEST');
      const limit = parseInteger(q.limit, 'limit', 1, 500, 100);
      const offset = parseInteger(q.offset, 'offset', 0, 1_000_000, 0);
      const list = await approvals.list(who, {
        scope: q.scope === 'mine' ? 'mine' : 'review',
        limit,
        offset,
      });
      return { approvals: list.map(publicApproval) };
    },
  );

  app.get(
    '/api/approvals/:id',
    {
      schema: {
        tags: ['approvals'],
        description: `One request, for its requester or a reviewer of its datasource; 404 for anyone else and for an unknown id. Answers the record. ${RECORD}`,
        params: IdParam,
        response: { 200: Approval, ...errorResponses(401, 404, 503) },
      },
    },
    async (request) => {
      const who = await caller(request);
      const { id } = request.params as { id: string };
      const a = await approvals.get(id);
      if (!a || !approvals.canRead(who, a)) throw notFound('Unknown approval request');
      return publicApproval(a);
    },
  );

  app.post(
    '/api/approvals/:id/decision',
    {
      schema: {
        tags: ['approvals'],
        description:
          'Decides a pending request: `{decision: "approve" | "reject", windowMinutes?: 1..240 (default 15), note?: string (≤ 2000)}`. ' +
          'With `approvalsRequired: 2` the first approval keeps it pending (reviewer added to `approvals`); the second, by another reviewer, ' +
          'approves it. An approval sets `windowUntil`: until then the requester may run exactly the approved text. Answers the record. ' +
          '400 malformed body; 403 not a reviewer (audited `permission_denied`) or the reviewer is the requester; 404 unknown id; ' +
          `409 already decided or already approved by this reviewer; 503 without server storage. ${RECORD}`,
        params: IdParam,
        body: Decision,
        response: { 200: Approval, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
      // The handler checks the body in the spec's words, after the session and storage checks (401/503 first).
      ...checkedByHandler,
    },
    async (request) => {
      const who = await caller(request);
      const { id } = request.params as { id: string };
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.decision !== 'approve' && body.decision !== 'reject')
        throw new HttpError(400, 'decision must be "approve" or "reject"', 'BAD_REQUEST');
      if (
        body.windowMinutes !== undefined &&
        (typeof body.windowMinutes !== 'number' || !Number.isInteger(body.windowMinutes))
      )
        throw new HttpError(400, 'windowMinutes must be an integer from 1 to 240', 'BAD_REQUEST');
      if (body.note !== undefined && body.note !== null && typeof body.note !== 'string')
        throw new HttpError(400, 'note must be a string', 'BAD_REQUEST');
      const decided = await approvals.decide({
        id,
        reviewer: who,
        decision: body.decision,
        ...(typeof body.windowMinutes === 'number' ? { windowMinutes: body.windowMinutes } : {}),
        ...(typeof body.note === 'string' ? { note: body.note } : {}),
      });
      return publicApproval(decided);
    },
  );
}
