// Registers the trigger routes: the public webhook endpoints (their own raw-body plugin), and in one
// encapsulated plugin with the core API's conventions (TypeBox, readable validation messages, strict JSON
// bodies, an empty JSON body meaning no body) the project trigger settings, the value-stream map and the
// admin views of webhooks, integrations, SCM credentials and health.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Triggers } from '../triggers/index.js';
import { registerAdminHealthRoute } from './admin/health.js';
import { registerAdminIntegrationRoutes } from './admin/integrations.js';
import { registerAdminScmCredentialRoutes } from './admin/scm-credentials.js';
import { registerAdminWebhookRoutes } from './admin/webhooks.js';
import { registerConfigRepoRoutes } from './config-repo.js';
import { registerForkPolicyRoutes } from './fork-policy.js';
import { registerProjectTriggerRoutes } from './project-triggers.js';
import { registerStrictBodies } from './strict-body.js';
import { schemaErrorFormatter } from './validation.js';
import { registerVsmRoute } from './vsm.js';
import { registerWebhookRoutes } from './webhooks.js';

export async function registerTriggerApi(
  app: FastifyInstance,
  deps: { triggers: Triggers; publicUrl: string },
): Promise<void> {
  await registerWebhookRoutes(app, deps.triggers);
  await app.register(async (scope) => {
    const api = scope.withTypeProvider<TypeBoxTypeProvider>();
    api.setSchemaErrorFormatter(schemaErrorFormatter);
    // The strict-body hook asks whether a request is multipart; these routes take JSON only.
    if (!api.hasRequestDecorator('isMultipart')) api.decorateRequest('isMultipart', () => false);
    registerStrictBodies(api);
    registerProjectTriggerRoutes(api, deps.triggers);
    registerConfigRepoRoutes(api, deps.triggers);
    registerForkPolicyRoutes(api, deps.triggers);
    registerVsmRoute(api, deps.triggers);
    registerAdminWebhookRoutes(api, deps.triggers);
    registerAdminScmCredentialRoutes(api, deps.triggers);
    registerAdminIntegrationRoutes(api, deps.triggers, deps.publicUrl);
    registerAdminHealthRoute(api, deps.triggers);
  });
}
