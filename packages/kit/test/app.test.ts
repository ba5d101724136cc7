import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { HttpError } from '../src/http-errors.js';

function build(shape: 'ci' | 'portal') {
  const app = createApp({ service: 'test', errorShape: shape, logger: false, bodyLimit: 1024 });
  app.get('/things/:id', async (req) => ({ id: (req.params as { id: string }).id }));
  app.post('/things', {
    schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    handler: async () => ({ ok: true }),
  });
  app.get('/teapot', async () => {
    throw new HttpError(418, 'short and stout', 'TEAPOT');
  });
  app.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  return app;
}

describe('app factory', () => {
  it('answers the CI error shape', async () => {
    const app = build('ci');
    const nf = await app.inject({ method: 'GET', url: '/nope' });
    expect(nf.statusCode).toBe(404);
    expect(nf.json()).toEqual({ error: 'Route GET /nope not found' });
    const bad = await app.inject({ method: 'POST', url: '/things', payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['error']);
  });

  it('answers the portal error shape', async () => {
    const app = build('portal');
    const res = await app.inject({ method: 'GET', url: '/teapot' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ error: 'short and stout', code: 'TEAPOT', statusCode: 418 });
  });

  it('distinguishes 405 from 404', async () => {
    const app = build('ci');
    const res = await app.inject({ method: 'DELETE', url: '/things/1' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('GET');
  });

  it('refuses malformed JSON and oversize bodies with 4xx', async () => {
    const app = build('portal');
    const bad = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('BAD_REQUEST');
    const big = await app.inject({ method: 'POST', url: '/things', payload: { name: 'x'.repeat(5000) } });
    expect(big.statusCode).toBe(413);
  });

  it('hides internal error details and echoes request ids', async () => {
    const app = build('ci');
    const res = await app.inject({ method: 'GET', url: '/boom', headers: { 'x-request-id': 'abc-123' } });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
    expect(res.headers['x-request-id']).toBe('abc-123');
    const gen = await app.inject({ method: 'GET', url: '/things/1' });
    expect(gen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('request logging', () => {
  it('drops query-string values from logged URLs', async () => {
    const { redactQuery } = await import('../src/logger.js');
    expect(redactQuery('/auth/callback/oidc?code=abc&state=xyz')).toBe('/auth/callback/oidc?code=…&state=…');
    expect(redactQuery('/healthz')).toBe('/healthz');
    const lines: string[] = [];
    const { loggerOptions } = await import('../src/logger.js');
    const app = createApp({
      service: 't',
      errorShape: 'ci',
      logger: { ...loggerOptions('t'), stream: { write: (l: string) => lines.push(l) } } as never,
    });
    app.get('/cb', async () => 'ok');
    await app.inject({ method: 'GET', url: '/cb?code=supersecretcode' });
    expect(lines.join('')).toContain('/cb?code=…');
    expect(lines.join('')).not.toContain('supersecretcode');
  });
});
