// The bot execution API (database-portal.md "Bot execution API", "Service tokens and signatures"):
// `Authorization: Bearer pst_…` on every /api/v1 route (401 otherwise), rate limited like a person under the
// token's own name, then POST /api/v1/executions (200 `{execution}` when it ran, 202 while it waits) and
// GET /api/v1/executions/{id} (the record; 404 for another token's request).
import { HttpError } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { BotContext } from '../bot/context.js';
import { getForToken, submit } from '../bot/service.js';
import { toPublicRecord } from '../bot/types.js';
import type { ServiceTokenRepository } from '../storage/service-tokens.js';
import { checkedByHandler } from './request-input.js';
import { BotRecord, BotSubmitted, errorResponses } from './response-schemas.js';
import { admitServiceToken } from './service-token-guard.js';

export interface ExecutionRouteDeps {
  /** Undefined without server storage: the routes answer 503 (no token can exist). */
  bot: BotContext | undefined;
  tokens: ServiceTokenRepository | undefined;
}

const storageUnavailable = () =>
  new HttpError(
    503,
    'The bot API needs server storage (STORAGE_PROVIDER sqlite or postgres)',
    'STORAGE_UNAVAILABLE',
  );

const recordDescription =
  'Bot execution record: `{id, status: pending|approved|rejected, datasourceId, onBehalfOf, createdAt, jobId?, guardrail?, approvalId?, ' +
  'review?: {reason}, approvedBy?, rejection?: rejected|expired, execution?: {status: done|failed, rowCount, fields, rows (masked; at most 200 rows ' +
  'and 256 KB), truncated?, durationMs, error?: closed word}, executedCount?, statements?: [{index, status, rowCount?, durationMs, error?}]}`.';

const ReviewerMark = Type.Object({ reviewer: Type.String(), at: Type.String() });
/** The documented submit body (`bot/validate.ts` checks it). */
const SubmitBody = Type.Object({
  datasourceId: Type.String(),
  statement: Type.String({ maxLength: 32000, description: 'a script' }),
  onBehalfOf: Type.String(),
  reply: Type.Optional(Type.Object({ channel: Type.String(), threadTs: Type.Optional(Type.String()) })),
  callback: Type.Optional(Type.Object({ url: Type.String() })),
  review: Type.Optional(Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) })),
  approvedBy: Type.Optional(Type.Array(ReviewerMark, { minItems: 1, maxItems: 10 })),
  ticket: Type.Optional(Type.String()),
});
const ERRORS = errorResponses(400, 401, 403, 404, 413, 429, 503);

export function registerExecutionRoutes(app: FastifyInstance, deps: ExecutionRouteDeps): void {
  const ready = () => {
    if (!deps.bot || !deps.tokens) throw storageUnavailable();
    return { bot: deps.bot, tokens: deps.tokens };
  };

  app.post(
    '/api/v1/executions',
    {
      schema: {
        tags: ['bot'],
        summary: 'Submit a statement (service token)',
        description:
          'Body `{datasourceId, statement (script of at most 32000 characters), onBehalfOf, reply?: {channel, threadTs?}, callback?: {url}, ' +
          'review?: {reason (1..500)}, approvedBy?: [{reviewer, at}] (1..10, trustedApprovals tokens only), ticket?}`. ' +
          'A guarded UPDATE, DELETE, MERGE or upsert is first dry-run in a rolled-back transaction, as on the session routes: touching every row ' +
          'of a table or more than the policy maxAffectedRows makes it wait (guardrail affected_rows or the every-row guardrail) with the counts on ' +
          'its approval, and once approved it runs held to them (rolled back, execution failed, when it would touch more). ' +
          '200 `{execution: record}` when it ran; 202 `{execution: record}` while it waits (status pending: for reviewers; approved with jobId: ' +
          'for a worker; poll GET /api/v1/executions/{id}). 400 malformed, transaction control, review without reason, approvedBy refused, callback ' +
          'not HTTPS on CALLBACK_ALLOWED_HOSTS; 401 no token; 403 datasource not allowed for the token, read-only, ticket required, freeze window, ' +
          'object rule; 404 unknown datasource; 413 statement over 32000 characters; 429 CONCURRENCY_LIMIT or RATE_LIMITED; 503 no storage or ' +
          `datasource unavailable. ${recordDescription}`,
        body: SubmitBody,
        response: { 200: BotSubmitted, 202: BotSubmitted, ...ERRORS },
      },
      // `submit` checks the body after the token is admitted (401 first), in the bot API's own words.
      ...checkedByHandler,
    },
    async (request, reply) => {
      const { bot, tokens } = ready();
      const token = await admitServiceToken(request, reply, tokens);
      if (!token) return reply;
      const answer = await submit(bot, token, request.body);
      return reply.code(answer.status).send({ execution: toPublicRecord(answer.request) });
    },
  );

  app.get(
    '/api/v1/executions/:id',
    {
      schema: {
        tags: ['bot'],
        summary: 'Read a submitted request (service token)',
        description: `Answers the record itself (poll until \`execution\` is set). 404 for an unknown id or another token's request. ${recordDescription}`,
        params: { type: 'object', properties: { id: { type: 'string', maxLength: 100 } }, required: ['id'] },
        response: { 200: BotRecord, ...ERRORS },
      },
    },
    async (request, reply) => {
      const { bot, tokens } = ready();
      const token = await admitServiceToken(request, reply, tokens);
      if (!token) return reply;
      const { id } = request.params as { id: string };
      return toPublicRecord(await getForToken(bot, token, id));
    },
  );
}
