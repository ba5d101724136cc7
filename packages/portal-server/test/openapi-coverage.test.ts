// Every route the portal registers is described in full by GET /api/openapi.json: its path parameters, its
// query or body where it takes one, and a schema for each answer it documents, so a new route cannot be
// added without its request and response schemas (and the web kit's generated types follow them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../src/index.js';
import { portal } from './auth/helpers.js';

type Operation = {
  parameters?: { in: string; name: string; schema?: object }[];
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
};

/** Routes that take no request body although their method could carry one (documented as such). */
const NO_BODY = new Set([
  'POST /api/auth/logout',
  'POST /api/agent/runs/{runId}/cancel',
  'DELETE /api/storage/history',
  'DELETE /mcp',
]);
/** Answers with no body: redirects and the 405s of the stateless MCP endpoint. */
const EMPTY_ANSWER = /^(302|204|405)$/;

let server: PortalServer;
let operations: [string, Operation][];

beforeAll(async () => {
  // A model configured, so the agent routes register too (the model is never called: loopback port 9).
  server = await portal({
    AI_PROVIDER: 'openai',
    AI_BASE_URL: 'http://127.0.0.1:9/v1',
    AI_MODEL: 'coverage',
    AI_API_KEY: 'coverage',
  });
  const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe('the OpenAPI description covers every route', () => {
  it('lists the routes, the agent routes among them', () => {
    expect(operations.length).toBeGreaterThan(70);
    expect(operations.map(([k]) => k)).toContain('POST /api/agent/runs');
  });

  it('documents every path parameter', () => {
    const missing = operations.filter(([key, op]) => {
      const names = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      return names.some((n) => !op.parameters?.some((p) => p.in === 'path' && p.name === n && p.schema));
    });
    expect(missing.map(([k]) => k)).toEqual([]);
  });

  it('documents the body of every route that takes one', () => {
    const missing = operations.filter(([key, op]) => {
      const method = key.split(' ')[0];
      if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) || NO_BODY.has(key)) return false;
      if (method === 'DELETE' && !op.requestBody) return false;
      const content = Object.values(op.requestBody?.content ?? {});
      return content.length === 0 || content.some((c) => !c.schema);
    });
    expect(missing.map(([k]) => k)).toEqual([]);
  });

  it('declares a schema for every answer, at least one of them a success', () => {
    const missing = operations.filter(([, op]) => {
      const codes = Object.keys(op.responses ?? {});
      // A success, or only 405 (the stateless MCP endpoint's GET and DELETE).
      if (!codes.some((c) => /^[23]/.test(c)) && codes.join() !== '405') return true;
      return codes.some((c) => {
        if (EMPTY_ANSWER.test(c)) return false;
        const content = Object.values(op.responses?.[c]?.content ?? {});
        return content.length === 0 || content.some((x) => !x.schema);
      });
    });
    expect(missing.map(([k]) => k)).toEqual([]);
  });
});
