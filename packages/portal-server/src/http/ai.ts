// The AI routes `POST /api/ai/explain`, `/api/ai/query-safety` and `/api/ai/describe-schema` (session): one
// model call with a short system prompt and the user's SQL or schema, answering `{text}`. The SQL is never
// executed. Without AI_PROVIDER (and AI_MODEL) they answer 503 AI_NOT_CONFIGURED. Rate limited per person.
import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { AiClient } from '../ai/client.js';
import { type AiFeature, SYSTEM_PROMPTS, userMessage } from '../ai/prompts.js';
import { RateLimiter } from '../auth/rate-limit.js';
import { rateLimitHook, requireSession } from './guard.js';

/** Longest SQL or schema text sent to a model (far below the execution limit: model context is small). */
export const AI_MAX_INPUT_CHARS = 100_000;
/** Model calls per person per minute (per replica, like every portal rate limit). */
export const AI_RATE_BUDGET = { max: 30, windowMs: 60_000 };

export interface AiRoutesOptions {
  /** The client, or the reason AI is off (src/ai/client.ts `createAiClient`). */
  ai: { client: AiClient } | { reason: string };
}

const FEATURES: Array<{ feature: AiFeature; field: 'sql' | 'schema'; description: string }> = [
  { feature: 'explain', field: 'sql', description: 'Explains a SQL statement in plain language' },
  { feature: 'query-safety', field: 'sql', description: 'Reviews a SQL statement for risk before it runs' },
  { feature: 'describe-schema', field: 'schema', description: 'Describes a schema (text or JSON)' },
];

function inputText(field: 'sql' | 'schema', value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (field === 'schema' && value !== null && typeof value === 'object')
    text = JSON.stringify(value, null, 1);
  else
    throw new HttpError(
      400,
      `${field} must be a ${field === 'sql' ? 'string' : 'string or object'}`,
      'BAD_REQUEST',
    );
  if (text.trim() === '') throw new HttpError(400, `${field} is empty`, 'BAD_REQUEST');
  if (text.length > AI_MAX_INPUT_CHARS) {
    throw new HttpError(
      413,
      `${field} is ${text.length} characters; the AI limit is ${AI_MAX_INPUT_CHARS}`,
      'PAYLOAD_TOO_LARGE',
    );
  }
  return text;
}

function dialectOf(body: Record<string, unknown>): string | undefined {
  const conn = body.connection as { type?: unknown } | undefined;
  const d =
    typeof body.dialect === 'string' ? body.dialect : typeof conn?.type === 'string' ? conn.type : undefined;
  // Only a plain engine name reaches the prompt.
  return d && /^[A-Za-z0-9_-]{1,40}$/.test(d) ? d : undefined;
}

export function registerAiRoutes(app: FastifyInstance, options: AiRoutesOptions): void {
  const limiter = new RateLimiter(AI_RATE_BUDGET);
  const preHandler = rateLimitHook(
    () => limiter,
    async (request) => `user:${(await requireSession(request)).username}`,
  );
  for (const { feature, field, description } of FEATURES) {
    app.post(
      `/api/ai/${feature}`,
      {
        preHandler,
        bodyLimit: 1024 * 1024,
        schema: {
          tags: ['ai'],
          description:
            `${description}: \`{${field}${field === 'sql' ? ', dialect?' : ''}}\` → \`{text}\`. One model call; nothing is executed. ` +
            `503 AI_NOT_CONFIGURED without AI_PROVIDER/AI_MODEL; 502 AI_PROVIDER_ERROR, 504 AI_TIMEOUT; over ${AI_MAX_INPUT_CHARS} characters 413.`,
        },
      },
      async (request) => {
        await requireSession(request);
        if (!('client' in options.ai)) throw new HttpError(503, options.ai.reason, 'AI_NOT_CONFIGURED');
        const body = request.body;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
          throw new HttpError(400, 'The body must be a JSON object', 'BAD_REQUEST');
        }
        const b = body as Record<string, unknown>;
        const text = inputText(field, b[field]);
        const answer = await options.ai.client.complete(
          SYSTEM_PROMPTS[feature],
          userMessage(feature, text, dialectOf(b)),
        );
        return { text: answer };
      },
    );
  }
}
