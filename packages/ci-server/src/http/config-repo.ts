// Pipelines as code (docs/ci-gocdnext.md, "Pipelines in the repository"): bind a project to the repository
// folder its pipelines live in (gocdnext's `.gocdnext/` by default), read the binding with the outcome of
// the last read, and unbind. Binding reads and applies the folder at once; pushes, polls and syncs keep it
// current (triggers/config-repo.ts). Reads need viewer, writes maintainer.
import { badRequest, notFound } from '@app/kit';
import { Type } from 'typebox';
import { ConfigRepoError, type Triggers } from '../triggers/index.js';
import type { Api } from './context.js';
import { errors, NoContent, SlugParams } from './schemas.js';

const Nullable = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);

const ConfigRepo = Type.Object({
  url: Type.String({ description: 'the repository (credentials from the SCM credential settings)' }),
  branch: Type.String({ description: 'the branch whose head defines the pipelines' }),
  path: Type.String({ description: 'the folder of pipeline files (its *.yaml/*.yml), or one file' }),
  poll_interval: Type.String({ description: 'how often the branch is checked; "" webhooks only' }),
  applied_revision: Nullable(Type.String({ description: 'the commit whose definition is applied' })),
  checked_revision: Nullable(Type.String({ description: 'the last commit read' })),
  status: Type.Union([Type.Literal('pending'), Type.Literal('applied'), Type.Literal('failed')]),
  error: Nullable(
    Type.String({ description: 'why the last commit read did not apply (the pipelines stay)' }),
  ),
  synced_at: Nullable(Type.String({ format: 'date-time' })),
});

const ConfigRepoBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'default main' })),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description:
          'the folder (default .gocdnext) or one file of pipeline files; ci-bundle.yaml at the repository root, our {project, pipelines} bundle, is read beside it',
      }),
    ),
    poll_interval: Type.Optional(
      Type.String({ maxLength: 50, description: 'a duration (default 1m); "" turns polling off' }),
    ),
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'display name of a project created here' }),
    ),
  },
  { additionalProperties: false },
);

export function registerConfigRepoRoutes(api: Api, triggers: Triggers): void {
  api.get('/api/v1/projects/:slug/config-repo', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: "The repository folder the project's pipelines are read from",
      params: SlugParams,
      response: { 200: ConfigRepo, ...errors(400, 404) },
    },
    handler: async (request) => {
      const state = await triggers.configRepoOf(request.params.slug);
      if (!state) throw notFound(`project "${request.params.slug}" has no config repository`);
      return state;
    },
  });

  api.put('/api/v1/projects/:slug/config-repo', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: "Keep the project's pipelines in its repository",
      description:
        'Binds the project (created when it does not exist) to a repository folder, reads its pipeline files ' +
        'at the branch head and applies them as the apply route does (a full declaration; pipelines without a ' +
        'git or upstream material get this repository as theirs). From then on a push to the branch (webhook), ' +
        'a poll that sees it move, and a project sync read the folder again before runs start. A definition ' +
        'that does not apply is recorded in `error` with its revision and changes nothing.',
      params: SlugParams,
      body: ConfigRepoBody,
      response: { 200: ConfigRepo, ...errors(400, 404) },
    },
    handler: async (request) => {
      try {
        return await triggers.bindConfigRepo(request.params.slug, request.body);
      } catch (err) {
        if (err instanceof ConfigRepoError) throw badRequest(err.message);
        throw err;
      }
    },
  });

  api.delete('/api/v1/projects/:slug/config-repo', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Stop reading the pipelines from the repository (the applied pipelines stay)',
      params: SlugParams,
      response: { 204: NoContent, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      await triggers.unbindConfigRepo(request.params.slug);
      return reply.code(204).send();
    },
  });
}
