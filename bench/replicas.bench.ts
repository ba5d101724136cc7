// Benchmark: replicas on one PostgreSQL (issue 21). Two control planes in this process share a private
// PostgreSQL, as two replicas behind a load balancer would; run changes and stored log lines travel between
// them by LISTEN/NOTIFY (packages/ci-server/src/replicas/).
//
// 1. Pickup: 50 simulated agents (real protocol over loopback HTTP/2, capacity 4) take trivial jobs queued
//    through replica A at a steady offered load (50 jobs/s); pickup = from the commit that queued a job (A's RunEvents)
//    to the agent receiving it. Three layouts: all agents on A (one replica, the baseline), agents spread
//    25/25 over A and B, and all agents on B (every job crosses replicas).
// 2. Log latency: 20 jobs each store 1,000 lines/s through A's LogStore (the PushLogs path; batches of 100
//    every 100 ms, as an agent's shipper batches) for a few seconds; an SSE client reads the run's stream
//    over HTTP, on A (baseline) and on B; each line carries its write time. Then B again with its
//    notifications off, which is how replicas behaved before: the follower's periodic store read.
// Run with `npm run bench` or `node --import tsx bench/replicas.bench.ts`. BENCH_REPLICA_SECONDS sets the
// log phase length (default 3).
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';
import { startPostgres, tempDir } from '../packages/kit/src/testing/index.js';
import { quantile, simAgent, TOKEN } from './dispatch.bench.js';

const AGENTS = 50;
const MATRIX = 20;
const PICKUP_RUNS = 15;
/** Offered load of the pickup phase: one run of 20 jobs every 400 ms (50 jobs/s). */
const GAP_MS = 400;
const LOG_SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 3);
const BATCH = 100;

const bundle = (name: string) => `project: { slug: ${name}, name: ${name} }
pipelines:
  - name: trivial
    materials:
      - git: { url: "https://git.example.test/bench.git", branch: main }
    stages: [build]
    jobs:
      t:
        stage: build
        script: ["true"]
        matrix:
          N: [${Array.from({ length: MATRIX }, (_, i) => `"${i}"`).join(', ')}]
`;

async function replica(url: string): Promise<{ server: CiServer; grpcPort: number; httpPort: number }> {
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('bench-replica-'),
    CI_DATABASE_URL: url,
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: TOKEN,
    CI_SECRET_KEY: '0'.repeat(64),
    CI_AUTH_ENABLED: 'false',
  });
  const server = await createCiServer(settings, { logger: false });
  const { grpcPort, httpPort } = await server.listen();
  return { server, grpcPort, httpPort };
}

async function pipelineOf(server: CiServer, slug: string): Promise<string> {
  const applied = await server.app.inject({
    method: 'POST',
    url: '/api/v1/projects/apply',
    payload: { yaml: bundle(slug) },
  });
  if (applied.statusCode !== 200) throw new Error(applied.body);
  const res = await server.app.inject({ url: `/api/v1/projects/${slug}` });
  return res.json().pipelines[0].id;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Queues PICKUP_RUNS runs through `server` at the offered load; pickup latencies in ms. */
async function pickup(server: CiServer, pipelineId: string, assigned: Map<string, number>) {
  const runnable = new Map<string, number>();
  const onChange = (change: { effects: { kind: string; jobId?: string }[] }) => {
    const now = performance.now();
    for (const e of change.effects) if (e.kind === 'enqueue' && e.jobId) runnable.set(e.jobId, now);
  };
  server.events.on('change', onChange);
  assigned.clear();
  const t0 = performance.now();
  for (let i = 0; i < PICKUP_RUNS; i++) {
    const wait = t0 + i * GAP_MS - performance.now();
    if (wait > 0) await sleep(wait);
    await server.runs.trigger(pipelineId, {}, 'bench');
  }
  while (runnable.size < PICKUP_RUNS * MATRIX || [...runnable.keys()].some((id) => !assigned.has(id)))
    await sleep(5);
  server.events.off('change', onChange);
  while (
    (
      await server.database.db
        .selectFrom('job_runs')
        .select('id')
        .where('status', 'in', ['queued', 'running'])
        .limit(1)
        .execute()
    ).length > 0
  )
    await sleep(5);
  return [...runnable].map(([id, t]) => (assigned.get(id) ?? Number.NaN) - t);
}

async function pickupLayouts(url: string) {
  const a = await replica(url);
  const b = await replica(url);
  const rows: { layout: string; p50: number; p99: number }[] = [];
  try {
    const pipelineId = await pipelineOf(a.server, 'pickup');
    const layouts: [string, number][] = [
      ['1 replica: 50 agents on A', AGENTS],
      ['2 replicas: 25 on A, 25 on B', AGENTS / 2],
      ['2 replicas: 50 on B (all cross)', 0],
    ];
    for (const [layout, onA] of layouts) {
      const assigned = new Map<string, number>();
      const agents = Array.from({ length: AGENTS }, (_, i) =>
        simAgent(i < onA ? a.grpcPort : b.grpcPort, `sim-${layout.length}-${i}`, assigned),
      );
      try {
        await Promise.all(agents.map((g) => g.ready()));
        await pickup(a.server, pipelineId, assigned); // warm-up
        const lat = await pickup(a.server, pipelineId, assigned);
        rows.push({ layout, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99) });
      } finally {
        await Promise.all(agents.map((g) => g.stop()));
      }
    }
  } finally {
    await b.server.close();
    await a.server.close();
  }
  return rows;
}

