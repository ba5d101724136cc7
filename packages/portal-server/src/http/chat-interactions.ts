// POST /api/chat/interactions (database-portal.md "Chat interaction callback"): no session; the chat
// platform's signature over the timestamp and the raw body is the credential. The route lives in its own
// scope whose body parser keeps every content type as the exact text received, so the signature is checked
// over the bytes that were signed (a re-serialised body would not match), and before anything is parsed.
import { errorBody } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { InteractionHandler } from '../chat/interactions.js';
import { checkedByHandler } from './request-input.js';
import { errorShape } from './response-schemas.js';

/** Interaction payloads are small; anything bigger is refused before it is buffered. */
const BODY_LIMIT = 64 * 1024;

export function registerChatInteractionRoute(app: FastifyInstance, handler: InteractionHandler): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/chat/interactions',
      {
        bodyLimit: BODY_LIMIT,
        schema: {
          tags: ['chat'],
          summary: 'Chat interaction callback (Approve / Reject buttons)',
          description:
            'Signed by the chat platform: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<raw body>">` under ' +
            'CHAT_SIGNING_SECRET, timestamp within five minutes, each signature once. Body `application/x-www-form-urlencoded` ' +
            '`payload=<block_actions JSON>`. 200 acknowledges (the outcome reaches the presser through `response_url` or the thread); ' +
            '401 `INVALID_SIGNATURE` (audited `invalid_signature`); 400 a signed body that is not an interaction payload.',
          body: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: Type.Object({ payload: Type.String({ description: 'block_actions JSON' }) }),
              },
            },
          },
          response: { 200: Type.Object({ ok: Type.Boolean() }), 400: errorShape, 401: errorShape },
        },
        // The body is the raw signed text: the handler verifies the signature over it, then reads it.
        ...checkedByHandler,
      },
      async (request, reply) => {
        const answer = await handler.handle({
          timestamp: request.headers['x-slack-request-timestamp'],
          signature: request.headers['x-slack-signature'],
          rawBody: typeof request.body === 'string' ? request.body : '',
          ip: request.ip,
        });
        if (answer.status === 200) return reply.code(200).send({ ok: true });
        return reply
          .code(answer.status)
          .send(errorBody('portal', answer.status, answer.message, answer.code));
      },
    );
  });
}
