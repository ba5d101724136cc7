// GET, PUT, DELETE /api/v1/projects/{slug}/commit-status: where the project's push and pull-request runs report
// their commit status (GitHub, GitLab, Bitbucket Cloud; docs/ci-triggers.md, "Commit statuses"). The token is
// write-only (the project secret COMMIT_STATUS_TOKEN); answers say only `has_token`. Read needs viewer,
// write maintainer.
import { Type } from 'typebox';
import { DEFAULT_CONTEXT_PREFIX, FORGE_STATUS_TOKEN_SECRET } from '../domain/forge-status.js';
import { deleteForgeStatus, readForgeStatus, writeForgeStatus } from '../services/forge-status-config.js';
import type { Api, ApiContext } from './context.js';
import { errors, NoContent, SlugParams } from './schemas.js';

const Host = Type.Enum(['github', 'gitlab', 'bitbucket'], {
  description:
    'the forge: GitHub (commit statuses), GitLab (commit statuses), Bitbucket Cloud (build statuses)',
});

const View = Type.Object({
  host: Type.Union([Host, Type.Null()], { description: 'null while the project reports nowhere' }),
  api_url: Type.Union([Type.String(), Type.Null()], {
    description:
      'the API root in use: https://api.github.com, https://gitlab.com/api/v4 or https://api.bitbucket.org/2.0 unless set',
  }),
  repository: Type.Union([Type.String(), Type.Null()], {
    description: "owner/name (GitLab: the project path); null: taken from the pipeline's git material URL",
  }),
  username: Type.Union([Type.String(), Type.Null()], {
    description:
      'Bitbucket: the account of an app password (Basic auth); without it the token is sent as Bearer',
  }),
  context_prefix: Type.String({
    description: `the status name is <context_prefix>/<project slug>/<pipeline name> (default ${DEFAULT_CONTEXT_PREFIX}, as gocdnext)`,
  }),
  has_token: Type.Boolean({
    description: `whether the project secret ${FORGE_STATUS_TOKEN_SECRET} is set; without it the SCM credential covering the repository is used`,
  }),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const Body = Type.Object(
  {
    host: Host,
    api_url: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    repository: Type.Optional(Type.Union([Type.String({ maxLength: 300 }), Type.Null()])),
    username: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    context_prefix: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16_384,
        description: `write-only; stored encrypted as the project secret ${FORGE_STATUS_TOKEN_SECRET}; left out: the stored token stays`,
      }),
    ),
  },
  { additionalProperties: false },
);

export function registerForgeStatusRoutes(api: Api, ctx: ApiContext): void {
  api.get('/api/v1/projects/:slug/commit-status', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: 'Where the project reports commit statuses',
      description:
        'Runs caused by a push or a pull request (webhook or poll, and reruns of those) post a status on ' +
        'their commit: pending when created, running when started (GitHub: pending), then success, failure ' +
        'or canceled (GitHub: error; Bitbucket: STOPPED), linking to the run page. Delivered through the ' +
        'notification outbox with its retries; the history is at `/notifications/deliveries` (kind ' +
        '`commit_status`).',
      params: SlugParams,
      response: { 200: View, ...errors(400, 404) },
    },
    handler: async (request) => readForgeStatus(ctx.db, request.params.slug),
  });

  api.put('/api/v1/projects/:slug/commit-status', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Set where the project reports commit statuses',
      description:
        'Replaces the configuration; a field left out takes its default. `token` (write-only) replaces the ' +
        `stored token, the project secret ${FORGE_STATUS_TOKEN_SECRET}; it is never returned. Applies to ` +
        'statuses raised after the change; statuses already queued read the token when they are sent.',
      params: SlugParams,
      body: Body,
      response: { 200: View, ...errors(400, 404) },
    },
    handler: async (request) => writeForgeStatus(ctx.db, ctx.box, request.params.slug, request.body),
  });

  api.delete('/api/v1/projects/:slug/commit-status', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['projects'],
      summary: 'Stop reporting commit statuses',
      description: `Removes the configuration and the project secret ${FORGE_STATUS_TOKEN_SECRET}.`,
      params: SlugParams,
      response: { 204: NoContent, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      await deleteForgeStatus(ctx.db, request.params.slug);
      return reply.code(204).send();
    },
  });
}
