// GET /api/v1/projects/{slug}/notifications/deliveries: the project's notification history from the outbox,
// newest first — each event, channel, status (pending, delivered, failed), attempts, next attempt, last
// error and the receiver's status code. Viewers see URL targets cut to their origin, as on the config.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { StoreDb } from '../store/database.js';
import { projectIdOf } from '../store/lookups.js';
import { listDeliveries } from '../store/notification-outbox.js';
import { roleAtLeast } from './access.js';
import type { Api } from './context.js';
import { errors, SlugParams, Uuid } from './schemas.js';

const Delivery = Type.Object({
  id: Uuid,
  event: Type.String(),
  run_id: Type.Union([Uuid, Type.Null()]),
  channel: Type.Object({ kind: Type.String(), target: Type.String() }),
  status: Type.Enum(['pending', 'delivered', 'failed']),
  attempts: Type.Integer({ minimum: 0 }),
  next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  response_status: Type.Union([Type.Integer(), Type.Null()]),
  idempotency_key: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  delivered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

function shown(target: string, full: boolean): string {
  if (full) return target;
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/…` : target;
  } catch {
    return target;
  }
}

const canSeeTargets = (request: FastifyRequest) =>
  request.principal !== undefined && roleAtLeast(request.principal.role, 'maintainer');

export function registerNotificationDeliveryRoute(api: Api, db: StoreDb): void {
  api.get('/api/v1/projects/:slug/notifications/deliveries', {
    config: { access: 'viewer' },
    schema: {
      tags: ['projects'],
      summary: "The project's notification delivery history",
      description:
        'Newest first. `status`: `pending` (waiting for its next attempt), `delivered` or `failed` (after the ' +
        'last attempt or a permanent refusal). Filter with `status` and `event`.',
      params: SlugParams,
      querystring: Type.Object(
        {
          status: Type.Optional(Type.Enum(['pending', 'delivered', 'failed'])),
          event: Type.Optional(Type.String({ maxLength: 40 })),
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
        ...errors(400, 404),
      },
    },
    handler: async (request) => {
      const projectId = await projectIdOf(db, request.params.slug);
      const { status, event, limit, offset } = request.query;
      const { rows, total } = await listDeliveries(db, projectId, { status, event }, { limit, offset });
      const full = canSeeTargets(request);
      return {
        deliveries: rows.map((r) => ({
          id: r.id,
          event: r.event,
          run_id: r.run_id,
          channel: { kind: r.channel_kind, target: shown(r.target, full) },
          status: r.status,
          attempts: Number(r.attempts),
          next_attempt_at: r.status === 'pending' ? r.next_attempt_at : null,
          last_error: r.last_error,
          response_status: r.response_status === null ? null : Number(r.response_status),
          idempotency_key: r.idempotency_key,
          created_at: r.created_at,
          delivered_at: r.delivered_at,
        })),
        total,
        limit,
        offset,
      };
    },
  });
}
