// GET /api/v1/projects/{slug}/vsm: the project's value-stream map (src/triggers/vsm.ts) as `{nodes, edges}`.
import { Type } from 'typebox';
import type { Triggers } from '../triggers/index.js';
import type { Api } from './context.js';
import { errors, RunSummary, SlugParams, Uuid } from './schemas.js';

const Node = Type.Object(
  {
    id: Type.String({ description: '`material:<fingerprint>` or `pipeline:<uuid>`' }),
    kind: Type.String({ description: 'git or pipeline' }),
    fingerprint: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    branch: Type.Optional(Type.String()),
    latest_modification: Type.Optional(
      Type.Union([
        Type.Object({
          revision: Type.String(),
          author: Type.Union([Type.String(), Type.Null()]),
          message: Type.Union([Type.String(), Type.Null()]),
          detected_at: Type.String({ format: 'date-time' }),
        }),
        Type.Null(),
      ]),
    ),
    pipeline_id: Type.Optional(Uuid),
    name: Type.Optional(Type.String()),
    stages: Type.Optional(Type.Array(Type.String())),
    has_services: Type.Optional(Type.Boolean()),
    crons: Type.Optional(Type.Array(Type.String(), { description: 'expressions of its cron materials' })),
    latest_run: Type.Optional(Type.Union([RunSummary, Type.Null()])),
  },
  { description: 'a git material (fingerprint, url, branch, latest_modification) or a pipeline' },
);

const Edge = Type.Object({
  from: Type.String(),
  to: Type.String(),
  kind: Type.String({ description: 'material (git material → pipeline) or upstream (pipeline → pipeline)' }),
  stage: Type.Optional(Type.String({ description: 'upstream edges: the stage that triggers' })),
  status: Type.Optional(Type.String({ description: 'upstream edges: the status that triggers' })),
});

export function registerVsmRoute(api: Api, triggers: Triggers): void {
  api.get('/api/v1/projects/:slug/vsm', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: "The project's value-stream map",
      description:
        'Nodes: one per git material (repository and branch; pipelines watching the same one share it) and one ' +
        'per active pipeline with its latest run and `has_services`. Edges: git material → pipeline, and ' +
        'upstream pipeline → downstream pipeline with the stage and status that trigger it.',
      params: SlugParams,
      response: {
        200: Type.Object({ nodes: Type.Array(Node), edges: Type.Array(Edge) }),
        ...errors(400, 404),
      },
    },
    handler: async (request) => triggers.vsm(request.params.slug),
  });
}
