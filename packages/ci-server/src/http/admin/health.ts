// Admin: detailed health — database connection and latency, the trigger scheduler's leader state and tick
// lag, and the agent fleet. Always 200 with `status` ok or degraded; /readyz is the probe for orchestrators.
import { Type } from 'typebox';
import type { Triggers } from '../../triggers/index.js';
import type { Api } from '../context.js';

const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export function registerAdminHealthRoute(api: Api, triggers: Triggers): void {
  api.get('/api/v1/admin/health', {
    config: { access: 'admin' },
    schema: {
      tags: ['admin'],
      summary: 'Detailed health of the control plane',
      description:
        '`database`: a `select 1` round trip. `scheduler`: the trigger timer of this replica (polling and cron), ' +
        'whether it holds the leader lease, when it last ticked and how late that tick started ' +
        '(`tick_lag_ms`; over 10 s makes the status degraded). `agents`: the fleet by status from the store ' +
        '(`source: database`), else the agents connected to this replica (`source: memory`).',
      response: {
        200: Type.Object({
          status: Type.String({ description: 'ok or degraded' }),
          checked_at: Type.String({ format: 'date-time' }),
          database: Type.Object({
            ok: Type.Boolean(),
            dialect: Type.String(),
            latency_ms: Type.Union([Type.Number(), Type.Null()]),
            error: Type.Optional(Type.String()),
          }),
          scheduler: Type.Object({
            running: Type.Boolean(),
            leader: Type.Boolean(),
            holder: Type.String(),
            tick_interval_ms: Type.Integer(),
            last_tick_at: nullable(Type.String({ format: 'date-time' })),
            tick_lag_ms: Type.Union([Type.Number(), Type.Null()]),
            last_error: nullable(Type.String()),
            last_cron_fired_at: nullable(Type.String({ format: 'date-time' })),
          }),
          agents: Type.Object({
            source: Type.String({ description: 'database or memory' }),
            total: Type.Integer(),
            online: Type.Integer(),
            busy: Type.Integer(),
            offline: Type.Integer(),
            capacity: Type.Integer({ description: 'job slots of agents not offline' }),
          }),
        }),
      },
    },
    handler: async () => triggers.health(),
  });
}
