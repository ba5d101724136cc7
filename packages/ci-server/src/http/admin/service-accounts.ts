// Admin: service accounts (non-human principals with a role) and their tokens (`cisa_…`), minted, listed
// and revoked here. The secret of a new token is in the creation response only.
import { conflict, notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { actorName } from '../../auth/audit.js';
import type { AuthContext } from '../../auth/context.js';
import { issueToken } from '../../auth/token-service.js';
import {
  IdParams,
  NameSchema,
  NewTokenSchema,
  PagingQuery,
  parseExpiry,
  RoleSchema,
  ServiceAccountSchema,
  serviceAccountView,
  TokenSchema,
  TokenWithSecretSchema,
} from '../../auth/views.js';
import {
  findServiceAccount,
  findServiceAccountByName,
  insertServiceAccount,
  listServiceAccounts,
} from '../../store/auth-service-accounts.js';
import { listTokens, revokeToken } from '../../store/auth-tokens.js';

export function registerAdminServiceAccountRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/admin/service-accounts', {
    config: { access: 'admin' },
    schema: {
      querystring: Type.Object(PagingQuery),
      response: {
        200: Type.Object({
          service_accounts: Type.Array(ServiceAccountSchema),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
      },
    },
    handler: async (request) => {
      const limit = request.query.limit ?? 50;
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listServiceAccounts(ctx.db, limit, offset);
      return { service_accounts: rows.map(serviceAccountView), total, limit, offset };
    },
  });

  app.post('/api/v1/admin/service-accounts', {
    config: { access: 'admin' },
    schema: {
      body: Type.Object({ name: NameSchema, role: RoleSchema }),
      response: { 201: ServiceAccountSchema },
    },
    handler: async (request, reply) => {
      const { name, role } = request.body;
      const taken = () => conflict(`A service account named "${name}" already exists`);
      if (await findServiceAccountByName(ctx.db, name)) throw taken();
      let row: Awaited<ReturnType<typeof insertServiceAccount>>;
      try {
        row = await insertServiceAccount(ctx.db, { name, role, createdBy: actorName(request.principal) });
      } catch (err) {
        if (await findServiceAccountByName(ctx.db, name)) throw taken();
        throw err;
      }
      request.auditNote = { target: `service_account:${row.id}` };
      return reply.code(201).send(serviceAccountView(row));
    },
  });

  app.get('/api/v1/admin/service-accounts/:id/tokens', {
    config: { access: 'admin' },
    schema: { params: IdParams, response: { 200: Type.Object({ tokens: Type.Array(TokenSchema) }) } },
    handler: async (request) => {
      if (!(await findServiceAccount(ctx.db, request.params.id))) throw notFound('No such service account');
      return { tokens: await listTokens(ctx.db, { serviceAccountId: request.params.id }) };
    },
  });

  app.post('/api/v1/admin/service-accounts/:id/tokens', {
    config: { access: 'admin' },
    schema: { params: IdParams, body: NewTokenSchema, response: { 201: TokenWithSecretSchema } },
    handler: async (request, reply) => {
      const sa = await findServiceAccount(ctx.db, request.params.id);
      if (!sa) throw notFound('No such service account');
      const expiresAt = parseExpiry(request.body.expires_at);
      const token = await issueToken(ctx.db, { serviceAccountId: sa.id }, request.body.name, expiresAt);
      request.auditNote = {
        target: `service_account:${sa.id}`,
        details: { token_id: token.id, token_name: token.name },
      };
      return reply.code(201).send(token);
    },
  });

  app.delete('/api/v1/admin/service-accounts/:id/tokens/:tokenId', {
    config: { access: 'admin' },
    schema: {
      params: Type.Object({ id: Type.String({ format: 'uuid' }), tokenId: Type.String({ format: 'uuid' }) }),
    },
    handler: async (request, reply) => {
      const { id, tokenId } = request.params;
      const revoked = await revokeToken(ctx.db, { serviceAccountId: id }, tokenId, new Date().toISOString());
      if (!revoked) throw notFound('No such token for this service account');
      request.auditNote = { target: `service_account:${id}`, details: { revoked_token_id: tokenId } };
      return reply.code(204).send();
    },
  });
}
