// Admin: user management — list, create local users, change a user's role. The last administrator cannot
// be demoted, so the server always keeps someone who can administer it.
import { badRequest, conflict, notFound } from '@app/kit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AuthContext } from '../../auth/context.js';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../auth/passwords.js';
import { IdParams, PagingQuery, RoleSchema, UserSchema, userView } from '../../auth/views.js';
import {
  countAdmins,
  findUserById,
  findUserByUsername,
  insertUser,
  listUsers,
  updateUserRole,
} from '../../store/auth-users.js';

const USERNAME = '^[A-Za-z0-9][A-Za-z0-9._@+-]*$';

export function registerAdminUserRoutes(root: FastifyInstance, ctx: AuthContext): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/api/v1/admin/users', {
    config: { access: 'admin' },
    schema: {
      querystring: Type.Object(PagingQuery),
      response: {
        200: Type.Object({
          users: Type.Array(UserSchema),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
      },
    },
    handler: async (request) => {
      const limit = request.query.limit ?? 50;
      const offset = request.query.offset ?? 0;
      const { rows, total } = await listUsers(ctx.db, limit, offset);
      return { users: rows.map(userView), total, limit, offset };
    },
  });

  app.post('/api/v1/admin/users', {
    config: { access: 'admin' },
    schema: {
      body: Type.Object({
        username: Type.String({ minLength: 1, maxLength: 200, pattern: USERNAME }),
        password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }),
        role: RoleSchema,
        email: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 320, format: 'email' })])),
      }),
      response: { 201: UserSchema },
    },
    handler: async (request, reply) => {
      const { username, password, role, email } = request.body;
      if (password.length < MIN_PASSWORD_LENGTH)
        throw badRequest(`password must be at least ${MIN_PASSWORD_LENGTH} characters`);
      if (await findUserByUsername(ctx.db, username))
        throw conflict(`A user named "${username}" already exists`);
      const passwordHash = await hashPassword(password);
      let user: Awaited<ReturnType<typeof insertUser>>;
      try {
        user = await insertUser(ctx.db, { username, email: email ?? null, role, passwordHash });
      } catch (err) {
        if (await findUserByUsername(ctx.db, username))
          throw conflict(`A user named "${username}" already exists`);
        throw err;
      }
      request.auditNote = { target: `user:${user.id}` };
      return reply.code(201).send(userView(user));
    },
  });

  app.put('/api/v1/admin/users/:id/role', {
    config: { access: 'admin' },
    schema: {
      description: 'Changes a user’s role (409 for the last administrator). Their tokens follow at once.',
      params: IdParams,
      body: Type.Object({ role: RoleSchema }),
      response: { 200: UserSchema },
    },
    handler: async (request) => {
      const user = await findUserById(ctx.db, request.params.id);
      if (!user) throw notFound('No such user');
      const { role } = request.body;
      request.auditNote = { target: `user:${user.id}`, details: { from: user.role, to: role } };
      if (user.role === 'admin' && role !== 'admin' && (await countAdmins(ctx.db)) <= 1)
        throw conflict('The last administrator cannot be demoted; promote another user first');
      await updateUserRole(ctx.db, user.id, role);
      return userView({ ...user, role });
    },
  });
}
