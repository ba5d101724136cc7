// Registers the admin routes that belong to authentication and administration of access: users, service
// accounts, global secrets, auth providers, approver groups and the audit log.
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../auth/context.js';
import { registerAdminApproverGroupRoutes } from './approver-groups.js';
import { registerAdminAuditRoutes } from './audit.js';
import { registerAdminAuthProviderRoutes } from './auth-providers.js';
import { registerAdminSecretRoutes } from './secrets.js';
import { registerAdminServiceAccountRoutes } from './service-accounts.js';
import { registerAdminUserRoutes } from './users.js';

export function registerAuthAdminRoutes(app: FastifyInstance, ctx: AuthContext): void {
  registerAdminUserRoutes(app, ctx);
  registerAdminServiceAccountRoutes(app, ctx);
  registerAdminSecretRoutes(app, ctx);
  registerAdminAuthProviderRoutes(app, ctx);
  registerAdminAuditRoutes(app, ctx);
  registerAdminApproverGroupRoutes(app, ctx);
}
