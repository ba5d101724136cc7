// The 404 matrix of the three deployment roles (PORTAL_ROLE), on the real server and on the pure rule.
import { describe, expect, it } from 'vitest';
import { admits } from '../../src/http/roles.js';
import { ADMIN, portal, sessionFor } from './helpers.js';

type Row = [method: string, url: string];
// Paths a role does not admit must answer 404 even when they exist in studio.
const MATRIX: Array<{ req: Row; studio: boolean; agent: boolean; worker: boolean }> = [
  { req: ['GET', '/api/db/health'], studio: true, agent: true, worker: true },
  { req: ['HEAD', '/api/db/health'], studio: true, agent: true, worker: true },
  { req: ['GET', '/metrics'], studio: true, agent: true, worker: true },
  { req: ['POST', '/api/db/health'], studio: true, agent: false, worker: false },
  { req: ['GET', '/api/storage/config'], studio: true, agent: false, worker: false },
  { req: ['POST', '/api/auth/login'], studio: true, agent: false, worker: false },
  { req: ['GET', '/api/auth/me'], studio: true, agent: false, worker: false },
  { req: ['GET', '/api/auth/oidc/login'], studio: true, agent: false, worker: false },
  { req: ['GET', '/login'], studio: true, agent: false, worker: false },
  { req: ['GET', '/'], studio: true, agent: false, worker: false },
  { req: ['GET', '/admin'], studio: true, agent: false, worker: false },
  { req: ['POST', '/api/db/query'], studio: true, agent: false, worker: false },
  { req: ['GET', '/api/connections/managed'], studio: true, agent: false, worker: false },
  { req: ['GET', '/api/admin/audit'], studio: true, agent: false, worker: false },
  { req: ['POST', '/api/chat/interactions'], studio: true, agent: false, worker: false },
  // Probe routes stand in for the bot API and MCP endpoint (added by the test, as later issues build them).
  { req: ['POST', '/api/v1/__probe'], studio: true, agent: true, worker: false },
  { req: ['GET', '/api/v1/__probe'], studio: true, agent: true, worker: false },
  { req: ['POST', '/mcp/__probe'], studio: true, agent: true, worker: false },
  { req: ['GET', '/api/v1x'], studio: true, agent: false, worker: false },
  { req: ['GET', '/mcpx'], studio: true, agent: false, worker: false },
];

describe('admits (pure rule)', () => {
  it.each([
    ...MATRIX,
    { req: ['POST', '/api/v1/executions'] as Row, studio: true, agent: true, worker: false },
    { req: ['GET', '/api/v1'] as Row, studio: true, agent: true, worker: false },
    { req: ['POST', '/mcp'] as Row, studio: true, agent: true, worker: false },
    { req: ['DELETE', '/metrics'] as Row, studio: true, agent: false, worker: false },
  ])('$req.0 $req.1', ({ req: [method, url], studio, agent, worker }) => {
    expect(admits('studio', method, url)).toBe(studio);
    expect(admits('agent', method, url)).toBe(agent);
    expect(admits('worker', method, url)).toBe(worker);
  });
});

describe('deployment roles on the server', () => {
  it.each(['agent', 'worker'] as const)('%s answers 404 for every path it does not admit', async (role) => {
    const server = await portal({ PORTAL_ROLE: role });
    server.app.route({
      method: ['GET', 'POST'],
      url: '/api/v1/__probe',
      handler: async () => ({ ok: true }),
    });
    server.app.post('/mcp/__probe', async () => ({ ok: true }));
    const token = await (async () => {
      const studio = await portal();
      try {
        return await sessionFor(studio, ADMIN); // same JWT_SECRET: a valid session must not open anything
      } finally {
        await studio.close();
      }
    })();
    for (const { req, ...allowed } of MATRIX) {
      const [method, url] = req;
      const res = await server.app.inject({
        method: method as 'GET',
        url,
        cookies: { 'auth-token': token },
        headers: { origin: 'http://localhost' },
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      if (allowed[role]) expect(res.statusCode, `${method} ${url}`).toBeLessThan(300);
      else {
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        if (method !== 'HEAD') expect(res.json()).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
      }
    }
    // The probe and the scrape route really answer.
    expect((await server.app.inject({ url: '/api/db/health' })).json().status).toBe('ok');
    expect((await server.app.inject({ url: '/metrics' })).statusCode).toBe(200);
    await server.close();
  });

  it('studio answers the sign-in routes', async () => {
    const server = await portal();
    expect((await server.app.inject({ url: '/login' })).statusCode).toBe(200);
    expect((await server.app.inject({ url: '/api/auth/me' })).statusCode).toBe(401);
    await server.close();
  });
});
