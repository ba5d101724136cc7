// Client mistakes are clear 400s in the control plane's own `{error}` shape (issue 12): JSON values are
// checked and never coerced, numeric query values must be plain integers in range, path parameters of any
// length get 400/404 (never a framework 414 body), deep nesting and invalid UTF-8 are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { asSession, login, startAuthServer } from '../auth/helpers.js';

let server: CiServer;
let admin: Record<string, string>;

beforeAll(async () => {
  server = await startAuthServer();
  admin = asSession(await login(server, 'admin', 'admin-password-for-tests'));
});
afterAll(async () => {
  await server?.close();
});

const send = async (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: string | Buffer,
  headers: Record<string, string> = {},
) => {
  const res = await server.app.inject({
    method,
    url,
    headers: {
      ...admin,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, text: res.body, json: () => res.json() };
};

/** A 4xx answer whose body is exactly `{error: string}` and carries no framework code. */
function expectServiceError(res: { status: number; text: string }, status?: number) {
  if (status) expect(res.status, res.text).toBe(status);
  else expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  const body = JSON.parse(res.text);
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  expect(res.text).not.toMatch(/FST_|"code"|"statusCode"/);
  return body.error as string;
}

describe('JSON values are checked, never coerced', () => {
  const wrong = ['123', 'true', '["x"]', '{"a":"b"}', 'null'];
  for (const value of wrong) {
    it(`a token name of ${value} is 400 naming the field`, async () => {
      const res = await send('POST', '/api/v1/account/api-tokens', `{"name": ${value}}`);
      expect(expectServiceError(res, 400)).toMatch(/name/);
    });
    it(`a service account name of ${value} is 400`, async () => {
      const res = await send(
        'POST',
        '/api/v1/admin/service-accounts',
        `{"name": ${value}, "role": "viewer"}`,
      );
      expect(expectServiceError(res, 400)).toMatch(/name/);
    });
  }
  it('nothing was created by the refused requests', async () => {
    const tokens = (await send('GET', '/api/v1/account/api-tokens')).json();
    expect(JSON.stringify(tokens)).not.toMatch(/"123"|"true"/);
    const accounts = (await send('GET', '/api/v1/admin/service-accounts')).json();
    expect(accounts.service_accounts).toHaveLength(0);
  });
});

describe('POST /auth/login/local', () => {
  const bodies = [
    '{"username": 1, "password": "x"}',
    '{"username": "admin", "password": 12345678}',
    '{"username": ["admin"], "password": "x"}',
    '{"username": "admin", "password": null}',
    '{"username": "admin", "password": true}',
    '{"username": "admin"',
    '[]',
    '"admin"',
  ];
  for (const body of bodies) {
    it(`refuses ${body} with 400`, async () => {
      const res = await server.app.inject({
        method: 'POST',
        url: '/auth/login/local',
        headers: { 'content-type': 'application/json' },
        payload: body,
      });
      expectServiceError({ status: res.statusCode, text: res.body }, 400);
    });
  }
});

describe('numeric query values', () => {
  const bad = [
    '1e999',
    '1.5',
    '-0',
    'NaN',
    '0x10',
    'Infinity',
    '-Infinity',
    '12345678901234567890',
    '',
    '1e2',
    '+5',
    ' 5',
    '05',
  ];
  const lists = [
    '/api/v1/runs?offset=',
    '/api/v1/runs?limit=',
    '/api/v1/agents?offset=',
    '/api/v1/admin/audit?limit=',
    '/api/v1/admin/users?offset=',
    '/api/v1/admin/service-accounts?limit=',
    '/api/v1/admin/webhooks/deliveries?limit=',
  ];
  for (const list of lists) {
    it(`${list}<bad> is 400 for every malformed value`, async () => {
      for (const value of bad) {
        const res = await send('GET', `${list}${encodeURIComponent(value)}`);
        expectServiceError(res, 400);
      }
    });
  }
  it('a plain integer in range is accepted; out of range is 400; repeated scalar is 400', async () => {
    expect((await send('GET', '/api/v1/runs?limit=5&offset=0')).status).toBe(200);
    expect((await send('GET', '/api/v1/agents?limit=16')).json().limit).toBe(16);
    expectServiceError(await send('GET', '/api/v1/runs?limit=201'), 400);
    expectServiceError(await send('GET', '/api/v1/runs?limit=0'), 400);
    expectServiceError(await send('GET', '/api/v1/runs?limit=5&limit=6'), 400);
    expectServiceError(
      await send('GET', `/api/v1/runs/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}?logs=1e999`),
      400,
    );
  });
  it('boolean query values must be true or false', async () => {
    const id = `${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
    expectServiceError(await send('GET', `/api/v1/runs/${id}/artifacts?download=1`), 400);
    expect((await send('GET', `/api/v1/runs/${id}/artifacts?download=true`)).status).toBe(404);
  });
});

describe('path parameters, nesting and encoding', () => {
  it('a path parameter of 300 or 5,000 characters is 400/404 in the service shape', async () => {
    for (const n of [300, 5_000]) {
      for (const url of [
        `/api/v1/runs/${'a'.repeat(n)}`,
        `/api/v1/projects/${'a'.repeat(n)}`,
        `/api/v1/pipelines/${'a'.repeat(n)}/trigger`,
        `/api/v1/admin/users/${'a'.repeat(n)}`,
      ]) {
        const res = await send(
          url.endsWith('trigger') ? 'POST' : 'GET',
          url,
          url.endsWith('trigger') ? '{}' : undefined,
        );
        expectServiceError(res);
        expect([400, 404]).toContain(res.status);
      }
    }
  });
  it('preferences nested 5,000 deep are 400', async () => {
    const deep = `{"preferences": ${'{"a":'.repeat(5_000)}1${'}'.repeat(5_001)}`;
    const res = await send('PUT', '/api/v1/account/preferences', deep);
    expectServiceError(res, 400);
    const arr = `{"preferences": {"a": ${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    expectServiceError(await send('PUT', '/api/v1/account/preferences', arr), 400);
  });
  it('invalid UTF-8 in a JSON body is 400 saying so', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name": "'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}'),
    ]);
    const res = await send('POST', '/api/v1/account/api-tokens', bytes);
    expect(expectServiceError(res, 400)).toMatch(/UTF-8/);
  });
  it('a wrong content type is 415 in the service shape', async () => {
    const res = await send('POST', '/api/v1/account/api-tokens', 'name=x', { 'content-type': 'text/plain' });
    expectServiceError(res, 415);
  });
});
