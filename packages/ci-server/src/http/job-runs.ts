// Job-run routes: rerun as a new attempt in the same run (201), and approve or reject a gate (200) with an
// optional comment that is recorded with the decision.
import { Type } from 'typebox';
import { type Api, type ApiContext, deciderOf } from './context.js';
import { errors, IdParams, RunStatus, Uuid } from './schemas.js';

const DecisionBody = Type.Object(
  { comment: Type.Optional(Type.String({ maxLength: 10_000, description: 'recorded with the decision' })) },
  { additionalProperties: false },
);

const DecisionResult = Type.Object({
  job_run_id: Uuid,
  run_id: Uuid,
  status: Type.String({ description: "the job run's status after the decision" }),
  run_status: RunStatus,
});

export function registerJobRunRoutes(api: Api, ctx: ApiContext): void {
  api.post('/api/v1/job_runs/:id/rerun', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['runs'],
      summary: 'Re-queue a finished job run as a new attempt in the same run',
      description:
        'The earlier attempt and its logs stay readable. Jobs that were skipped because of it run again, and ' +
        'later stages start over. 409 while the job or a later stage is active, or when an earlier stage or ' +
        'one of its needs did not succeed.',
      params: IdParams,
      response: {
        201: Type.Object({ job_run_id: Uuid, run_id: Uuid, attempt: Type.Integer({ minimum: 2 }) }),
        ...errors(400, 404, 409),
      },
    },
    handler: async (request, reply) => {
      const result = await ctx.runs.rerunJob(request.params.id.toLowerCase());
      return reply.code(201).send(result);
    },
  });

  for (const decision of ['approve', 'reject'] as const) {
    api.post(`/api/v1/job_runs/:id/${decision}`, {
      config: { access: 'maintainer' },
      schema: {
        tags: ['runs'],
        summary: decision === 'approve' ? 'Approve a gate' : 'Reject a gate (the run fails)',
        description:
          decision === 'approve'
            ? 'Releases the gate once `approval.required` distinct people approved. The body is optional. ' +
              'A job that is not awaiting approval is 409, and so is a second approval by the same person and ' +
              'a job of a run that still waits for its fork approval (`POST /runs/{id}/approve` first). 403 ' +
              '`{error}` naming why when the gate lists `approval.approvers` / `approval.approver_groups` and ' +
              'the caller is none of them, or when the caller triggered the run and the gate does not set ' +
              '`approval.allow_self_approval: true`.'
            : 'The gate fails and the run winds down to `failed`. The body is optional. A job that is not ' +
              'awaiting approval is 409. 403 `{error}` when the gate lists its approvers and the caller is ' +
              'none of them (rejecting a gate of a run one triggered is allowed).',
        'x-body-optional': true,
        params: IdParams,
        body: DecisionBody,
        response: { 200: DecisionResult, ...errors(400, 403, 404, 409) },
      },
      handler: async (request) =>
        ctx.runs.decide(
          request.params.id.toLowerCase(),
          decision,
          await deciderOf(request, ctx.db),
          request.body.comment ?? null,
        ),
    });
  }
}
