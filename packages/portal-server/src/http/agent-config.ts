// `GET /api/agent/config` (session): whether the investigation agent is offered, `{enabled, reason?}`. The
// agent's other routes (classify, runs, handover, artifacts, drive) are deliberately not registered here: the
// spec has them answer 404 while the agent is unavailable, which the app's not-found handler already does.
import type { FastifyInstance } from 'fastify';
import { requireSession } from './guard.js';

export interface AgentConfigOptions {
  /** Whether a model provider is configured (src/ai/client.ts). */
  aiConfigured: boolean;
}

export const AGENT_NOT_CONFIGURED = 'AI is not configured';
/** The investigation agent itself is not part of this build, so its routes stay 404 even with a model. */
export const AGENT_NOT_BUILT = 'The investigation agent is not available in this version';

export function registerAgentConfigRoute(app: FastifyInstance, options: AgentConfigOptions): void {
  app.get(
    '/api/agent/config',
    {
      schema: {
        tags: ['agent'],
        description:
          '`{enabled: boolean, reason?}`: `{enabled: false, reason: "AI is not configured"}` while AI_PROVIDER is unset; with a model configured, `enabled` stays false (reason given) until the investigation agent ships, matching its routes answering 404.',
      },
    },
    async (request) => {
      await requireSession(request);
      return { enabled: false, reason: options.aiConfigured ? AGENT_NOT_BUILT : AGENT_NOT_CONFIGURED };
    },
  );
}
