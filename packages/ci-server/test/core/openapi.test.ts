// The OpenAPI description (version 0.2.0, generated from the route schemas, every core route with its
// declared minimum access) and the public routes staying reachable when authentication is on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { type Client, client, STORES, startApiServer } from '../api-helpers.js';
import { startTestCiServer } from '../helpers.js';

const CORE_ROUTES: [string, string, string][] = [
  ['get', '/api/v1/projects', 'viewer'],
  ['get', '/api/v1/projects/{slug}', 'viewer'],
  ['delete', '/api/v1/projects/{slug}', 'maintainer'],
  ['post', '/api/v1/projects/apply', 'maintainer'],
  ['post', '/api/v1/projects/{slug}/run-all', 'maintainer'],
  ['get', '/api/v1/schema/pipeline-bundle.json', 'public'],
  ['post', '/api/v1/pipelines/{id}/trigger', 'maintainer'],
  ['get', '/api/v1/pipelines/{id}/yaml', 'maintainer'],
  ['get', '/api/v1/runs', 'viewer'],
  ['get', '/api/v1/runs/{id}', 'viewer'],
  ['post', '/api/v1/runs/{id}/cancel', 'maintainer'],
  ['post', '/api/v1/runs/{id}/rerun', 'maintainer'],
  ['post', '/api/v1/job_runs/{id}/rerun', 'maintainer'],
  ['post', '/api/v1/job_runs/{id}/approve', 'maintainer'],
  ['post', '/api/v1/job_runs/{id}/reject', 'maintainer'],
  ['get', '/api/v1/projects/{slug}/secrets', 'maintainer'],
  ['post', '/api/v1/projects/{slug}/secrets', 'maintainer'],
  ['delete', '/api/v1/projects/{slug}/secrets/{name}', 'maintainer'],
];

describe.each(STORES)('OpenAPI description on %s', (store) => {
  let server: CiServer;
  let api: Client;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
  });
  afterAll(async () => server?.close());

  it('describes every core route with its schemas and declared access', async () => {
    const res = await api.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.2.0');
    expect(doc.paths['/healthz']).toBeDefined();
    for (const [method, path, access] of CORE_ROUTES) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op['x-access'], `${method} ${path}`).toBe(access);
      expect(op.description).toContain(`Minimum access: ${access}.`);
    }
    const list = doc.paths['/api/v1/runs'].get;
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    const envelope = list.responses['200'].content['application/json'].schema;
    expect(envelope.required.sort()).toEqual(['limit', 'offset', 'runs', 'total']);
    expect(list.responses['400'].content['application/json'].schema.required).toEqual(['error']);
    const apply = doc.paths['/api/v1/projects/apply'].post.requestBody.content;
    expect(Object.keys(apply).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(doc.paths['/api/v1/pipelines/{id}/trigger'].post.requestBody.required).toBe(false);
    const detail = doc.paths['/api/v1/runs/{id}'].get.responses['200'].content['application/json'].schema;
    expect(detail.required).toEqual(expect.arrayContaining(['parameters', 'triggered_by', 'stages']));
  });
});

describe('declared access with authentication on', () => {
  let server: CiServer;
  beforeAll(async () => {
    server = await startTestCiServer();
  });
  afterAll(async () => server?.close());

  it('serves the public routes without credentials and refuses the others', async () => {
    expect((await server.app.inject({ url: '/api/v1/openapi.json' })).statusCode).toBe(200);
    expect((await server.app.inject({ url: '/api/v1/schema/pipeline-bundle.json' })).statusCode).toBe(200);
    const runs = await server.app.inject({ url: '/api/v1/runs' });
    expect(runs.statusCode).toBe(401);
    expect(runs.json()).toEqual({ error: expect.any(String) });
  });
});
