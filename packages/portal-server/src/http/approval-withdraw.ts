// POST /api/approvals/{id}/withdraw: the requester takes back their own pending request (issue 30: a
// requester could not withdraw one). Only the requester may (403 otherwise, audited), only while it is
// pending (409 with the record once decided); the record becomes `withdrawn` with the requester as the one
// who closed it, and the event is audited as `approval_withdrawn`. A withdrawn request opens no window; the
// same text sent again asks anew. Kept beside the decision routes (approvals.ts) over the same repository.
import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuditSink } from '../execution/contracts.js';
import { publicApproval } from '../governance/approvals.js';
import type { ApprovalRepository } from '../storage/approvals.js';
import { requireUser, type SessionReader } from './connections.js';
import { Approval, errorResponses } from './response-schemas.js';

export interface ApprovalWithdrawOptions {
  sessions: SessionReader;
  /** The store's approvals; undefined without server storage (503). */
  repository: ApprovalRepository | undefined;
  audit: AuditSink;
  now?: () => Date;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function registerApprovalWithdrawRoute(app: FastifyInstance, options: ApprovalWithdrawOptions): void {
  app.post(
    '/api/approvals/:id/withdraw',
    {
      schema: {
        tags: ['approvals'],
        description:
          'The requester withdraws their own pending request: answers the record with status `withdrawn` (audited `approval_withdrawn`). ' +
          '403 for anyone but the requester, 404 unknown id, 409 already decided (the record in `approval`), 503 without server storage.',
        params: Type.Object({ id: Type.String({ description: 'approval request id' }) }),
        body: Type.Object({}, { additionalProperties: false, description: 'an empty object `{}`' }),
        response: { 200: Approval, ...errorResponses(401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      const user = await requireUser(options.sessions, request);
      const repo = options.repository;
      if (!repo) {
        throw new HttpError(
          503,
          'Approvals need server storage (STORAGE_PROVIDER sqlite or postgres)',
          'STORAGE_UNAVAILABLE',
        );
      }
      const { id } = request.params as { id: string };
      for (let attempt = 0; attempt < 3; attempt++) {
        const current = await repo.get(id);
        if (!current) throw new HttpError(404, 'Unknown approval request', 'NOT_FOUND');
        if (!same(current.requester, user.username)) {
          await options.audit.record({
            type: 'permission_denied',
            actor: user.username,
            connection: current.datasourceId,
            result: 'failure',
            approvalId: current.id,
            reason: 'only the requester can withdraw a request',
          });
          throw new HttpError(403, 'Only the requester can withdraw a request', 'FORBIDDEN');
        }
        if (current.status !== 'pending') {
          throw new HttpError(409, `The request is already ${current.status}`, 'CONFLICT', {
            approval: publicApproval(current),
          });
        }
        const updated = await repo.update(current.id, current.version, {
          status: 'withdrawn',
          reviewer: user.username,
          reviewedAt: (options.now?.() ?? new Date()).toISOString(),
        });
        if (!updated) continue; // decided at the same moment: read again
        await options.audit.record({
          type: 'approval_withdrawn',
          actor: user.username,
          connection: updated.datasourceId,
          result: 'success',
          approvalId: updated.id,
        });
        return publicApproval(updated);
      }
      throw new HttpError(409, 'The request is being decided by someone else; try again', 'CONFLICT');
    },
  );
}
