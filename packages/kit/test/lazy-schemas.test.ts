// createApp({ lazySchemas: true }): Fastify's own compilers, run on a route's first request, validate and
// serialize exactly as the eager ones do (a bad body is a 400 in the service's shape, with Ajv's message;
// a response schema drops undeclared properties, as fast-json-stringify does), and compile once per route.
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

function build(lazySchemas: boolean) {
  const app = createApp({ service: 'test', errorShape: 'portal', logger: false, lazySchemas });
  app.post('/things', {
    schema: {
      body: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, size: { type: 'integer' } },
      },
      response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
    },
    handler: async (req) => ({ ...(req.body as object), secret: 'not in the schema' }),
  });
  return app;
}

describe('lazy route schemas', () => {
  const lazy = build(true);
  const eager = build(false);
  afterAll(async () => {
    await lazy.close();
    await eager.close();
  });

  it('answers as the eager compilers do, request after request', async () => {
    const cases = [{ name: 'a' }, {}, { name: 'b', size: 'big' }, { name: 7 }, { name: 'c', size: 3 }];
    for (let round = 0; round < 2; round++) {
      for (const payload of cases) {
        const a = await lazy.inject({ method: 'POST', url: '/things', payload });
        const b = await eager.inject({ method: 'POST', url: '/things', payload });
        expect(a.statusCode).toBe(b.statusCode);
        expect(a.json()).toEqual(b.json());
      }
    }
  });

  it('rejects a bad body with a 400 naming the field, and serializes only declared properties', async () => {
    const bad = await lazy.inject({ method: 'POST', url: '/things', payload: { name: 'x', size: 'big' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST', statusCode: 400 });
    expect(bad.json().error).toContain('size');
    const missing = await lazy.inject({ method: 'POST', url: '/things', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain('name');
    const ok = await lazy.inject({ method: 'POST', url: '/things', payload: { name: 'x' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ name: 'x' });
  });
});
