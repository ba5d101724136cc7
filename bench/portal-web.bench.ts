// Benchmark of the portal web app's first load in the system Chromium, ratios to a blank page served by the
// same portal in the same run: page weight (decoded bytes of the document and everything it loads, what
// gzip would make of them, and what actually crossed the wire) and time to interactive (navigation start
// to the first control a person uses being visible and enabled) for the sign-in page, the signed-in
// workspace, and the workspace until the lazily loaded Monaco editor is ready. Every load is a fresh browser
// profile (cold cache). Then the result grid's scrolling: frame times while a 5,000-row result is scrolled
// from top to bottom fast (one step of about twenty rows per animation frame), against the same page's idle
// frames in the same round, with the machine's load average printed beside them (the figures are only
// comparable at similar load). Run with `npm run bench` or `node --import tsx bench/portal-web.bench.ts`;
// BENCH_WEB_ROUNDS changes the rounds, BENCH_WEB_PART=load or =scroll runs one part.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { WEB_DIR } from '../packages/portal-server/test/ui/build-web.js';
import { ADMIN, setSql, startUi, USER } from '../packages/portal-server/test/ui/harness.js';

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
  const part = process.env.BENCH_WEB_PART;
  if (part !== 'scroll') await firstLoad();
  if (part !== 'load') await gridScroll();
}

async function firstLoad(): Promise<void> {
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

const SCROLL_ROWS = 5_000;
const SCROLL_FRAMES = 240;
/** Eight columns of the kinds a real result has: numbers, text, NULLs, empty strings, JSON, dates. */
const SCROLL_SQL = `with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${SCROLL_ROWS})
select n as id, 'customer ' || n as name, case n % 7 when 0 then null else 'Berlin' end as city,
  n * 1.25 as amount, case n % 5 when 0 then '' else 'note ' || (n % 97) end as note,
  json_object('k', n, 'tags', json_array('a', 'b')) as doc, date('2026-01-01', '+' || (n % 365) || ' days') as day,
  n % 2 = 0 as even from seq`;

/**
 * In the page: `frames` animation frames, each moving the grid by an equal step from top to bottom (or not at
 * all for the idle baseline); answers the frame-to-frame times in ms. A string, not a function: tsx would
 * wrap named functions in a helper the page does not have.
 */
const FRAMES_SCRIPT = `([frames, move]) => new Promise((done) => {
  const box = document.querySelector('[data-testid=grid-scroll]');
  box.scrollTop = 0;
  const out = [];
  let last = 0;
  const step = move ? (box.scrollHeight - box.clientHeight) / frames : 0;
  function tick(t) {
    if (last) out.push(t - last);
    last = t;
    box.scrollTop += step;
    if (out.length < frames) requestAnimationFrame(tick);
    else done(out);
  }
  requestAnimationFrame(() => requestAnimationFrame(tick));
})`;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;

async function gridScroll(): Promise<void> {
  const ui = await startUi();
  try {
    const { context, page } = await ui.newPage();
    // A benchmark on a loaded machine waits as long as the machine needs; the figures say how loaded it was.
    context.setDefaultTimeout(120_000);
    await ui.signIn(page, USER);
    await page.getByRole('button', { name: /^Sales/ }).click();
    await setSql(page, SCROLL_SQL);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByTestId('row-count').filter({ hasText: /^500$/ }).waitFor();
    await page.getByRole('button', { name: 'Fetch all' }).click();
    await page
      .getByTestId('row-count')
      .filter({ hasText: new RegExp(`^${SCROLL_ROWS}$`) })
      .waitFor({ timeout: 120_000 });
    const frames = (move: boolean) =>
      page.evaluate(`(${FRAMES_SCRIPT})([${SCROLL_FRAMES}, ${move}])`) as Promise<number[]>;
    await frames(true); // warm-up: the first pass compiles the row code and fills the caches
    const rounds: { idle: number[]; scroll: number[]; load: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const idle = await frames(false);
      const scroll = await frames(true);
      rounds.push({ idle, scroll, load: loadavg()[0] });
    }
    const domRows = await page.locator('[data-testid=grid-scroll] tbody tr').count();
    const figure = (pick: (r: (typeof rounds)[number]) => number) => {
      const xs = rounds.map(pick);
      return `${median(xs).toFixed(1)} ms (${spread(xs)})`;
    };
    console.log(
      `grid scroll, ${SCROLL_ROWS.toLocaleString('en')} rows × 8 columns, ${SCROLL_FRAMES} frames per pass, ${ROUNDS} rounds (median of rounds, min–max):`,
    );
    console.log('| frames | median | p95 | max |');
    console.log('| --- | ---: | ---: | ---: |');
    console.log(
      `| idle (baseline) | ${figure((r) => pct(r.idle, 0.5))} | ${figure((r) => pct(r.idle, 0.95))} | ${figure((r) => Math.max(...r.idle))} |`,
    );
    console.log(
      `| fast scroll | ${figure((r) => pct(r.scroll, 0.5))} | ${figure((r) => pct(r.scroll, 0.95))} | ${figure((r) => Math.max(...r.scroll))} |`,
    );
    const ratio = median(rounds.map((r) => pct(r.scroll, 0.95) / pct(r.idle, 0.95)));
    console.log(
      `scroll p95 / idle p95 ${ratio.toFixed(2)}×; rows in the DOM ${domRows}; load average (1 min) per round ${rounds.map((r) => r.load.toFixed(1)).join(', ')} on ${availableParallelism()} cores`,
    );
  } finally {
    await ui.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
