// Deployment roles (`PORTAL_ROLE`): `studio` answers everything; `agent` only the bot API (`/api/v1/*`), the
// MCP endpoint, the probe and the scrape route; `worker` only the probe and the scrape route. Every path a
// role does not admit answers 404, before any other check, as if it did not exist.
import { errorBody } from '@app/kit';
import type { FastifyInstance } from 'fastify';

export type DeploymentRole = 'studio' | 'agent' | 'worker';

function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Whether a deployment role answers `method path` (path without the query string). */
export function admits(role: DeploymentRole, method: string, path: string): boolean {
  if (role === 'studio') return true;
  const probeOrScrape = isRead(method) && (path === '/api/db/health' || path === '/metrics');
  if (role === 'worker') return probeOrScrape;
  return probeOrScrape || underPrefix(path, '/api/v1') || underPrefix(path, '/mcp');
}

export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function registerRoleFilter(app: FastifyInstance, role: DeploymentRole): void {
  if (role === 'studio') return;
  app.addHook('onRequest', async (request, reply) => {
    const path = pathOf(request.url);
    if (admits(role, request.method, path)) return;
    return reply
      .code(404)
      .send(errorBody('portal', 404, `Route ${request.method} ${path} not found`, 'NOT_FOUND'));
  });
}
