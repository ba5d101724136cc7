// Unauthenticated health and metadata routes: liveness, readiness (database reachable and migrated),
// build information and the Prometheus scrape.
import { type Migrations, migrationsDone, pingDatabase, type Registry } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { BuildInfo } from '../version.js';

export interface HealthDeps {
  db: Kysely<any>;
  migrations: Migrations;
  metrics: Registry;
  build: BuildInfo;
}

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  let migrated = false;

  app.get('/healthz', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('ok'));

  app.get('/readyz', async (_req, reply) => {
    reply.type('text/plain; charset=utf-8');
    try {
      await pingDatabase(deps.db);
      // Once the migrations are known to be applied they stay applied; only the ping is repeated.
      migrated ||= await migrationsDone(deps.db, deps.migrations);
      if (!migrated) return reply.code(503).send('not ready: database migrations are pending');
      return reply.send('ready');
    } catch (err) {
      return reply.code(503).send(`not ready: database unreachable: ${(err as Error).message}`);
    }
  });

  app.get('/version', {
    schema: {
      response: {
        200: {
          type: 'object',
          required: ['version', 'commit', 'build_date'],
          properties: {
            version: { type: 'string' },
            commit: { type: 'string' },
            build_date: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
    handler: async () => deps.build,
  });

  app.get('/metrics', async (_req, reply) => {
    reply.type(deps.metrics.contentType);
    return deps.metrics.metrics();
  });
}
