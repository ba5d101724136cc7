// Admin: agent identity. POST /api/v1/admin/agents/{id}/revoke revokes one agent (its credential is refused
// from then on, its session is closed with Unauthenticated, its job runs are re-queued); POST
// /api/v1/admin/agents/registration-token rotates the shared registration token (answered once; only its
// hash is kept) without touching running agents, which use their own credentials. The fleet itself is read
// through GET /api/v1/agents (the spec keeps that path read-only), so the writes live under /admin.
import { notFound } from '@app/kit';
import { Type } from 'typebox';
import type { Api } from '../context.js';
import { errors, IdParams } from '../schemas.js';

/** What the agent side of the control plane offers these routes (agents/control-plane.ts). */
export interface AgentAdmin {
  revoke(agentId: string): Promise<{ name: string; requeued: number; already: boolean } | undefined>;
  rotateRegistrationToken(): Promise<{ token: string; rotated_at: string }>;
}

export function registerAdminAgentRoutes(api: Api, admin: AgentAdmin): void {
  api.post('/api/v1/admin/agents/:id/revoke', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Revoke an agent',
      description:
        'The agent’s credential is refused from now on and its name cannot be registered again; its gRPC ' +
        'session is closed with `Unauthenticated` (the agent logs it and exits) and the job runs it held are ' +
        're-queued (a running one as a new attempt that spends no retry). Revoking twice answers the same.',
      params: IdParams,
      response: {
        200: Type.Object({
          id: Type.String(),
          name: Type.String(),
          revoked: Type.Literal(true),
          requeued_job_runs: Type.Integer({ minimum: 0 }),
        }),
        ...errors(400, 404),
      },
    },
    handler: async (request) => {
      const id = request.params.id.toLowerCase();
      const out = await admin.revoke(id);
      if (!out) throw notFound(`agent ${id} does not exist`);
      request.auditNote = { action: 'agent.revoke', target: `agent:${id}`, details: { name: out.name } };
      return { id, name: out.name, revoked: true as const, requeued_job_runs: out.requeued };
    },
  });

  api.post('/api/v1/admin/agents/registration-token', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Rotate the agent registration token',
      description:
        'Generates a new registration token and answers it once (store it where new agents read ' +
        '`CI_AGENT_TOKEN`); the previous token is refused from now on. Registered agents keep working: they ' +
        'connect with their own credentials. A later restart with a different configured `CI_AGENT_TOKEN` ' +
        'makes that one the token in force again.',
      response: {
        200: Type.Object({
          token: Type.String({ description: 'the new registration token; shown only in this response' }),
          rotated_at: Type.String({ format: 'date-time' }),
        }),
      },
    },
    handler: async (request, reply) => {
      const out = await admin.rotateRegistrationToken();
      request.auditNote = { action: 'agent.registration_token.rotate', target: 'agents' };
      void reply.header('cache-control', 'no-store');
      return out;
    },
  });
}
