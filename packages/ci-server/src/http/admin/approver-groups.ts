// Admin: approver groups, the named lists of users a gate's `approval.approver_groups` may name besides the
// roles maintainer and admin (gocdnext's Settings → Groups). Members are user names or e-mail addresses,
// matched in any case when someone decides a gate; a change applies to gates already waiting.
import { notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../../auth/context.js';
import { readApproverGroups, writeApproverGroup } from '../../store/approver-groups.js';

const NAME = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^(?!maintainer$|admin$)[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$',
  description: 'the name gates write in approval.approver_groups (not maintainer or admin: those are roles)',
});
const Group = Type.Object({
  name: Type.String(),
  members: Type.Array(Type.String(), { description: 'user names or e-mail addresses' }),
});

export function registerAdminApproverGroupRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/admin/approver-groups', {
    config: { access: 'admin' },
    schema: {
      summary: 'Approver groups gates may name in approval.approver_groups',
      response: { 200: Type.Object({ groups: Type.Array(Group) }) },
    },
    handler: async () => ({
      groups: [...(await readApproverGroups(ctx.db))].map(([name, members]) => ({ name, members })),
    }),
  });

  app.put('/api/v1/admin/approver-groups/:name', {
    config: { access: 'admin' },
    schema: {
      summary: 'Create an approver group or replace its members',
      params: Type.Object({ name: NAME }),
      body: Type.Object(
        {
          members: Type.Array(Type.String({ minLength: 1, maxLength: 320 }), {
            maxItems: 1000,
            description: 'user names or e-mail addresses (any case)',
          }),
        },
        { additionalProperties: false },
      ),
      response: { 200: Group, 201: Group },
    },
    handler: async (request, reply) => {
      const { name } = request.params;
      const members = [...new Set(request.body.members)];
      const existed = await writeApproverGroup(ctx.db, name, members);
      request.auditNote = { target: `approver_group:${name}`, details: { members: members.length } };
      return reply.code(existed ? 200 : 201).send({ name, members });
    },
  });

  app.delete('/api/v1/admin/approver-groups/:name', {
    config: { access: 'admin' },
    schema: { params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }) },
    handler: async (request, reply) => {
      if (!(await writeApproverGroup(ctx.db, request.params.name, null)))
        throw notFound(`approver group "${request.params.name}" not found`);
      request.auditNote = { target: `approver_group:${request.params.name}` };
      return reply.code(204).send();
    },
  });
}
