// Run routes: the filtered, paged list, the detail with the last N log lines per job, cancel and rerun.
import { Type } from 'typebox';
import { getRunDetail, listRunSummaries } from '../services/run-views.js';
import { type Api, type ApiContext, actorOf } from './context.js';
import { errors, IdParams, RunDetail, RunStatus, RunSummary, Slug, Uuid } from './schemas.js';

/** Largest `logs` value: a detail page stays bounded however long the logs are (the stream has the rest). */
export const LOG_LINES_MAX = 10_000;
const OFFSET_MAX = 2_147_483_647;

const ListQuery = Type.Object(
  {
    status: Type.Optional(RunStatus),
    project: Type.Optional(Slug),
    pipeline: Type.Optional(Uuid),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
    offset: Type.Integer({ minimum: 0, maximum: OFFSET_MAX, default: 0 }),
    cursor: Type.Optional({
      ...Uuid,
      description:
        'keyset paging: the id of the last run of the previous page (same filters); the page continues after ' +
        'it as cheaply at any depth. Not with `offset`.',
    }),
  },
  { additionalProperties: false },
);

const DetailQuery = Type.Object(
  {
    logs: Type.Integer({
      minimum: 0,
      maximum: LOG_LINES_MAX,
      default: 200,
      description: 'the last N log lines of each job run; 0 leaves logs out',
    }),
  },
  { additionalProperties: false },
);

export function registerRunRoutes(api: Api, ctx: ApiContext): void {
  api.get('/api/v1/runs', {
    config: { access: 'viewer' },
    schema: {
      tags: ['runs'],
      summary: 'List runs, newest first',
      description:
        '`project` takes a slug, `pipeline` a pipeline UUID; a filter that names nothing matches no run. ' +
        'Page with `offset`, or for deep paging pass the last run id of a page as `cursor` (keyset: run ' +
        '90,000 costs what run 50 does); `offset` stays 0 then. ' +
        'Any other query parameter, or a value out of range, is 400.',
      querystring: ListQuery,
      response: {
        200: Type.Object({
          runs: Type.Array(RunSummary),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
        ...errors(400),
      },
    },
    handler: async (request) => {
      const q = request.query;
      return listRunSummaries(ctx.db, ctx.names, {
        ...q,
        pipeline: q.pipeline?.toLowerCase(),
        cursor: q.cursor?.toLowerCase(),
      });
    },
  });

  api.get('/api/v1/runs/:id', {
    config: { access: 'viewer' },
    schema: {
      tags: ['runs'],
      summary: 'A run with its stages, job runs (every attempt) and their last log lines',
      params: IdParams,
      querystring: DetailQuery,
      response: { 200: RunDetail, ...errors(400, 404) },
    },
    handler: async (request) =>
      getRunDetail(ctx.db, request.params.id.toLowerCase(), request.query.logs, ctx.archives),
  });

  api.post('/api/v1/runs/:id/cancel', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['runs'],
      summary: 'Cancel a run that has not finished',
      description:
        'Jobs not yet started are canceled at once; running jobs are asked to stop and the run becomes ' +
        "`canceled` when their agents report. `status` is the run's status after the request. A finished run " +
        'is 409.',
      params: IdParams,
      response: {
        202: Type.Object({ run_id: Uuid, status: RunStatus }),
        ...errors(400, 404, 409),
      },
    },
    handler: async (request, reply) => {
      const result = await ctx.runs.cancel(request.params.id.toLowerCase());
      return reply.code(202).send(result);
    },
  });

  api.post('/api/v1/runs/:id/approve', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['runs'],
      summary: "Approve a run of a fork's pull request that waits for a maintainer",
      description:
        "A run built from a fork's pull request waits (`queued`, its first jobs `awaiting_approval`, " +
        "RunDetail's `fork.reason` says why) until a maintainer approves it, unless the project's fork " +
        'policy trusts the author or runs forks at once. Approving queues its jobs for agents; their secrets ' +
        "stay withheld unless the project's fork policy had `allow_secrets: true` when the run was created. " +
        'Who approved (and the comment) is kept on the run and in the audit log (`run.approve`). The body is ' +
        'optional. 409 for a run that is not waiting for approval or already finished.',
      'x-body-optional': true,
      params: IdParams,
      body: Type.Object(
        {
          comment: Type.Optional(Type.String({ maxLength: 10_000, description: 'kept with the approval' })),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          run_id: Uuid,
          status: RunStatus,
          approved_by: Type.String(),
          secrets_withheld: Type.Boolean({ description: 'whether its jobs run without secrets' }),
        }),
        ...errors(400, 404, 409),
      },
    },
    handler: async (request) => {
      const id = request.params.id.toLowerCase();
      request.auditNote = { action: 'run.approve', target: `run:${id}` };
      const result = await ctx.runs.approveRun(id, actorOf(request), request.body?.comment ?? null);
      request.auditNote.details = { secrets_withheld: result.secrets_withheld };
      return result;
    },
  });

  api.post('/api/v1/runs/:id/rerun', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['runs'],
      summary: 'Start a new run with the same pipeline version, revision and parameters',
      description:
        'The new run has cause `rerun` and the next counter of the pipeline. Any run may be rerun, finished ' +
        'or not; a run of an archived pipeline is 409.',
      params: IdParams,
      response: { 201: Type.Object({ run_id: Uuid }), ...errors(400, 404, 409) },
    },
    handler: async (request, reply) => {
      const { run_id } = await ctx.runs.rerun(request.params.id.toLowerCase(), actorOf(request));
      return reply.code(201).send({ run_id });
    },
  });
}
