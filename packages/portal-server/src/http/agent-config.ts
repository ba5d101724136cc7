// `GET /api/agent/config` (session): whether the investigation agent is offered, `{enabled, reason?}`. The
// agent is available exactly when a model provider is configured; its other routes (src/http/agent.ts) are
// registered only then, so without one they answer 404 as the spec says.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireSession } from './guard.js';
import { errorResponses } from './response-schemas.js';

export interface AgentConfigOptions {
  /** Whether a model provider is configured (src/ai/model.ts). */
  aiConfigured: boolean;
}

export const AGENT_NOT_CONFIGURED = 'AI is not configured';

export function registerAgentConfigRoute(app: FastifyInstance, options: AgentConfigOptions): void {
  app.get(
    '/api/agent/config',
    {
      schema: {
        tags: ['agent'],
        description:
          '`{enabled: boolean, reason?}`: `{enabled: false, reason: "AI is not configured"}` while AI_PROVIDER/AI_MODEL are unset (the other agent routes then answer 404); `{enabled: true}` with a model. Workflows: investigation, planning, operations, performance, data-quality.',
        response: {
          200: Type.Object({ enabled: Type.Boolean(), reason: Type.Optional(Type.String()) }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      await requireSession(request);
      return options.aiConfigured ? { enabled: true } : { enabled: false, reason: AGENT_NOT_CONFIGURED };
    },
  );
}
