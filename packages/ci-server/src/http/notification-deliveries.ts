// GET /api/v1/projects/{slug}/notifications/deliveries: the project's notification history from the outbox,
// newest first — each event, channel, status (pending, delivered, failed), attempts, next attempt, last
// error and the receiver's status code. Viewers see URL targets cut to their origin, as on the config.
import { notFound } from '@app/kit';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { StoreDb, StoreSchema } from '../store/database.js';
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

export function registerNotificationDeliveryRoute(api: Api, rawDb: StoreDb): void {
  const db = rawDb as Kysely<StoreSchema & { projects: { id: string; slug: string } }>;
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
      const project = await db
        .selectFrom('projects')
        .select('id')
        .where('slug', '=', request.params.slug)
        .executeTakeFirst();
      if (!project) throw notFound(`project "${request.params.slug}" not found`);
      const { status, event, limit, offset } = request.query;
      let q = db.selectFrom('notification_outbox').where('project_id', '=', project.id);
      if (status) q = q.where('status', '=', status);
      if (event) q = q.where('event', '=', event);
      const [rows, total] = await Promise.all([
        q.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute(),
        q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
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
        total: Number(total.n),
        limit,
        offset,
      };
    },
  });
}
