// Seed-data routes (admin; database-portal.md "Admin"): POST /api/admin/seed-data/plan previews the fill
// order, POST /api/admin/seed-data/run queues a run (202), GET /api/admin/seed-data/{id} follows it.
// The work lives in src/seed/ (docs/portal-seed-and-accounts.md).
import { HttpError, notFound } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { toHttpError } from '../providers/errors.js';
import { parsePlanBody, parseRunBody } from '../seed/request.js';
import type { SeedService } from '../seed/service.js';
import type { SeedRun } from '../seed/types.js';
import { requireAdmin } from './guard.js';
import { errorResponses } from './response-schemas.js';

export interface SeedDataRouteDeps {
  /** Undefined without server storage: the routes answer 503. */
  seed: SeedService | undefined;
}

// Closed objects: the route answers exactly these fields (seed/types.ts), and the generated UI types with them.
const str = Type.String();
const tableShape = Type.Object({
  name: str,
  target: Type.Integer({ description: 'rows the run meant to insert' }),
  inserted: Type.Integer(),
  status: Type.Union(['pending', 'running', 'done', 'failed', 'lost'].map((v) => Type.Literal(v))),
  error: Type.Optional(str),
});

const runShape = Type.Object({
  id: str,
  status: Type.Union(['queued', 'running', 'done', 'failed'].map((v) => Type.Literal(v))),
  mode: Type.Union([Type.Literal('generate'), Type.Literal('copy')]),
  datasourceId: str,
  schema: str,
  sourceName: Type.Optional(str),
  tables: Type.Array(tableShape),
  error: Type.Optional(str),
  createdAt: str,
  updatedAt: str,
  finishedAt: Type.Optional(str),
});
const runAnswer = Type.Object({ run: runShape });

const planShape = Type.Object({
  schema: str,
  tables: Type.Array(
    Type.Object({
      name: str,
      columns: Type.Array(Type.Object({ name: str, type: str, nullable: Type.Boolean() })),
      dependsOn: Type.Array(str, { description: 'tables filled first' }),
      rows: Type.Integer(),
      deferredKeys: Type.Optional(
        Type.Array(str, {
          description: 'foreign keys filled by an update once their parent is (cycle breaks)',
        }),
      ),
    }),
  ),
  notes: Type.Array(str),
});

function publicRun(run: SeedRun) {
  const { jobId: _job, actor: _actor, sourceId: _source, ...rest } = run;
  return rest;
}

export function registerSeedDataRoutes(app: FastifyInstance, deps: SeedDataRouteDeps): void {
  const service = () => {
    if (!deps.seed) {
      throw new HttpError(
        503,
        'Seed data needs server storage (STORAGE_PROVIDER sqlite or postgres)',
        'STORAGE_UNAVAILABLE',
      );
    }
    return deps.seed;
  };
  const common =
    '403 for a non-admin, another engine family, a production or read-only datasource; 404 unknown datasource; 503 unavailable or no server storage.';

  app.post(
    '/api/admin/seed-data/plan',
    {
      schema: {
        tags: ['admin'],
        summary: 'Preview a seed plan',
        description: `Administrators only. Body \`{datasourceId, schema?, counts?, ratios?}\`. Answers \`{schema, tables:[{name, columns, dependsOn, rows, deferredKeys?}], notes}\` in fill order; notes say how cycles were broken. 400 malformed or unknown table names. ${common}`,
        body: { type: 'object', additionalProperties: true },
        response: { 200: planShape, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const body = parsePlanBody(request.body);
      return service()
        .plan(body)
        .catch((err) => {
          throw toHttpError(err);
        });
    },
  );

  app.post(
    '/api/admin/seed-data/run',
    {
      schema: {
        tags: ['admin'],
        summary: 'Queue a seed run',
        description: `Administrators only. Body \`{datasourceId, schema?, counts?, ratios?, mode? (generate|copy), sourceDatasourceId?, truncate?}\`. Answers 202 \`{run}\` queued; the studio's job runner or a worker runs it. 409 while a run is queued or running on the datasource. Copy mode: 400 without sourceDatasourceId, 403 a source of another engine, 404 unknown source. ${common} Audited \`data_seed\`.`,
        body: { type: 'object', additionalProperties: true },
        response: {
          202: runAnswer,
          ...errorResponses(400, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const body = parseRunBody(request.body);
      const run = await service()
        .queue(body, admin.username)
        .catch((err) => {
          throw toHttpError(err);
        });
      return reply.code(202).send({ run: publicRun(run) });
    },
  );

  app.get(
    '/api/admin/seed-data/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Read a seed run',
        description:
          'Administrators only. Answers `{run:{id, status, mode, sourceName?, tables:[{name, target, inserted, status, error?}]}}`; a run whose job was lost ends failed with every unfinished table marked `lost`. 404 unknown id.',
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] },
        response: { 200: runAnswer, ...errorResponses(404) },
      },
    },
    async (request) => {
      await requireAdmin(request);
      const { id } = request.params as { id: string };
      const run = await service().get(id);
      if (!run) throw notFound('Unknown seed run');
      return { run: publicRun(run) };
    },
  );
}
