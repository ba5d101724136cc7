// Unauthenticated probe and storage discovery: `GET /api/db/health` answers while the process is up, and
// `GET /api/storage/config` tells the browser whether server-side storage exists.
import type { FastifyInstance } from 'fastify';
import type { PortalSettings } from '../config.js';

export function registerHealthRoutes(app: FastifyInstance, settings: PortalSettings): void {
  app.get('/api/db/health', async () => ({
    status: 'ok',
    timestamp: new Date().toISOString(),
    service: 'database-portal',
  }));
  app.get('/api/storage/config', async () => ({
    provider: settings.storageProvider,
    serverMode: settings.storageProvider !== 'local',
  }));
}
