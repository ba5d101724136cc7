// The HTTP face of the bot API: service tokens (/api/admin/service-tokens), bot executions (/api/v1/executions)
// and chat interactions (/api/chat/interactions), registered together over the bot API that bot/index.ts
// builds (its context, jobs and chat handler live there, below the routes).
import type { FastifyInstance } from 'fastify';
import type { BotApi } from '../bot/index.js';
import { registerChatInteractionRoute } from './chat-interactions.js';
import { registerExecutionRoutes } from './executions.js';
import { registerServiceTokenRoutes, type ServiceTokenRouteDeps } from './service-tokens.js';

export function registerBotSurface(app: FastifyInstance, bot: BotApi, deps: ServiceTokenRouteDeps): void {
  registerServiceTokenRoutes(app, deps);
  registerExecutionRoutes(app, { bot: bot.context, tokens: deps.tokens });
  registerChatInteractionRoute(app, bot.interactions);
}
