// Admin: the inbound webhook delivery history, newest first, and one delivery in full (headers with secrets
// redacted, the first 64 KiB of the body).
import { Type } from 'typebox';
import type { Triggers } from '../../triggers/index.js';
import type { Api } from '../context.js';
import { errors, IdParams, Uuid } from '../schemas.js';

const nullableString = Type.Union([Type.String(), Type.Null()]);

const Delivery = Type.Object({
  id: Uuid,
  scm: Type.String({ description: 'github, gitlab or bitbucket' }),
  event: Type.String({ description: "the host's event name" }),
  delivery_id: Type.Union([Type.String(), Type.Null()], { description: "the host's delivery id" }),
  status: Type.String({
    description: 'accepted (runs started), rejected (4xx) or ignored (verified, nothing to run)',
  }),
  status_code: Type.Integer(),
  reason: Type.String(),
  repository: nullableString,
  ref: nullableString,
  revision: nullableString,
  run_ids: Type.Array(Uuid),
  received_at: Type.String({ format: 'date-time' }),
});

const DeliveryDetail = Type.Object({
  ...Delivery.properties,
  headers: Type.Record(Type.String(), Type.String(), {
    description: 'request headers; signatures, tokens and cookies are `[redacted]`',
  }),
  payload: Type.String({ description: 'the body as text, credentials in URLs masked' }),
  payload_bytes: Type.Integer(),
  payload_truncated: Type.Boolean({ description: 'only the first 64 KiB are kept' }),
});

export function registerAdminWebhookRoutes(api: Api, triggers: Triggers): void {
  api.get('/api/v1/admin/webhooks', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Inbound webhook deliveries, newest first',
      description: 'Every delivery is kept, whatever its outcome, for 30 days and at most the newest 5,000.',
      querystring: Type.Object(
        {
          scm: Type.Optional(
            Type.Union([Type.Literal('github'), Type.Literal('gitlab'), Type.Literal('bitbucket')]),
          ),
          status: Type.Optional(
            Type.Union([Type.Literal('accepted'), Type.Literal('rejected'), Type.Literal('ignored')]),
          ),
          limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
          offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          deliveries: Type.Array(Delivery),
          total: Type.Integer(),
          limit: Type.Integer(),
          offset: Type.Integer(),
        }),
        ...errors(400),
      },
    },
    handler: async (request) => triggers.deliveries.list(request.query),
  });

  api.get('/api/v1/admin/webhooks/:id', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'One webhook delivery with its headers and body',
      params: IdParams,
      response: { 200: DeliveryDetail, ...errors(400, 404) },
    },
    handler: async (request) => triggers.deliveries.get(request.params.id),
  });
}
