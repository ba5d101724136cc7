// Serves the portal's web app (packages/portal-web, built by Vite into dist/): `/assets/*` with a year-long
// immutable cache (file names carry a content hash), and index.html for the app's pages — `/login`, `/` and
// `/admin` through src/http/auth-pages.ts, any other page path (e.g. `/approvals`) through a fallback on unmatched
// GET requests that accept HTML. API, probe, scrape and file-looking paths keep their JSON 404. When dist is
// missing the pages answer a short HTML notice saying how to build it. No inline script anywhere (CSP).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from './roles.js';

/** packages/portal-web/dist/, resolved from this file so the working directory does not matter. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../portal-web/dist/', import.meta.url));

const NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Database Portal</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;
padding:0 1rem;color:#1c2430}code{background:#eef1f5;padding:.1rem .3rem;border-radius:3px}</style></head>
<body><h1>Database Portal</h1><p>The web UI is not built: run <code>npm start</code> or
<code>npm run build -w packages/portal-web</code>, then restart the portal.</p>
<p>The HTTP API under <code>/api</code> works without it.</p></body></html>`;

let cached: { file: string; mtimeMs: number; html: string } | undefined;

/** The built index.html (re-read when the file changes), or undefined when the UI is not built. */
export function spaIndexHtml(distDir: string = WEB_DIST_DIR): string | undefined {
  const file = join(distDir, 'index.html');
  try {
    const { mtimeMs } = statSync(file);
    if (cached?.file !== file || cached.mtimeMs !== mtimeMs) {
      cached = { file, mtimeMs, html: readFileSync(file, 'utf8') };
    }
    return cached.html;
  } catch {
    return undefined;
  }
}

/** Answers a page request with the app's index.html (or the not-built notice); never cached by the browser. */
export function sendSpaIndex(reply: FastifyReply, distDir: string = WEB_DIST_DIR): FastifyReply {
  return reply
    .code(200)
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(spaIndexHtml(distDir) ?? NOT_BUILT_HTML);
}

/** Paths that are never pages: they keep the JSON 404 of an unknown route. */
const NOT_PAGES = ['/api', '/assets', '/mcp', '/metrics', '/healthz', '/auth'];
const HAS_EXTENSION = /\/[^/]*\.[A-Za-z0-9]+$/;

function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = request.headers.accept;
  if (typeof accept !== 'string' || !accept.includes('text/html')) return false;
  const path = pathOf(request.url);
  if (NOT_PAGES.some((p) => path === p || path.startsWith(`${p}/`))) return false;
  return !HAS_EXTENSION.test(path);
}

/**
 * Registers the static assets and the page fallback. Call after the API routes. The session guard's
 * onRequest hook runs first, so a page request without a session is already on its way to /login.
 */
export async function registerWebUi(app: FastifyInstance, options: { distDir?: string } = {}): Promise<void> {
  const distDir = options.distDir ?? WEB_DIST_DIR;
  const assets = join(distDir, 'assets');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, {
      root: assets,
      prefix: '/assets/',
      index: false,
      // Vite names every asset by its content hash: a changed file is a new URL.
      maxAge: '365d',
      immutable: true,
    });
  } else {
    app.log.warn(
      `the web UI is not built (${distDir}): run npm start or npm run build -w packages/portal-web`,
    );
  }
  // Unmatched page paths of the single-page app (client-side routes such as /approvals).
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 || !isPageRequest(request)) return;
    return sendSpaIndex(reply, distDir);
  });
}
