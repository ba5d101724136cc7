// Admin: which SCM host integrations are configured — the webhook URL to register at each host, which
// headers it signs with, whether a global secret is set (never the secret), how many projects carry their
// own WEBHOOK_SECRET, and how its deliveries went.
import { notFound } from '@app/kit';
import { Type } from 'typebox';
import { HOSTS, SCM_HOSTS, type ScmHost } from '../../scm/index.js';
import type { Triggers } from '../../triggers/index.js';
import { PROJECT_SECRET_NAME } from '../../triggers/webhooks.js';
import type { Api } from '../context.js';
import { errors } from '../schemas.js';

const Integration = Type.Object({
  host: Type.String({ description: 'github, gitlab or bitbucket' }),
  display: Type.String(),
  configured: Type.Boolean({ description: 'a global secret is set or a project has its own WEBHOOK_SECRET' }),
  webhook_url: Type.String({ description: 'the payload URL to register at the host' }),
  global_secret_configured: Type.Boolean(),
  projects_with_secret: Type.Integer({ description: 'projects having a WEBHOOK_SECRET project secret' }),
  signature_header: Type.String(),
  event_header: Type.String(),
  delivery_header: Type.String(),
  events: Type.Array(Type.String(), { description: 'events that can start runs' }),
  deliveries: Type.Object({
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    ignored: Type.Integer(),
    last_received_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
});

const EVENTS: Record<ScmHost, string[]> = {
  github: ['push', 'pull_request'],
  gitlab: ['Push Hook', 'Tag Push Hook', 'Merge Request Hook'],
  bitbucket: ['repo:push', 'pullrequest:created', 'pullrequest:updated'],
};

async function integrations(triggers: Triggers, publicUrl: string) {
  const [stats, projectSecrets] = await Promise.all([
    triggers.deliveries.stats(),
    triggers.projectSecretCount(PROJECT_SECRET_NAME),
  ]);
  return SCM_HOSTS.map((host) => {
    const info = HOSTS[host];
    const mine = stats.filter((s) => s.scm === host);
    const count = (status: string) => mine.find((s) => s.status === status)?.n ?? 0;
    const last =
      mine
        .map((s) => s.last)
        .filter((v): v is string => v !== null)
        .sort()
        .pop() ?? null;
    const global = triggers.secrets[host] !== null;
    return {
      host,
      display: info.display,
      configured: global || projectSecrets > 0,
      webhook_url: `${publicUrl}/api/webhooks/${host}`,
      global_secret_configured: global,
      projects_with_secret: projectSecrets,
      signature_header: info.signatureHeader,
      event_header: info.eventHeader,
      delivery_header: info.deliveryHeader,
      events: EVENTS[host],
      deliveries: {
        accepted: count('accepted'),
        rejected: count('rejected'),
        ignored: count('ignored'),
        last_received_at: last,
      },
    };
  });
}

export function registerAdminIntegrationRoutes(api: Api, triggers: Triggers, publicUrl: string): void {
  api.get('/api/v1/admin/integrations', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'SCM host integrations',
      description:
        'One entry per supported host. Secrets are never shown, only whether they are set. Global secrets come ' +
        'from CI_CONFIG `webhooks.<host>.secret`, else `CI_WEBHOOK_SECRET`.',
      response: { 200: Type.Object({ integrations: Type.Array(Integration) }) },
    },
    handler: async () => ({ integrations: await integrations(triggers, publicUrl) }),
  });

  api.get('/api/v1/admin/integrations/:host', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'One SCM host integration',
      params: Type.Object({ host: Type.String({ maxLength: 50 }) }),
      response: { 200: Integration, ...errors(400, 404) },
    },
    handler: async (request) => {
      const found = (await integrations(triggers, publicUrl)).find((i) => i.host === request.params.host);
      if (!found) throw notFound(`unknown SCM host "${request.params.host}"; use ${SCM_HOSTS.join(', ')}`);
      return found;
    },
  });
}
