// Admin: OIDC providers. Those of CI_CONFIG are listed read-only (id `config:<name>`); others are created
// and deleted here, with the client secret sealed at rest and never returned. `reload` makes the registry
// re-read stored providers and forget cached discovery documents.
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../../auth/context.js';
import { parseProviderDefinition } from '../../auth/oidc/provider-config.js';
import { providerSecretAad, providerView } from '../../auth/oidc/registry.js';
import {
  deleteProviderRow,
  findProviderRow,
  insertProviderRow,
  listProviderRows,
} from '../../store/auth-providers.js';

const ProviderSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  display: Type.String(),
  issuer: Type.String(),
  client_id: Type.String(),
  has_client_secret: Type.Boolean(),
  scopes: Type.Array(Type.String()),
  role_claim: Type.Union([Type.Null(), Type.String()]),
  role_map: Type.Record(Type.String(), Type.Array(Type.String())),
  default_role: Type.String(),
  source: Type.String(),
  created_at: Type.Union([Type.Null(), Type.String()]),
  updated_at: Type.Union([Type.Null(), Type.String()]),
});
const ProviderList = Type.Object({ providers: Type.Array(ProviderSchema) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function registerAdminAuthProviderRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/admin/auth/providers', {
    config: { access: 'admin' },
    schema: { response: { 200: ProviderList } },
    handler: async () => ({ providers: (await ctx.registry.list()).map(providerView) }),
  });

  app.post('/api/v1/admin/auth/providers', {
    config: { access: 'admin' },
    schema: { body: Type.Record(Type.String(), Type.Unknown()), response: { 201: ProviderSchema } },
    handler: async (request, reply) => {
      const parsed = parseProviderDefinition(request.body);
      if (!parsed.ok) throw badRequest(`Invalid provider: ${parsed.problems.join('; ')}`);
      const def = parsed.value;
      const taken = () => conflict(`A provider named "${def.name}" already exists`);
      if ((await ctx.registry.list()).some((p) => p.name === def.name)) throw taken();
      if ((await listProviderRows(ctx.db)).some((r) => r.name === def.name)) throw taken();
      const id = randomUUID();
      const now = new Date().toISOString();
      try {
        await insertProviderRow(ctx.db, {
          id,
          name: def.name,
          display: def.display,
          issuer: def.issuer,
          client_id: def.client_id,
          client_secret_sealed: def.client_secret
            ? ctx.secretBox.seal(def.client_secret, providerSecretAad(id))
            : null,
          scopes: JSON.stringify(def.scopes),
          role_claim: def.role_claim,
          role_map: JSON.stringify(def.role_map),
          default_role: def.default_role,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if ((await listProviderRows(ctx.db)).some((r) => r.name === def.name)) throw taken();
        throw err;
      }
      const entries = await ctx.registry.reload();
      const entry = entries.find((e) => e.id === id)!;
      request.auditNote = { target: `auth_provider:${def.name}` };
      return reply.code(201).send(providerView(entry));
    },
  });

  app.delete('/api/v1/admin/auth/providers/:id', {
    config: { access: 'admin' },
    schema: { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }) },
    handler: async (request, reply) => {
      const { id } = request.params;
      if (id.startsWith('config:'))
        throw badRequest('This provider is defined in CI_CONFIG; remove it from the configuration file');
      if (!UUID.test(id)) throw badRequest('id must be a provider id (a UUID)');
      const row = await findProviderRow(ctx.db, id);
      if (!row || !(await deleteProviderRow(ctx.db, id))) throw notFound('No such provider');
      await ctx.registry.reload();
      request.auditNote = { target: `auth_provider:${row.name}` };
      return reply.code(204).send();
    },
  });

  app.post('/api/v1/admin/auth/providers/reload', {
    config: { access: 'admin' },
    schema: { response: { 200: ProviderList } },
    handler: async () => ({ providers: (await ctx.registry.reload()).map(providerView) }),
  });
}
