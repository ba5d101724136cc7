// GET /api/v1/runs/{id}/services: the service runs of a run (one row per job run and service) with their
// lifecycle state `starting`, `ready`, `failed` or `stopped`.
import { notFound } from '@app/kit';
import { Type } from 'typebox';
import type { ExecutionData } from '../services/execution-data.js';
import type { Api } from './context.js';
import { errors, IdParams, Uuid } from './schemas.js';

export const ServiceRun = Type.Object({
  id: Uuid,
  job_run_id: Uuid,
  job_name: Type.String(),
  name: Type.String({ description: 'the service name in the job' }),
  status: Type.Enum(['starting', 'ready', 'failed', 'stopped']),
  message: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'why it failed (not ready in time, exited, could not start)',
  }),
  started_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export function registerServiceRoutes(api: Api, data: ExecutionData): void {
  api.get('/api/v1/runs/:id/services', {
    config: { access: 'viewer' },
    schema: {
      tags: ['runs'],
      summary: "A run's service runs",
      description:
        'One row per job run and service, in start order. A service goes `starting` → `ready` → `stopped`, ' +
        'or to `failed` (final) when it was not ready in time, exited or could not start.',
      params: IdParams,
      querystring: Type.Object({}, { additionalProperties: false }),
      response: { 200: Type.Object({ services: Type.Array(ServiceRun) }), ...errors(400, 404) },
    },
    handler: async (request) => {
      const runId = request.params.id.toLowerCase();
      const services = await data.services.listRunServices(runId);
      if (!services) throw notFound(`run ${runId} does not exist`);
      return { services };
    },
  });
}
