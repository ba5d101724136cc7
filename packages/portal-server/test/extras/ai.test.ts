// The AI routes, the agent config and the agent's absent routes: unconfigured (503 AI_NOT_CONFIGURED,
// enabled false, 404) and configured against a local fake provider for each of the three wire formats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor } from '../auth/helpers.js';
import { type FakeAi, startFakeAi } from './fake-ai.js';

let fake: FakeAi;
const servers: PortalServer[] = [];

async function signedIn(env: Record<string, string> = {}) {
  const server = await portal(env);
  servers.push(server);
  const cookie = `auth-token=${await sessionFor(server, ADMIN)}`;
  const post = (url: string, payload: unknown, withCookie = true) =>
    server.app.inject({
      method: 'POST',
      url,
      payload: payload as object,
      headers: { origin: ORIGIN, ...(withCookie ? { cookie } : {}) },
    });
  const get = (url: string) => server.app.inject({ method: 'GET', url, headers: { cookie } });
  return { server, post, get };
}

beforeAll(async () => {
  fake = await startFakeAi();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await fake?.close();
});

describe('AI not configured', () => {
  it('answers 503 AI_NOT_CONFIGURED on every AI route, and 401 without a session', async () => {
    const { post } = await signedIn();
    for (const route of ['explain', 'query-safety', 'describe-schema']) {
      const r = await post(`/api/ai/${route}`, { sql: 'SELECT 1', schema: 'x' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({
        error: 'AI is not configured: set AI_PROVIDER, AI_BASE_URL, AI_MODEL (and AI_API_KEY)',
        code: 'AI_NOT_CONFIGURED',
        statusCode: 503,
      });
    }
    const anon = await post('/api/ai/explain', { sql: 'SELECT 1' }, false);
    expect(anon.statusCode).toBe(401);
  });

  it('reports the agent disabled and answers 404 on the agent routes', async () => {
    const { get, post } = await signedIn();
    const c = await get('/api/agent/config');
    expect(c.statusCode).toBe(200);
    expect(c.json()).toEqual({ enabled: false, reason: 'AI is not configured' });
    expect((await post('/api/agent/classify', { objective: 'why slow' })).statusCode).toBe(404);
    expect((await post('/api/agent/runs', { objective: 'why slow' })).statusCode).toBe(404);
    expect((await get('/api/agent/runs/r1/artifacts/c1')).statusCode).toBe(404);
  });
});

describe('AI configured (OpenAI-compatible fake on 127.0.0.1)', () => {
  it('sends one request with the system prompt and the SQL and answers {text}', async () => {
    const { post, get } = await signedIn({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: `${fake.url}/v1`,
      AI_MODEL: 'fake-model',
      AI_API_KEY: 'sk-test-secret',
    });
    const before = fake.requests.length;
    const r = await post('/api/ai/explain', { sql: 'DROP TABLE users', dialect: 'postgres' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ text: 'This statement reads rows.' });
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-secret');
    expect(sent.body.model).toBe('fake-model');
    const messages = sent.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]?.role).toBe('system');
    expect(messages[1]?.content).toContain('DROP TABLE users');
    expect(messages[1]?.content).toContain('postgres');

    const safety = await post('/api/ai/query-safety', { sql: 'DELETE FROM t' });
    expect(safety.statusCode).toBe(200);
    expect((fake.requests.at(-1)!.body.messages as Array<{ content: string }>)[0]?.content).toMatch(/risk/i);
    const schema = await post('/api/ai/describe-schema', { schema: { tables: [{ name: 'orders' }] } });
    expect(schema.statusCode).toBe(200);
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('orders');

    expect((await get('/api/agent/config')).json()).toEqual({
      enabled: false,
      reason: 'The investigation agent is not available in this version',
    });
    expect((await post('/api/agent/classify', { objective: 'x' })).statusCode).toBe(404);
  });

  it('refuses bad bodies with 400/413 without calling the model', async () => {
    const { post } = await signedIn({ AI_PROVIDER: 'openai', AI_BASE_URL: fake.url, AI_MODEL: 'm' });
    const before = fake.requests.length;
    expect((await post('/api/ai/explain', {})).json()).toMatchObject({
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
    expect((await post('/api/ai/explain', { sql: 42 })).statusCode).toBe(400);
    expect((await post('/api/ai/query-safety', { sql: '   ' })).statusCode).toBe(400);
    expect((await post('/api/ai/describe-schema', { schema: 7 })).statusCode).toBe(400);
    expect((await post('/api/ai/explain', { sql: 'x'.repeat(100_001) })).statusCode).toBe(413);
    expect(fake.requests.length).toBe(before);
  });

  it('turns a provider failure into 502 without echoing the provider body or the key', async () => {
    const { post } = await signedIn({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: fake.url,
      AI_MODEL: 'm',
      AI_API_KEY: 'sk-echo',
    });
    fake.status = 401;
    try {
      const r = await post('/api/ai/explain', { sql: 'SELECT 1' });
      expect(r.statusCode).toBe(502);
      expect(r.json()).toMatchObject({ code: 'AI_PROVIDER_ERROR', statusCode: 502 });
      expect(r.body).not.toContain('sk-echo');
    } finally {
      fake.status = 200;
    }
  });

  it('speaks Ollama and Gemini wire formats', async () => {
    const ollama = await signedIn({ AI_PROVIDER: 'ollama', AI_BASE_URL: fake.url, AI_MODEL: 'llama' });
    const o = await ollama.post('/api/ai/explain', { sql: 'SELECT 2' });
    expect(o.json()).toEqual({ text: 'This statement reads rows.' });
    expect(fake.requests.at(-1)).toMatchObject({ url: '/api/chat', body: { model: 'llama', stream: false } });

    const gemini = await signedIn({
      AI_PROVIDER: 'gemini',
      AI_BASE_URL: fake.url,
      AI_MODEL: 'gemini-x',
      AI_API_KEY: 'g-key',
    });
    const g = await gemini.post('/api/ai/explain', { sql: 'SELECT 3' });
    expect(g.json()).toEqual({ text: 'This statement reads rows.' });
    const sent = fake.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-x:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('g-key');
    expect(sent.url).not.toContain('g-key');
  });
});
