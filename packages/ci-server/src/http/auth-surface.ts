// The HTTP face of authentication: sign-in (/auth/*), the signed-in user's account and the administration of
// users, tokens and providers, registered together in one scope with the core API's readable validation
// messages. server.ts calls it right after `installAuth` built the context these routes share.
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../auth/context.js';
import { registerAccountRoutes } from './account.js';
import { registerAuthAdminRoutes } from './admin/auth-admin.js';
import { registerAuthRoutes } from './auth-routes.js';
import { schemaErrorFormatter } from './validation.js';

export async function registerAuthSurface(app: FastifyInstance, context: AuthContext): Promise<void> {
  await app.register(async (scope) => {
    // The same readable validation messages as the core API ("body field x must be …").
    scope.setSchemaErrorFormatter(schemaErrorFormatter);
    registerAuthRoutes(scope, context);
    registerAccountRoutes(scope, context);
    registerAuthAdminRoutes(scope, context);
  });
}
