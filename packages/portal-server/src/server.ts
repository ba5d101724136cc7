// Assembles the portal's HTTP app. `createPortalServer` is what main.ts runs and what tests drive.
import { mkdirSync } from 'node:fs';
import { createApp, createMetricsRegistry } from '@app/kit';
import type { FastifyInstance } from 'fastify';
import type { PortalSettings } from './config.js';
import { registerHealthRoutes } from './http/health.js';

export interface PortalServer {
  app: FastifyInstance;
  settings: PortalSettings;
  listen(): Promise<number>;
  close(): Promise<void>;
}

export async function createPortalServer(
  settings: PortalSettings,
  options: { logger?: boolean } = {},
): Promise<PortalServer> {
  mkdirSync(settings.dataDir, { recursive: true });
  const metrics = createMetricsRegistry();
  // Statements may be up to 1048576 characters; JSON escaping can double that.
  const app = createApp({
    service: 'database-portal',
    errorShape: 'portal',
    logger: options.logger ?? true,
    bodyLimit: 8 * 1024 * 1024,
  });
  registerHealthRoutes(app, settings);
  app.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.metrics()));
  return {
    app,
    settings,
    async listen() {
      await app.listen({ host: settings.host, port: settings.port });
      const addr = app.server.address();
      return typeof addr === 'object' && addr ? addr.port : settings.port;
    },
    close: () => app.close(),
  };
}
