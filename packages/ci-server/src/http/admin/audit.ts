// Admin: the audit query — newest first, filtered by exact `actor` and `action` and by `since` (RFC 3339),
// paged by `limit` (1..200, default 50) and `offset`.
import { badRequest } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../../auth/context.js';
import { PagingQuery, parseRfc3339 } from '../../auth/views.js';
import { queryAudit } from '../../store/auth-audit.js';

const Entry = Type.Object({
  id: Type.String(),
  at: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  target: Type.Union([Type.Null(), Type.String()]),
  details: Type.Record(Type.String(), Type.Unknown()),
});

export function registerAdminAuditRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/admin/audit', {
    config: { access: 'admin' },
    schema: {
      description:
        'Audit entries, newest first. Every state-changing request is recorded (action = method and route ' +
        'pattern, e.g. `PUT /api/v1/admin/users/{id}/role`) and named sign-in events (`auth.login`, ' +
        '`auth.logout`, `auth.oidc_login`). details carry status, outcome, request_id, how the actor ' +
        'authenticated and non-secret fields. Filters: actor and action (exact), since (RFC 3339, inclusive).',
      querystring: Type.Object({
        actor: Type.Optional(Type.String({ maxLength: 255 })),
        action: Type.Optional(Type.String({ maxLength: 300 })),
        since: Type.Optional(Type.String({ maxLength: 64 })),
        ...PagingQuery,
      }),
      response: {
        200: Type.Object({
          entries: Type.Array(Entry),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
      },
    },
    handler: async (request) => {
      const { actor, action, since } = request.query;
      let sinceIso: string | undefined;
      if (since !== undefined) {
        sinceIso = parseRfc3339(since);
        if (!sinceIso) throw badRequest('since must be an RFC 3339 timestamp with a timezone');
      }
      const limit = request.query.limit ?? 50;
      const offset = request.query.offset ?? 0;
      // Entries of requests that just finished are written after their response; include them.
      await ctx.audit.flush();
      const { entries, total } = await queryAudit(ctx.db, { actor, action, since: sinceIso, limit, offset });
      return { entries, total, limit, offset };
    },
  });
}
