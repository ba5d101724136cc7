// Unauthenticated probe and storage discovery: `GET /api/db/health` answers while the process is up, and
// `GET /api/storage/config` tells the browser whether server-side storage exists.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { PortalSettings } from '../config.js';

const Health = Type.Object({ status: Type.String(), timestamp: Type.String(), service: Type.String() });
const StorageConfig = Type.Object({ provider: Type.String(), serverMode: Type.Boolean() });

export function registerHealthRoutes(app: FastifyInstance, settings: PortalSettings): void {
  const health = { tags: ['health'], description: 'Answers while the process is up (no session).' };
  app.get('/api/db/health', { schema: { ...health, response: { 200: Health } } }, async () => ({
    status: 'ok',
    timestamp: new Date().toISOString(),
    service: 'database-portal',
  }));
  const storage = {
    tags: ['storage'],
    description:
      'Whether server-side storage exists (`serverMode`) and which provider holds it (no session).',
    response: { 200: StorageConfig },
  };
  app.get('/api/storage/config', { schema: storage }, async () => ({
    provider: settings.storageProvider,
    serverMode: settings.storageProvider !== 'local',
  }));
}