/** Reads the SSE stream of `runId` from `base` until `total` lines arrived; latency per line in ms. */
async function follow(base: string, runId: string, total: number, ready: () => void): Promise<number[]> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, { signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
  ready();
  const latencies: number[] = [];
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of res.body) {
      const now = performance.timeOrigin + performance.now();
      text += decoder.decode(chunk, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop() ?? '';
      for (const block of blocks) {
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (!data) continue;
        const sent = Number(/^t=(\d+(?:\.\d+)?) /.exec(JSON.parse(data.slice(6)).text)?.[1]);
        if (Number.isFinite(sent)) latencies.push(now - sent);
      }
      if (latencies.length >= total) break;
    }
  } finally {
    controller.abort();
  }
  return latencies;
}

async function logLatency(url: string) {
  const a = await replica(url);
  const b = await replica(url);
  const rows: { reader: string; p50: number; p99: number }[] = [];
  try {
    const pipelineId = await pipelineOf(a.server, 'logs');
    const cases: [string, number, boolean][] = [
      ['warm-up (discarded)', a.httpPort, true],
      ['same replica (A → A)', a.httpPort, true],
      ['other replica (A → B), NOTIFY', b.httpPort, true],
      ['other replica (A → B), poll only', b.httpPort, false],
    ];
    for (const [reader, port, notify] of cases) {
      if (!notify) await b.server.replicas?.stop();
      // No agents: the jobs stay queued and the run open while lines are stored for them.
      const { run_id } = await a.server.runs.trigger(pipelineId, {}, 'bench');
      const jobs = await a.server.database.db
        .selectFrom('job_runs')
        .select('id')
        .where('run_id', '=', run_id)
        .execute();
      const perJob = LOG_SECONDS * 1_000;
      let ready!: () => void;
      const open = new Promise<void>((r) => {
        ready = r;
      });
      const reading = follow(`http://127.0.0.1:${port}`, run_id, jobs.length * perJob, ready);
      await open;
      await sleep(200);
      await Promise.all(
        jobs.map(async ({ id }: { id: string }) => {
          const t0 = performance.now();
          for (let from = 1, k = 0; from <= perJob; from += BATCH, k++) {
            const wait = t0 + k * 100 - performance.now();
            if (wait > 0) await sleep(wait);
            const atMs = Date.now();
            const stamp = performance.timeOrigin + performance.now();
            await a.server.execution.logs.appendLogBatch(
              id,
              Array.from({ length: BATCH }, (_, i) => ({
                seq: from + i,
                stream: 'stdout',
                atMs,
                text: `t=${stamp} line ${from + i} of job ${id}`,
              })),
            );
          }
        }),
      );
      const lat = await reading;
      if (!reader.startsWith('warm-up'))
        rows.push({ reader, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99) });
      // The run ends, and so does every follower's stream.
      await a.server.runs.cancel(run_id).catch(() => undefined);
    }
  } finally {
    await b.server.close();
    await a.server.close();
  }
  return rows;
}

export async function run() {
  const pg = await startPostgres();
  try {
    console.log(`replicas: pickup at ${(MATRIX * 1000) / GAP_MS} jobs/s offered, ${AGENTS} agents`);
    const pick = await pickupLayouts(pg.url);
    console.log('\n| layout | pickup p50 ms | pickup p99 ms | p99 / one replica |');
    console.log('|---|---:|---:|---:|');
    for (const r of pick)
      console.log(
        `| ${r.layout} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.p99 / pick[0].p99).toFixed(2)}× |`,
      );
    console.log(`\nlog latency: ${MATRIX} jobs × 1,000 lines/s for ${LOG_SECONDS} s, batches of ${BATCH}`);
    const logs = await logLatency(pg.url);
    console.log('\n| SSE reader | p50 ms | p99 ms | p50 / same replica |');
    console.log('|---|---:|---:|---:|');
    for (const r of logs)
      console.log(
        `| ${r.reader} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p50 / logs[0].p50).toFixed(2)}× |`,
      );
    return { pick, logs };
  } finally {
    await pg.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
  process.exit(0);
}
