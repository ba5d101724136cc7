// Benchmark of the portal web app's first load in the system Chromium, ratios to a blank page served by the
// same portal in the same run: page weight (decoded bytes of the document and everything it loads, what
// gzip would make of them, and what actually crossed the wire) and time to interactive (navigation start
// to the first control a person uses being visible and enabled) for the sign-in page, the signed-in
// workspace, and the workspace until the lazily loaded Monaco editor is ready. Every load is a fresh browser profile (cold cache). Run with
// `npm run bench` or `node --import tsx bench/portal-web.bench.ts`; BENCH_WEB_ROUNDS changes the rounds.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { WEB_DIR } from '../packages/portal-server/test/ui/build-web.js';
import { ADMIN, startUi } from '../packages/portal-server/test/ui/harness.js';

const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 7);
const BLANK = 'bench-blank.html';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Load {
  ms: number;
  bytes: number;
  gzipBytes: number;
  /** What crossed the wire: encoded bodies (the portal serves pre-compressed assets) plus headers. */
  wireBytes: number;
  requests: number;
}

/** One cold load: a fresh profile, optionally signed in, timed until `ready` resolves. */
async function load(
  browser: Browser,
  baseUrl: string,
  path: string,
  ready: (page: Page) => Promise<unknown>,
  signIn = false,
): Promise<Load> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 720 } });
  try {
    if (signIn) {
      const res = await context.request.post('/api/auth/login', {
        data: { email: ADMIN.email, password: ADMIN.password },
      });
      if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`);
    }
    const page = await context.newPage();
    let bytes = 0;
    let gzipBytes = 0;
    let wireBytes = 0;
    let requests = 0;
    page.on('response', async (r) => {
      if (r.url().includes('/api/')) return;
      try {
        const body = await r.body();
        const headers = await r.allHeaders();
        requests++;
        bytes += body.length + JSON.stringify(headers).length;
        gzipBytes += gzipSync(body).length + JSON.stringify(headers).length;
        const sizes = await r.request().sizes();
        wireBytes += sizes.responseBodySize + sizes.responseHeadersSize;
      } catch {
        // A redirect has no body.
      }
    });
    const started = performance.now();
    await page.goto(path);
    await ready(page);
    const ms = performance.now() - started;
    await page.waitForLoadState('networkidle');
    return { ms, bytes, gzipBytes, wireBytes, requests };
  } finally {
    await context.close();
  }
}

export async function run(): Promise<void> {
  const ui = await startUi();
  const blankFile = join(WEB_DIR, 'dist', 'assets', BLANK);
  // The baseline: a page with one enabled button, served by the same static route as the app's assets.
  writeFileSync(
    blankFile,
    '<!doctype html><html><head><meta charset="utf-8"><title>blank</title></head><body><button id="ready">ready</button></body></html>',
  );
  try {
    const cases: [string, string, (p: Page) => Promise<unknown>, boolean][] = [
      ['blank page (baseline)', `/assets/${BLANK}`, (p) => p.locator('#ready').waitFor(), false],
      [
        'sign-in page',
        '/login',
        (p) => p.getByRole('button', { name: 'Sign in', exact: true }).waitFor(),
        false,
      ],
      ['workspace (signed in)', '/', (p) => p.getByRole('button', { name: /^Sales/ }).waitFor(), true],
      [
        'workspace + editor ready',
        '/',
        async (p) => {
          await p.getByRole('button', { name: /^Sales/ }).click();
          await p.getByTestId('sql-editor').locator('.view-lines').waitFor();
        },
        true,
      ],
    ];
    const results: Array<Omit<Load, 'ms'> & { name: string; ms: number }> = [];
    for (const [name, path, ready, signIn] of cases) {
      await load(ui.browser, ui.baseUrl, path, ready, signIn); // warm the server's file cache
      const loads: Load[] = [];
      for (let i = 0; i < ROUNDS; i++) loads.push(await load(ui.browser, ui.baseUrl, path, ready, signIn));
      results.push({
        name,
        ms: median(loads.map((l) => l.ms)),
        bytes: median(loads.map((l) => l.bytes)),
        gzipBytes: median(loads.map((l) => l.gzipBytes)),
        wireBytes: median(loads.map((l) => l.wireBytes)),
        requests: median(loads.map((l) => l.requests)),
      });
    }
    const base = results[0];
    console.log(
      '| page | requests | weight | weight if gzipped | over the wire | weight / blank | wire / blank | time to interactive (median) | TTI / blank |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.requests} | ${kb(r.bytes)} | ${kb(r.gzipBytes)} | ${kb(r.wireBytes)} | ${(r.bytes / base.bytes).toFixed(1)}× | ${(r.wireBytes / base.wireBytes).toFixed(1)}× | ${r.ms.toFixed(0)} ms | ${(r.ms / base.ms).toFixed(1)}× |`,
      );
    }
    const index = readFileSync(join(WEB_DIR, 'dist', 'index.html'), 'utf8');
    console.log(
      `(${ROUNDS} cold loads each; index.html loads ${(index.match(/<script|<link rel="(?:stylesheet|modulepreload)"/g) ?? []).length} files up front)`,
    );
  } finally {
    rmSync(blankFile, { force: true });
    await ui.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
