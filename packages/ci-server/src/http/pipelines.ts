// Pipeline routes: manual trigger (201 with the new run's id and counter) and the pipeline's YAML.
import { Type } from 'typebox';
import { pipelineYaml } from '../services/projects.js';
import { type Api, type ApiContext, actorOf } from './context.js';
import { errors, IdParams, Uuid } from './schemas.js';

/** Parameters become environment variables: names like the bundle's, bounded count and size. */
const Parameters = Type.Unsafe<Record<string, string>>({
  type: 'object',
  description: "merged over the pipeline's `parameters:` block; names are environment variable names",
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 200 },
  additionalProperties: { type: 'string', maxLength: 65536 },
  maxProperties: 100,
});

const TriggerBody = Type.Object(
  {
    git_ref: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        pattern: '^[^\\s~^:?*\\[\\\\\\u0000-\\u001f\\u007f]+$',
        description: "branch, tag or commit; default the branch of the pipeline's first git material",
      }),
    ),
    parameters: Type.Optional(Parameters),
  },
  { additionalProperties: false },
);

export function registerPipelineRoutes(api: Api, ctx: ApiContext): void {
  api.post('/api/v1/pipelines/:id/trigger', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['pipelines'],
      summary: 'Start a run of the pipeline (cause manual)',
      description:
        "The body is optional. The run's counter is the next of the pipeline (consecutive under concurrent " +
        "triggers). The first stage's jobs are queued for agents. An archived pipeline is 409.",
      'x-body-optional': true,
      params: IdParams,
      body: TriggerBody,
      response: {
        201: Type.Object({ run_id: Uuid, counter: Type.Integer({ minimum: 1 }) }),
        ...errors(400, 404, 409),
      },
    },
    handler: async (request, reply) => {
      const result = await ctx.runs.trigger(request.params.id.toLowerCase(), request.body, actorOf(request));
      return reply.code(201).send(result);
    },
  });

  api.get('/api/v1/pipelines/:id/yaml', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['pipelines'],
      summary: "The pipeline's YAML as applied",
      description:
        '`reconstructed: false`: the text as applied (its own slice of a JSON-variant bundle, comments kept, ' +
        'or the whole file of a multipart apply). `reconstructed: true`: that text was not available or could ' +
        'not stand alone, and the parsed definition was written back as YAML. Archived pipelines answer too.',
      params: IdParams,
      response: {
        200: Type.Object({ yaml: Type.String(), reconstructed: Type.Boolean() }),
        ...errors(400, 404),
      },
    },
    handler: async (request) => pipelineYaml(ctx.db, request.params.id.toLowerCase()),
  });
}
