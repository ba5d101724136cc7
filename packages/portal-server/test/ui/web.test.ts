// Serving of the web app without a browser (src/http/web.ts, src/http/auth-pages.ts): assets with a long cache,
// index.html for page paths that accept HTML, JSON 404s everywhere else, the not-built notice, and the open
// `GET /api/auth/providers` the sign-in page reads.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebUi, sendSpaIndex } from '../../src/http/web.js';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, portal, sessionFor, USER } from '../auth/helpers.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

async function appWith(distDir: string): Promise<FastifyInstance> {
  const app = createApp({ service: 'web-test', errorShape: 'portal', logger: false });
  app.get('/api/thing', async () => ({ ok: true }));
  app.get('/login', async (_req, reply) => sendSpaIndex(reply, distDir));
  await registerWebUi(app, { distDir });
  await app.ready();
  return app;
}

describe('web app serving', () => {
  let built: FastifyInstance;
  let missing: FastifyInstance;

  beforeAll(async () => {
    const dist = tempDir('portal-web-dist-');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>SPA</title><script type="module" src="/assets/app-1.js"></script>',
    );
    writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1);');
    built = await appWith(dist);
    missing = await appWith(join(dist, 'nope'));
  });
  afterAll(async () => {
    await built?.close();
    await missing?.close();
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await built.inject({ url: '/assets/app-1.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe('console.log(1);');
    const gone = await built.inject({ url: '/assets/app-2.js', headers: HTML });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers index.html for page paths that accept HTML, never cached', async () => {
    for (const url of ['/login', '/approvals', '/some/deep/page?x=1']) {
      const res = await built.inject({ url, headers: HTML });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<title>SPA</title>');
    }
  });

  it('keeps JSON 404s for API, probe, scrape and file paths and for non-HTML requests', async () => {
    for (const url of ['/api/nothing', '/metrics', '/mcp/x', '/healthz', '/robots.txt', '/approvals']) {
      const headers = url === '/approvals' ? { accept: 'application/json' } : HTML;
      const res = await built.inject({ url, headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ statusCode: 404 });
    }
    const post = await built.inject({ method: 'POST', url: '/approvals', headers: HTML });
    expect(post.statusCode).toBe(404);
    expect((await built.inject({ url: '/api/thing', headers: HTML })).json()).toEqual({ ok: true });
  });

  it('answers a notice saying how to build the UI when dist is missing', async () => {
    for (const url of ['/login', '/approvals']) {
      const res = await missing.inject({ url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('The web UI is not built');
      expect(res.body).toContain('npm run build -w packages/portal-web');
      expect(res.body).not.toContain('<script');
    }
    expect((await missing.inject({ url: '/assets/app-1.js' })).statusCode).toBe(404);
  });
});

describe('pages on the portal', () => {
  let server: PortalServer;
  let userToken: string;
  let adminToken: string;

  beforeAll(async () => {
    server = await portal({ USER_EMAIL: USER.email, USER_PASSWORD: USER.password });
    userToken = await sessionFor(server, USER);
    adminToken = await sessionFor(server, ADMIN);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells the sign-in page which providers are on, without a session', async () => {
    const res = await server.app.inject({ url: '/api/auth/providers' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ provider: 'local', local: true, oidc: false });
    // Discovery is lazy, so an OIDC portal starts without reaching the provider.
    const sso = await portal({
      PUBLIC_AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 'client-secret-value',
    });
    try {
      const answer = await sso.app.inject({ url: '/api/auth/providers' });
      expect(answer.json()).toEqual({ provider: 'oidc', local: true, oidc: true });
    } finally {
      await sso.close();
    }
  });

  it('redirects anonymous page requests to /login and serves the app to a session', async () => {
    for (const url of ['/', '/admin', '/approvals']) {
      const anon = await server.app.inject({ url, headers: HTML });
      expect(anon.statusCode, url).toBe(302);
      expect(anon.headers.location).toBe('/login');
      const res = await server.app.inject({ url, headers: HTML, cookies: { 'auth-token': adminToken } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
    const userAdmin = await server.app.inject({ url: '/admin', cookies: { 'auth-token': userToken } });
    expect(userAdmin.statusCode).toBe(302);
    expect(userAdmin.headers.location).toBe('/');
    expect((await server.app.inject({ url: '/login', headers: HTML })).statusCode).toBe(200);
  });
});
