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

/** A plain-text answer, described so clients (and response checks) know the media type. */
const text = (description: string) => ({
  description,
  content: { 'text/plain': { schema: { type: 'string' } } },
});

export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  let migrated = false;

  app.get(
    '/healthz',
    { schema: { summary: 'Liveness: the process answers', response: { 200: text('`ok`') } } },
    async (_req, reply) => reply.type('text/plain; charset=utf-8').send('ok'),
  );

  const readiness = {
    summary: 'Readiness: the database is reachable and migrated',
    response: { 200: text('`ready`'), 503: text('`not ready: <why>`') },
  };
  app.get('/readyz', { schema: readiness }, async (_req, reply) => {
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
      summary: 'Build information',
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

  const scrape = {
    summary: 'Prometheus metrics',
    response: {
      200: {
        description: 'Prometheus text exposition format 0.0.4',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
  };
  app.get('/metrics', { schema: scrape }, async (_req, reply) => {
    reply.type(deps.metrics.contentType);
    return deps.metrics.metrics();
  });
}
