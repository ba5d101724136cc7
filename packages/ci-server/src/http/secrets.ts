// Project secret routes (decisions.md): list names and timestamps, set (201 new, 200 replaced), delete.
// Values are write-only: no response carries one.
import { Type } from 'typebox';
import { deleteSecret, listSecrets, putSecret, SECRET_VALUE_MAX } from '../services/secrets.js';
import type { Api, ApiContext } from './context.js';
import { errors, NoContent, Slug } from './schemas.js';

const SecretView = Type.Object({
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const SecretName = Type.String({
  pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
  maxLength: 200,
  description: 'an environment variable name',
});

export function registerSecretRoutes(api: Api, ctx: ApiContext): void {
  api.get('/api/v1/projects/:slug/secrets', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['secrets'],
      summary: "Names and timestamps of the project's secrets (never values)",
      params: Type.Object({ slug: Slug }),
      response: { 200: Type.Object({ secrets: Type.Array(SecretView) }), ...errors(400, 404) },
    },
    handler: async (request) => listSecrets(ctx.db, request.params.slug),
  });

  api.post('/api/v1/projects/:slug/secrets', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['secrets'],
      summary: 'Set a project secret',
      description: `201 when the name is new, 200 when its value was replaced. Values are non-empty and at most ${SECRET_VALUE_MAX} bytes; they are encrypted at rest.`,
      params: Type.Object({ slug: Slug }),
      body: Type.Object(
        { name: Type.String({ minLength: 1 }), value: Type.String({ description: 'write-only' }) },
        { additionalProperties: false },
      ),
      response: { 200: SecretView, 201: SecretView, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      const { name, value } = request.body;
      const result = await putSecret(ctx.db, ctx.box, request.params.slug, name, value);
      return reply.code(result.created ? 201 : 200).send(result.secret);
    },
  });

  api.delete('/api/v1/projects/:slug/secrets/:name', {
    config: { access: 'maintainer' },
    schema: {
      tags: ['secrets'],
      summary: 'Delete a project secret',
      params: Type.Object({ slug: Slug, name: SecretName }),
      response: { 204: NoContent, ...errors(400, 404) },
    },
    handler: async (request, reply) => {
      await deleteSecret(ctx.db, request.params.slug, request.params.name);
      return reply.code(204).send();
    },
  });
}
