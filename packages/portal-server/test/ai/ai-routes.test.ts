// The AI routes: "not configured" without a provider (503, agent disabled, agent routes 404, rate limited),
// and with the scripted model: answers grounded in the server's classification (its verdict returned and
// told to the model) and the object surface (hidden objects and masked columns never sent), bad input
// refused before any model call, provider failures without leaks, and the other providers' wire formats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor } from '../auth/helpers.js';
import { type FakeAi, startFakeAi } from './fake-ai.js';
import { type AiHarness, aiPortal } from './harness.js';

const servers: PortalServer[] = [];

async function plain(env: Record<string, string> = {}) {
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

let h: AiHarness;
let fake: FakeAi;
beforeAll(async () => {
  h = await aiPortal();
  fake = await startFakeAi();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await h?.close();
  await fake?.close();
});

describe('AI not configured', () => {
  it('answers 503 AI_NOT_CONFIGURED on every AI route, 401 without a session, 429 over budget', async () => {
    const { post } = await plain();
    for (const route of ['explain', 'query-safety', 'describe-schema']) {
      const r = await post(`/api/ai/${route}`, { sql: 'SELECT 1', schema: 'x' });
      expect(r.statusCode).toBe(503);
      expect(r.json()).toEqual({
        error: 'AI is not configured: set AI_PROVIDER, AI_BASE_URL, AI_MODEL (and AI_API_KEY)',
        code: 'AI_NOT_CONFIGURED',
        statusCode: 503,
      });
    }
    expect((await post('/api/ai/explain', { sql: 'SELECT 1' }, false)).statusCode).toBe(401);
    const codes: number[] = [];
    for (let i = 0; i < 30; i++) codes.push((await post('/api/ai/explain', { sql: 'SELECT 1' })).statusCode);
    expect(codes).toContain(429);
    expect((await post('/api/ai/explain', { sql: 'SELECT 1' })).json().code).toBe('RATE_LIMITED');
  });

  it('reports the agent disabled and answers 404 on the agent routes', async () => {
    const { get, post } = await plain();
    const c = await get('/api/agent/config');
    expect(c.statusCode).toBe(200);
    expect(c.json()).toEqual({ enabled: false, reason: 'AI is not configured' });
    expect((await post('/api/agent/classify', { objective: 'why slow' })).statusCode).toBe(404);
    expect((await post('/api/agent/runs', { objective: 'why slow' })).statusCode).toBe(404);
    expect((await get('/api/agent/runs/r1/artifacts/c1')).statusCode).toBe(404);
    expect((await post('/api/agent/drive', { credential: 'x' })).statusCode).toBe(404);
  });
});

describe('AI configured (scripted OpenAI-compatible model)', () => {
  const lastPrompt = () => JSON.stringify(h.model.requests.at(-1)!.body.messages);

  it('explains a statement with the classifier verdict and the columns it may see', async () => {
    h.model.script.push({ text: 'It lists customers.' });
    const r = await h.call('POST', '/api/ai/explain', {
      connectionId: 'shop',
      sql: 'SELECT name, email FROM customers',
    });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.text).toBe('It lists customers.');
    expect(body.classification).toMatchObject({
      dialect: 'postgres',
      isWrite: false,
      statements: [
        { index: 0, statementType: 'SELECT', kind: 'read', doubtful: false, objects: ['public.customers'] },
      ],
    });
    const prompt = lastPrompt();
    expect(prompt).toContain('READ-ONLY');
    expect(prompt).toContain('public.customers (table): id integer');
    // The masked column's name and type are not part of the grounding (the user's own SQL still names it).
    expect(prompt).not.toMatch(/email character varying/);
    expect(h.model.requests.at(-1)!.headers.authorization).toBe('Bearer sk-harness-key');
  });

  it('reviews safety with the verdict the model may not contradict', async () => {
    h.model.script.push({ text: 'Deletes everything. Risk: high' });
    const r = await h.call('POST', '/api/ai/query-safety', {
      dialect: 'postgres',
      sql: 'DELETE FROM orders',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().classification).toMatchObject({
      isWrite: true,
      statements: [{ statementType: 'DELETE', kind: 'write' }],
    });
    expect(r.json().classification.guardrails.length).toBeGreaterThan(0);
    expect(lastPrompt()).toContain('a WRITE');
    // A statement the parser cannot read counts as a write, whatever the model might think.
    h.model.script.push({ text: 'Looks harmless.' });
    const odd = await h.call('POST', '/api/ai/query-safety', { dialect: 'postgres', sql: 'SELEC 1 FROMM' });
    expect(odd.json().classification.isWrite).toBe(true);
  });

  it('describes a schema from the object surface without hidden objects or masked columns', async () => {
    h.model.script.push({ text: 'Customers and their orders.' });
    const r = await h.call('POST', '/api/ai/describe-schema', { connectionId: 'shop', path: ['public'] });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({
      text: 'Customers and their orders.',
      objects: ['public.customers', 'public.orders'],
    });
    const prompt = lastPrompt();
    expect(prompt).toContain('customer_id integer');
    expect(prompt).not.toContain('secrets');
    expect(prompt).not.toContain('email');
    // The administrator is not held by object rules but masking still applies to what a model reads.
    h.model.script.push({ text: 'ok' });
    const admin = await h.call('POST', '/api/ai/describe-schema', { connectionId: 'shop' }, 'admin');
    expect(admin.json().objects).toContain('public.secrets');
    expect(lastPrompt()).not.toContain('email');
    h.model.script.push({ text: 'A table of orders.' });
    const text = await h.call('POST', '/api/ai/describe-schema', {
      schema: { tables: [{ name: 'orders' }] },
    });
    expect(text.json()).toEqual({ text: 'A table of orders.', objects: [] });
  });

  it('refuses bad bodies with 4xx without calling the model', async () => {
    const before = h.model.requests.length;
    const bad: Array<[string, unknown, number]> = [
      ['explain', {}, 400],
      ['explain', { sql: 42, dialect: 'postgres' }, 400],
      ['explain', { sql: 'SELECT 1' }, 400],
      ['explain', { sql: 'SELECT 1', dialect: 'po stgres' }, 400],
      ['explain', { sql: 'SELECT 1', connectionId: 7 }, 400],
      ['query-safety', { sql: '   ', dialect: 'postgres' }, 400],
      ['describe-schema', { schema: 7 }, 400],
      ['describe-schema', { connectionId: 'shop', path: 'public' }, 400],
      ['describe-schema', { connectionId: 'nope' }, 404],
      ['explain', { sql: 'x'.repeat(100_001), dialect: 'postgres' }, 413],
      ['explain', [1, 2], 400],
    ];
    for (const [route, body, status] of bad) {
      const r = await h.call('POST', `/api/ai/${route}`, body);
      expect(r.statusCode, `${route} ${JSON.stringify(body).slice(0, 60)}`).toBe(status);
      expect(r.json().statusCode).toBe(status);
    }
    expect(h.model.requests.length).toBe(before);
  });

  it('turns a provider failure into 502 without echoing the provider body or the key', async () => {
    h.model.script.push({ status: 401 });
    const r = await h.call('POST', '/api/ai/explain', { sql: 'SELECT 1', dialect: 'postgres' });
    expect(r.statusCode).toBe(502);
    expect(r.json()).toMatchObject({ code: 'AI_PROVIDER_ERROR', statusCode: 502 });
    expect(r.body).not.toContain('sk-echo');
    expect(r.body).not.toContain('sk-harness-key');
  });
});

describe('other providers', () => {
  it('speaks Ollama, Gemini and Anthropic wire formats', async () => {
    const ollama = await plain({ AI_PROVIDER: 'ollama', AI_BASE_URL: fake.url, AI_MODEL: 'llama' });
    const o = await ollama.post('/api/ai/explain', { sql: 'SELECT 2', dialect: 'sqlite' });
    expect(o.statusCode, o.body).toBe(200);
    expect(o.json().text).toBe('This statement reads rows.');
    expect(fake.requests.at(-1)).toMatchObject({ url: '/api/chat', body: { model: 'llama', stream: false } });

    const gemini = await plain({
      AI_PROVIDER: 'gemini',
      AI_BASE_URL: fake.url,
      AI_MODEL: 'gemini-x',
      AI_API_KEY: 'g-key',
    });
    const g = await gemini.post('/api/ai/explain', { sql: 'SELECT 3', dialect: 'sqlite' });
    expect(g.statusCode, g.body).toBe(200);
    expect(g.json().text).toBe('This statement reads rows.');
    const sent = fake.requests.at(-1)!;
    expect(sent.url).toBe('/v1beta/models/gemini-x:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe('g-key');

    const claude = await plain({
      AI_PROVIDER: 'anthropic',
      AI_BASE_URL: fake.url,
      AI_MODEL: 'claude-x',
      AI_API_KEY: 'a-key',
    });
    const a = await claude.post('/api/ai/explain', { sql: 'SELECT 4', dialect: 'sqlite' });
    expect(a.statusCode, a.body).toBe(200);
    expect(fake.requests.at(-1)).toMatchObject({ url: '/v1/messages', body: { model: 'claude-x' } });
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe('a-key');
  });
});
