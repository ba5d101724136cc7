// Admin: global secrets, sealed at rest with the server's secret key (CI_SECRET_KEY). Listings return names
// and timestamps only; values are never returned.
import { notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../../auth/context.js';
import {
  deleteGlobalSecret,
  globalSecretAad,
  listGlobalSecrets,
  putGlobalSecret,
} from '../../store/auth-secrets.js';

/** Secrets become environment variables of jobs, so their names follow environment-variable rules. */
const SECRET_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';
/** Bounds a single value (certificates and keys fit comfortably). */
const MAX_VALUE_BYTES = 64 * 1024;

const SecretMeta = Type.Object({ name: Type.String(), created_at: Type.String(), updated_at: Type.String() });

export function registerAdminSecretRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/admin/secrets', {
    config: { access: 'admin' },
    schema: { response: { 200: Type.Object({ secrets: Type.Array(SecretMeta) }) } },
    handler: async () => ({ secrets: await listGlobalSecrets(ctx.db) }),
  });

  app.post('/api/v1/admin/secrets', {
    config: { access: 'admin' },
    schema: {
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 200, pattern: SECRET_NAME }),
        value: Type.String({ maxLength: MAX_VALUE_BYTES }),
      }),
      response: { 200: SecretMeta, 201: SecretMeta },
    },
    handler: async (request, reply) => {
      const { name, value } = request.body;
      const sealed = ctx.secretBox.seal(value, globalSecretAad(name));
      const { secret, created } = await putGlobalSecret(ctx.db, name, sealed);
      request.auditNote = { target: `global_secret:${name}`, details: { replaced: !created } };
      return reply.code(created ? 201 : 200).send(secret);
    },
  });

  app.delete('/api/v1/admin/secrets/:name', {
    config: { access: 'admin' },
    schema: { params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }) },
    handler: async (request, reply) => {
      if (!(await deleteGlobalSecret(ctx.db, request.params.name))) throw notFound('No such secret');
      request.auditNote = { target: `global_secret:${request.params.name}` };
      return reply.code(204).send();
    },
  });
}
