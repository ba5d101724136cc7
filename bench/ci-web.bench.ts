// Benchmark: the CI web UI in the system Chromium. (1) Page weight: bytes the browser fetches for the first
// load of each page (HTML, JS, CSS, fonts, workers; uncompressed, as served) as a ratio to the sign-in page
// of the same build. (2) The log viewer on a 200,000-line log against the same page with a 1,000-line log
// in the same run: JS heap after a forced garbage collection, DOM nodes, and frame times while the log is
// scrolled through (one scroll step per animation frame). Run with `npm run bench` or
// `node --import tsx bench/ci-web.bench.ts`; BENCH_LOG_LINES changes the big log's size.
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { jobsOf, startJob } from '../packages/ci-server/test/core/agent-sim.js';
import {
  ADMIN_PASSWORD,
  apiSession,
  BUNDLE,
  openPage,
  signIn,
  startUi,
} from '../packages/ci-server/test/ui/harness.js';

const BIG = Number(process.env.BENCH_LOG_LINES ?? 200_000);
const SMALL = 1_000;
const FRAMES = 240;

function line(i: number) {
  const text =
    i % 10_000 === 1 ? `::group::Chunk ${i}` : `step ${i}: \u001b[32mok\u001b[0m compiled module-${i % 977}`;
  return { seq: i, stream: i % 50 === 0 ? 'stderr' : 'stdout', atMs: Date.UTC(2026, 0, 1) + i, text };
}

/** Bytes of everything but API data fetched while `path` loads in a fresh context (empty cache). */
async function weigh(
  env: Awaited<ReturnType<typeof startUi>>,
  storageState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined,
  path: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<number> {
  const context = await env.browser.newContext({
    baseURL: env.base,
    viewport: { width: 1280, height: 720 },
    storageState,
  });
  try {
    const page = await context.newPage();
    const sizes: Promise<number>[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/api/')) return; // data, not page weight
      sizes.push(
        res.body().then(
          (b) => b.length,
          () => 0,
        ),
      );
    });
    await page.goto(path);
    await ready(page);
    await page.waitForLoadState('networkidle');
    return (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  } finally {
    await context.close();
  }
}

/** Scrolls the log from top to bottom in FRAMES steps, one per animation frame; answers the frame times. */
const SCROLL_SCRIPT = `new Promise((done) => {
  const box = document.querySelector('[role=log]');
  box.scrollTop = 0;
  const out = [];
  let last = 0;
  const step = Math.max(1, (box.scrollHeight - box.clientHeight) / FRAMES);
  function tick(t) {
    if (last) out.push(t - last);
    last = t;
    box.scrollTop += step;
    if (out.length < FRAMES) requestAnimationFrame(tick);
    else done(out);
  }
  requestAnimationFrame(tick);
})`;

interface ViewerFigures {
  lines: number;
  heapMb: number;
  domNodes: number;
  frameMedianMs: number;
  frameP95Ms: number;
}

async function measureViewer(page: Page, runUrl: string, lines: number): Promise<ViewerFigures> {
  await page.goto(runUrl);
  await page
    .getByRole('tab', { name: /compile/ })
    .getByText(lines.toLocaleString('en'), { exact: true })
    .waitFor({ timeout: 300_000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('Performance.enable');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  // A string, not a function: tsx would wrap named functions in a helper the page does not have.
  const frames = (await page.evaluate(SCROLL_SCRIPT.replace('FRAMES', String(FRAMES)))) as number[];
  frames.sort((a, b) => a - b);
  await cdp.detach();
  return {
    lines,
    heapMb: metric('JSHeapUsedSize') / 1024 / 1024,
    domNodes: metric('Nodes'),
    frameMedianMs: frames[Math.floor(frames.length / 2)],
    frameP95Ms: frames[Math.floor(frames.length * 0.95)],
  };
}

export async function run(): Promise<void> {
  const env = await startUi();
  try {
    const admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
    await admin.post('/api/v1/projects/apply', { yaml: BUNDLE });
    const project = await admin.get('/api/v1/projects/webshop');
    const build = project.body.pipelines.find((p: { name: string }) => p.name === 'build').id;
    const logRun = async (count: number) => {
      const runId = (await admin.post(`/api/v1/pipelines/${build}/trigger`)).body.run_id as string;
      const compile = (await jobsOf(env.server, runId)).find((j) => j.name === 'compile')!.id;
      await startJob(env.server, compile);
      for (let from = 1; from <= count; from += 5000)
        await env.server.execution.logs.appendLogBatch(
          compile,
          Array.from({ length: Math.min(5000, count - from + 1) }, (_, i) => line(from + i)),
        );
      return runId;
    };
    const small = await logRun(SMALL);
    const big = await logRun(BIG);

    const { page, context } = await openPage(env, { width: 1280, height: 720 });
    const signin = await weigh(env, undefined, '/login', (p) => p.getByLabel('Username').waitFor());
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const state = await context.storageState();
    const pages: [string, string, (p: Page) => Promise<unknown>][] = [
      ['projects', '/projects', (p) => p.getByRole('link', { name: 'Web Shop' }).waitFor()],
      ['run (graph, log)', `/runs/${small}`, (p) => p.getByTestId('graph-node-compile').waitFor()],
      ['apply (Monaco)', '/apply', (p) => p.locator('.monaco-editor').waitFor()],
    ];
    console.log('page weight (bytes fetched on first load, uncompressed; ratio to the sign-in page)');
    console.log(`  sign-in               ${(signin / 1024).toFixed(0).padStart(6)} KiB  1.00×`);
    for (const [name, path, ready] of pages) {
      const bytes = await weigh(env, state, path, ready);
      console.log(
        `  ${name.padEnd(21)} ${(bytes / 1024).toFixed(0).padStart(6)} KiB  ${(bytes / signin).toFixed(2)}×`,
      );
    }

    const base = await measureViewer(page, `/runs/${small}`, SMALL);
    const target = await measureViewer(page, `/runs/${big}`, BIG);
    console.log(
      `log viewer (${BIG.toLocaleString('en')} lines vs ${SMALL.toLocaleString('en')}, ${FRAMES} scroll frames)`,
    );
    for (const f of [base, target])
      console.log(
        `  ${String(f.lines).padStart(7)} lines  heap ${f.heapMb.toFixed(1).padStart(6)} MiB  DOM nodes ${String(f.domNodes).padStart(6)}  frame median ${f.frameMedianMs.toFixed(1)} ms  p95 ${f.frameP95Ms.toFixed(1)} ms`,
      );
    console.log(
      `  ratio                heap ${(target.heapMb / base.heapMb).toFixed(2)}×  DOM nodes ${(target.domNodes / base.domNodes).toFixed(2)}×  frame median ${(target.frameMedianMs / base.frameMedianMs).toFixed(2)}×  p95 ${(target.frameP95Ms / base.frameP95Ms).toFixed(2)}×`,
    );
    await context.close();
  } finally {
    await env.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
