// How the server answers for the web UI without a browser: the page for UI addresses, a "not built" page
// when there is no build, and JSON 404s for API paths and for clients that do not ask for HTML.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';
import { registerWeb } from '../../src/http/web.js';

async function appWith(dist: string) {
  const app = createApp({ service: 'web-test', errorShape: 'ci', logger: false });
  app.get('/api/v1/things', async () => ({ things: [] }));
  await registerWeb(app, { dist });
  await app.ready();
  return app;
}

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('serving the web UI', () => {
  it('says how to build the UI when there is no build, and leaves the API alone', async () => {
    const app = await appWith(join(tempDir('no-web-'), 'dist'));
    const page = await app.inject({ url: '/projects/shop', headers: html });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('the web UI is not built: run npm start or npm run build -w packages/ci-web');
    expect((await app.inject({ url: '/api/v1/things', headers: html })).json()).toEqual({ things: [] });
    await app.close();
  });

  it('answers index.html for UI addresses asked for as HTML, and re-reads it after a rebuild', async () => {
    const dist = tempDir('web-dist-');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<html>first build</html>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const app = await appWith(dist);

    for (const url of ['/', '/runs/01a2', '/login?next=%2Fruns', '/admin/users']) {
      const res = await app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe('<html>first build</html>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    // The root answers the page to clients that do not ask for HTML (curl sends `*/*` or nothing).
    for (const headers of [{ accept: '*/*' }, {}]) {
      const root = await app.inject({ url: '/', headers });
      expect(root.statusCode).toBe(200);
      expect(root.headers['content-type']).toContain('text/html');
      expect(root.body).toBe('<html>first build</html>');
    }
    const head = await app.inject({ method: 'HEAD', url: '/runs', headers: html });
    expect(head.statusCode).toBe(200);

    // Not for API-owned prefixes, not for clients that want JSON, not for other methods.
    for (const url of [
      '/api/v1/missing',
      '/auth/missing',
      '/healthz/x',
      '/metrics/x',
      '/assets/missing.js',
    ]) {
      const res = await app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toHaveProperty('error');
    }
    expect((await app.inject({ url: '/runs', headers: { accept: 'application/json' } })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ url: '/runs' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/runs', headers: html })).statusCode).toBe(404);

    const asset = await app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    // A rebuild (new mtime) is picked up without a restart.
    writeFileSync(join(dist, 'index.html'), '<html>second build</html>');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dist, 'index.html'), later, later);
    expect((await app.inject({ url: '/projects', headers: html })).body).toBe('<html>second build</html>');
    await app.close();
  });
});
