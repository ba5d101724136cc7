// Benchmark: many browsers following one live run. BENCH_FOLLOWERS (default 1,000) SSE clients, in a child
// process so their memory is not the server's, follow `GET /api/v1/runs/{id}/logs/stream` of a running run
// while simulated agents push its lines through `LogStore.appendLogBatch` (what the PushLogs handler calls).
// Figures: the server's memory per attached follower (RSS and V8 heap, before and after they attach, idle),
// ingestion lines/s into the followed run as a ratio to the same push into a run nobody follows, and the
// server's CPU time from the first pushed line until every follower has every line, as a ratio to the CPU of
// the unfollowed push (the aim: at most 2× for 1,000 followers of 10,000 lines), all in the same server and
// the same run of the benchmark; every follower must receive every line. SQLite file.
// Run with `npm run bench` or `node --expose-gc --import tsx bench/sse-followers.bench.ts` (the heap figure
// is taken after a collection when `gc` is exposed; without it the figure is noisy).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { tempDir } from '@app/kit/testing';
import type { CiServer } from '../packages/ci-server/src/index.js';
import { newJobRuns, PIPELINE, text } from './log-ingest.bench.js';
import { withServer } from './runs-list.bench.js';

const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1_000);
const LINES = Number(process.env.BENCH_FOLLOW_LINES ?? 500); // per job; the pipeline has 20 jobs
const BATCH = 50;

// The followers: plain http.get streams counting `event: log` blocks; prints `ready` once every stream is
// open, then `{min,max}` of the lines each received once all have `expected` (or after the deadline).
const FOLLOWER_SCRIPT = `
const http = require('node:http');
const [base, runId, n, expected] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const counts = new Array(Number(n)).fill(0);
let open = 0, done = 0;
const finish = () => { console.log(JSON.stringify({ min: Math.min(...counts), max: Math.max(...counts) })); process.exit(0); };
setTimeout(finish, 300000).unref();
for (let i = 0; i < Number(n); i++) {
  http.get(base + '/api/v1/runs/' + runId + '/logs/stream', { agent }, (res) => {
    if (++open === Number(n)) console.log('ready');
    let tail = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      const text = tail + chunk;
      let at = 0;
      for (;;) { const k = text.indexOf('event: log', at); if (k < 0) break; counts[i]++; at = k + 10; }
      tail = text.slice(Math.max(at, text.length - 9));
      if (counts[i] === Number(expected) && ++done === Number(n)) finish();
    });
  }).on('error', (e) => { console.error(e.message); process.exit(1); });
}`;

const mb = (bytes: number) => bytes / 1024 / 1024;

async function push(server: CiServer, jobIds: string[]): Promise<number> {
  const t0 = process.hrtime.bigint();
  await Promise.all(
    jobIds.map(async (id, j) => {
      for (let from = 1; from <= LINES; from += BATCH)
        await server.execution.logs.appendLogBatch(
          id,
          Array.from({ length: Math.min(BATCH, LINES - from + 1) }, (_, i) => ({
            seq: from + i,
            stream: 'stdout',
            atMs: Date.now(),
            text: text(j, from + i),
          })),
        );
    }),
  );
  return (jobIds.length * LINES) / (Number(process.hrtime.bigint() - t0) / 1e9);
}

async function memory(): Promise<{ rss: number; heap: number }> {
  await new Promise((r) => setTimeout(r, 1_000));
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

export interface FollowerResult {
  followers: number;
  rssPerFollowerKb: number;
  heapPerFollowerKb: number;
  baseline: number;
  target: number;
  ratio: number;
  /** Server CPU ms of the unfollowed push, and from the followed push's start until every follower had every line. */
  baselineCpuMs: number;
  followedCpuMs: number;
  cpuRatio: number;
  everyLineToEveryFollower: boolean;
}

export async function run(): Promise<FollowerResult> {
  console.log(`SSE followers: ${FOLLOWERS} followers of one run, 20 jobs × ${LINES} lines pushed`);
  return withServer(`sqlite:${tempDir('bench-follow-')}/ci.db`, async (server) => {
    const applied = await server.app.inject({
      method: 'POST',
      url: '/api/v1/projects/apply',
      payload: { yaml: PIPELINE },
    });
    if (applied.statusCode !== 200) throw new Error(`apply failed: ${applied.body}`);
    const { httpPort } = await server.listen();
    // Warm-up, then the baseline: a run nobody follows.
    await push(server, await newJobRuns(server));
    const cpu0 = process.cpuUsage();
    const baseline = await push(server, await newJobRuns(server));
    const baselineCpu = process.cpuUsage(cpu0);

    const followed = await newJobRuns(server);
    const { run_id: runId } = await server.database.db
      .selectFrom('job_runs')
      .select('run_id')
      .where('id', '=', followed[0])
      .executeTakeFirstOrThrow();
    const before = await memory();
    const child = spawn(
      process.execPath,
      ['-e', FOLLOWER_SCRIPT, `http://127.0.0.1:${httpPort}`, runId, String(FOLLOWERS), String(20 * LINES)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines: string[] = [];
    child.stdout.setEncoding('utf8');
    let readyResolve: () => void = () => undefined;
    const ready = new Promise<void>((r) => {
      readyResolve = r;
    });
    child.stdout.on('data', (chunk: string) => {
      for (const l of chunk.split('\n').filter(Boolean)) {
        lines.push(l);
        if (l === 'ready') readyResolve();
      }
    });
    await ready;
    const attached = await memory();
    const cpu1 = process.cpuUsage();
    const target = await push(server, followed);
    await once(child, 'exit');
    const followedCpu = process.cpuUsage(cpu1);
    const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
    const report = JSON.parse(lines.find((l) => l.startsWith('{')) ?? '{"min":0,"max":0}');
    const result: FollowerResult = {
      followers: FOLLOWERS,
      rssPerFollowerKb: (attached.rss - before.rss) / 1024 / FOLLOWERS,
      heapPerFollowerKb: (attached.heap - before.heap) / 1024 / FOLLOWERS,
      baseline,
      target,
      ratio: target / baseline,
      baselineCpuMs: cpuMs(baselineCpu),
      followedCpuMs: cpuMs(followedCpu),
      cpuRatio: cpuMs(followedCpu) / cpuMs(baselineCpu),
      everyLineToEveryFollower: report.min === 20 * LINES && report.max === 20 * LINES,
    };
    console.log(
      `  server memory: RSS ${mb(before.rss).toFixed(0)} → ${mb(attached.rss).toFixed(0)} MB, heap ${mb(before.heap).toFixed(0)} → ${mb(attached.heap).toFixed(0)} MB`,
    );
    console.log(
      '\n| followers | lines | RSS per follower | heap per follower | ingest, nobody following | ingest, followed | ratio | server CPU, unfollowed | server CPU, followed until delivered | CPU ratio | every line to every follower |',
    );
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    console.log(
      `| ${FOLLOWERS} | ${20 * LINES} | ${result.rssPerFollowerKb.toFixed(1)} KB | ${result.heapPerFollowerKb.toFixed(1)} KB | ${Math.round(baseline)} lines/s | ${Math.round(target)} lines/s | ${(result.ratio * 100).toFixed(0)} % | ${result.baselineCpuMs.toFixed(0)} ms | ${result.followedCpuMs.toFixed(0)} ms | ${result.cpuRatio.toFixed(2)}× | ${result.everyLineToEveryFollower ? 'yes' : `no (min ${report.min}, max ${report.max})`} |`,
    );
    return result;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
