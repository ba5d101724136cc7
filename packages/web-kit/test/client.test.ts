// The kit's API client against a real HTTP server on loopback: JSON in and out, cookies sent, each service's
// error shape read into ApiError (CI `{error}`, portal `{error, code, statusCode}`), a 401 announced unless
// quiet, non-JSON error bodies shown as text, an unreachable server as status 0, and the small helpers.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, queryString } from '../src/api/client.js';
import { pathOf } from '../src/api/typed.js';
import { safeNext } from '../src/router/next.js';

let server: Server;
let base: string;
const seen: { method: string; url: string; body: string; contentType?: string }[] = [];

async function bodyOf(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      body,
      contentType: req.headers['content-type'],
    });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url?.startsWith('/ok')) return json(200, { echo: body ? JSON.parse(body) : null, url: req.url });
    if (req.url === '/created') return json(201, { id: 'x' });
    if (req.url === '/empty') {
      res.writeHead(204);
      return res.end();
    }
    if (req.url === '/ci-error') return json(409, { error: 'Run is already finished' });
    if (req.url === '/portal-error')
      return json(403, {
        error: 'Approval required',
        code: 'APPROVAL_REQUIRED',
        statusCode: 403,
        approval: { id: 'a1' },
      });
    if (req.url === '/unauth') return json(401, { error: 'Sign in first' });
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<h1>Bad gateway</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('createApiClient', () => {
  it('sends JSON bodies and query strings and parses JSON answers', async () => {
    const api = createApiClient({ errorShape: 'ci', baseUrl: base });
    const res = await api.post<{ echo: unknown; url: string }>(
      '/ok',
      { a: 1 },
      { query: { q: 'x y', n: 2, skip: '' } },
    );
    expect(res.echo).toEqual({ a: 1 });
    expect(res.url).toBe('/ok?q=x+y&n=2');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', contentType: 'application/json' });
    expect(await api.get('/created')).toEqual({ id: 'x' });
    expect(await api.del('/empty')).toBeUndefined();
  });

  it("reads CI's {error} shape", async () => {
    const api = createApiClient({ errorShape: 'ci', baseUrl: base });
    const err = await api.post('/ci-error').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, message: 'Run is already finished', code: undefined });
  });

  it("reads the portal's {error, code, statusCode} shape with its extras", async () => {
    const api = createApiClient({ errorShape: 'portal', baseUrl: base });
    const err = (await api.get('/portal-error').catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ status: 403, message: 'Approval required', code: 'APPROVAL_REQUIRED' });
    expect(err.body.approval).toEqual({ id: 'a1' });
  });

  it('announces a 401 unless the call is quiet', async () => {
    let announced = 0;
    const api = createApiClient({ errorShape: 'ci', baseUrl: base, onUnauthorized: () => announced++ });
    await expect(api.get('/unauth')).rejects.toMatchObject({ status: 401, message: 'Sign in first' });
    expect(announced).toBe(1);
    await expect(api.get('/unauth', { quiet401: true })).rejects.toMatchObject({ status: 401 });
    expect(announced).toBe(1);
  });

  it('shows a non-JSON error body as text and an unreachable server as status 0', async () => {
    const api = createApiClient({ errorShape: 'ci', baseUrl: base });
    await expect(api.get('/nowhere')).rejects.toMatchObject({ status: 502, message: '<h1>Bad gateway</h1>' });
    const closed = createApiClient({ errorShape: 'ci', baseUrl: 'http://127.0.0.1:1' });
    await expect(closed.get('/x')).rejects.toMatchObject({ status: 0 });
  });
});

describe('helpers', () => {
  it('builds query strings from defined values, repeating arrays', () => {
    expect(queryString({ a: 1, b: undefined, c: null, d: '', e: ['x', 'y'], f: false })).toBe(
      '?a=1&e=x&e=y&f=false',
    );
    expect(queryString({})).toBe('');
  });

  it('fills path templates with encoded values and refuses a missing one', () => {
    expect(pathOf('/api/v1/runs/{id}/jobs/{job}', { id: 'a/b', job: 3 })).toBe('/api/v1/runs/a%2Fb/jobs/3');
    expect(() => pathOf('/api/v1/runs/{id}', {})).toThrow('missing path parameter id');
  });

  it('only follows sign-in targets on this site', () => {
    expect(safeNext('/runs/1?x=2')).toBe('/runs/1?x=2');
    for (const bad of [null, '', 'https://evil.test', '//evil.test', '/\\evil.test', '/login?next=/x'])
      expect(safeNext(bad)).toBe('/');
  });
});
