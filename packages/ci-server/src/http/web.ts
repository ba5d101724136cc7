// Serves the web UI (packages/ci-web, built by Vite into dist/): hashed assets under /assets/ with a year of
// caching, and index.html for any other GET of a page (a path the API does not own, asked for as HTML), so
// the single-page app's addresses can be bookmarked and reloaded. Without a build, such requests get a short
// page saying how to build the UI. API, auth, health and metrics paths never fall back to the page: an
// unknown one stays a JSON 404.
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** packages/ci-web/dist, resolved from this file (src/http/web.ts in packages/ci-server). */
export const DEFAULT_WEB_DIST = new URL('../../../ci-web/dist/', import.meta.url);

/** Path prefixes that belong to the server, never to the UI. */
const SERVER_PATHS = [
  '/api',
  '/auth',
  '/assets',
  '/healthz',
  '/readyz',
  '/version',
  '/metrics',
  '/favicon.svg',
];

/**
 * The UI loads only its own bundled files (scripts, Monaco's workers, fonts) and talks only to this origin;
 * no inline script exists. Styles allow 'unsafe-inline' because the Monaco editor writes its theme and
 * layout rules into <style> elements at run time (it has no nonce support); React style props go through
 * the CSSOM, which CSP does not govern. Scripts stay strictly 'self'.
 */
export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>CI: web UI not built</title></head>
<body>
<h1>The web UI is not built</h1>
<p>the web UI is not built: run npm start or npm run build -w packages/ci-web, then reload this page.</p>
<p>The API is available under /api/v1 (described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>).</p>
</body></html>
`;

export interface WebOptions {
  /** The built UI (default packages/ci-web/dist). */
  dist?: URL | string;
}

function isServerPath(path: string): boolean {
  return SERVER_PATHS.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`));
}

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /\btext\/html\b/i.test(accept);
}

export async function registerWeb(app: FastifyInstance, options: WebOptions = {}): Promise<void> {
  const dist = options.dist ?? DEFAULT_WEB_DIST;
  const distPath = typeof dist === 'string' ? dist : fileURLToPath(dist);
  const indexPath = `${distPath.replace(/\/?$/, '/')}index.html`;
  const assetsPath = `${distPath.replace(/\/?$/, '/')}assets`;

  // index.html is re-read when the build changes (a rebuild renames the hashed assets it points to).
  let cached: { mtimeMs: number; html: Buffer } | undefined;
  const indexHtml = async (): Promise<Buffer | undefined> => {
    try {
      const s = await stat(indexPath);
      if (!cached || cached.mtimeMs !== s.mtimeMs)
        cached = { mtimeMs: s.mtimeMs, html: await readFile(indexPath) };
      return cached.html;
    } catch {
      cached = undefined;
      return undefined;
    }
  };

  await app.register(async (scope) => {
    await scope.register(fastifyStatic, {
      root: assetsPath,
      prefix: '/assets/',
      decorateReply: false,
      index: false,
      // Vite puts a content hash in every asset name: a changed file is a new URL.
      maxAge: '365d',
      immutable: true,
      // The build writes .br and .gz next to each asset (packages/web-kit/build/precompress.ts).
      preCompressed: true,
      wildcard: true,
      // The folder may not exist until the UI is built; one clearer warning is logged below instead.
      suppressWarning: true,
    });
    scope.get('/favicon.svg', { schema: { hide: true } }, async (_request, reply) => {
      const icon = await readFile(`${distPath.replace(/\/?$/, '/')}favicon.svg`).catch(() => undefined);
      if (!icon) return reply.callNotFound();
      return reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(icon);
    });
  });

  if (!(await indexHtml()))
    app.log.warn(
      `the web UI is not built (${indexPath} is missing): run npm start or npm run build -w packages/ci-web`,
    );

  const page = async (reply: FastifyReply) => {
    const html = await indexHtml();
    reply
      .header('content-security-policy', UI_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8');
    if (!html) return reply.code(503).send(NOT_BUILT);
    return reply.code(200).send(html);
  };

  // The fallback runs for requests no route matched (before the JSON 404 handler of @app/kit).
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const path = request.url.split('?')[0];
    // The root is the UI's front door for everyone: curl and other clients that send no `Accept: text/html`
    // get the page too, instead of a 404 that looks like a dead server.
    if (isServerPath(path) || (!wantsHtml(request) && path !== '/')) return;
    return page(reply);
  });
}
