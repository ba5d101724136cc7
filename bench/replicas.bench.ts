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
// log phase length (default 3), BENCH_REPLICA_RATE the lines per second of each job (default 1,000).
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AgentConnection, LogShipper, loadAgentSettings } from '../packages/ci-agent/src/index.js';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';
import { type ServerProcess, startServerProcess } from '../packages/ci-server/test/e2e/server-process.js';
import { freePort } from '../packages/kit/src/index.js';
import { startPostgres, tempDir } from '../packages/kit/src/testing/index.js';
import { grpcTlsEnv, quantile, simAgent, TOKEN } from './dispatch.bench.js';

const AGENTS = 50;
const MATRIX = 20;
const PICKUP_RUNS = 15;
const WARMUP_RUNS = 3;
/** Rounds of the pickup phase (each measures every layout); BENCH_REPLICA_ROUNDS, default 5. */
const ROUNDS = Number(process.env.BENCH_REPLICA_ROUNDS ?? 5);
/** Offered load of the pickup phase: one run of 20 jobs every 400 ms (50 jobs/s). */
const GAP_MS = 400;
/** BENCH_REPLICA_ONLY=pickup or logs runs one part. */
const ONLY = process.env.BENCH_REPLICA_ONLY;
const LOG_SECONDS = Number(process.env.BENCH_REPLICA_SECONDS ?? 5);
/** Lines per second per job (default 1,000 as issue 21 asks); one batch of a tenth every 100 ms. */
const RATE = Number(process.env.BENCH_REPLICA_RATE ?? 1_000);

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
    ...grpcTlsEnv(),
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

const printerBundle = `project: { slug: printer, name: printer }
pipelines:
  - name: print
    materials:
      - git: { url: "https://git.example.test/bench.git", branch: main }
    stages: [build]
    jobs:
      p:
        stage: build
        tags: [printer]
        script: ["true"]
        matrix:
          N: [${Array.from({ length: MATRIX }, (_, i) => `"${i}"`).join(', ')}]
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Queues `runs` runs through `server` at the offered load; pickup latencies in ms. */
async function pickup(server: CiServer, pipelineId: string, assigned: Map<string, number>, runs: number) {
  const runnable = new Map<string, number>();
  const onChange = (change: { effects: { kind: string; jobId?: string }[] }) => {
    const now = performance.now();
    for (const e of change.effects) if (e.kind === 'enqueue' && e.jobId) runnable.set(e.jobId, now);
  };
  server.events.on('change', onChange);
  assigned.clear();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const wait = t0 + i * GAP_MS - performance.now();
    if (wait > 0) await sleep(wait);
    await server.runs.trigger(pipelineId, {}, 'bench');
  }
  while (runnable.size < runs * MATRIX || [...runnable.keys()].some((id) => !assigned.has(id)))
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

interface PickupRow {
  layout: string;
  /** One p50 and one p99 per round. */
  p50s: number[];
  p99s: number[];
}

const median = (xs: number[]) => quantile(xs, 0.5);

/**
 * ROUNDS rounds; each round measures every layout in turn (agents connected, a warm-up run, then
 * PICKUP_RUNS runs), so a drift in the machine's load touches every layout alike. Reported: the median of
 * the rounds' p50 and p99, and their range (how much one round's figure varies).
 */
async function pickupLayouts(url: string): Promise<PickupRow[]> {
  const a = await replica(url);
  const b = await replica(url);
  const layouts: [string, number][] = [
    ['1 replica: 50 agents on A', AGENTS],
    ['2 replicas: 25 on A, 25 on B', AGENTS / 2],
    ['2 replicas: 50 on B (all cross)', 0],
  ];
  const rows: PickupRow[] = layouts.map(([layout]) => ({ layout, p50s: [], p99s: [] }));
  try {
    const pipelineId = await pipelineOf(a.server, 'pickup');
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [layout, onA]] of layouts.entries()) {
        const assigned = new Map<string, number>();
        const agents = Array.from({ length: AGENTS }, (_, k) =>
          simAgent(k < onA ? a.grpcPort : b.grpcPort, `sim-${round}-${i}-${k}`, assigned),
        );
        try {
          await Promise.all(agents.map((g) => g.ready()));
          await pickup(a.server, pipelineId, assigned, WARMUP_RUNS);
          const lat = await pickup(a.server, pipelineId, assigned, PICKUP_RUNS);
          rows[i].p50s.push(quantile(lat, 0.5));
          rows[i].p99s.push(quantile(lat, 0.99));
          console.log(
            `  round ${round + 1} ${layout}: p50 ${rows[i].p50s.at(-1)?.toFixed(1)} ms, p99 ${rows[i].p99s.at(-1)?.toFixed(1)} ms`,
          );
        } finally {
          await Promise.all(agents.map((g) => g.stop()));
        }
      }
    }
  } finally {
    await b.server.close();
    await a.server.close();
  }
  return rows;
}

/**
 * Reads the SSE stream of `runId` from `base` until `total` lines arrived or `deadline` (epoch ms) passed;
 * the latency of each line in ms (its text carries its write time).
 */
async function follow(base: string, runId: string, total: number, deadline: number): Promise<number[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
  const latencies: number[] = [];
  try {
    const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, { signal: controller.signal });
    if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
    const decoder = new TextDecoder();
    let text = '';
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
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return latencies;
}

/**
 * An agent speaking the real protocol whose jobs each print RATE lines/s for `seconds` (a tenth of that
 * every 10 ms, each line stamped with its write time) into the real agent's LogShipper with its default
 * batching (a batch 200 ms after its first line, or at 2,000 lines) over PushLogs, then finish.
 */
function printingAgent(grpcPort: number, name: string, seconds: () => number, go: () => Promise<void>) {
  const held = new Set<string>();
  /** Per batch: from its first line's write to the server's acknowledgement (stored), in ms. */
  const stored: number[] = [];
  const conn: AgentConnection = new AgentConnection(
    loadAgentSettings({
      // The replicas serve cleartext gRPC (startServerProcess sets CI_GRPC_TLS=off): say so with the scheme.
      CI_SERVER: `http://127.0.0.1:${grpcPort}`,
      CI_AGENT_TOKEN: TOKEN,
      CI_AGENT_NAME: name,
      CI_AGENT_CAPACITY: String(MATRIX),
      CI_AGENT_TAGS: 'printer',
    }),
    {
      // A benchmark that cannot connect would wait for ever without a word: say why.
      onUnreachable: (e) =>
        console.error(`  ${name}: control plane unreachable (${e.reason}), retry in ${e.retryInMs} ms`),
      onRejected: (e) => console.error(`  ${name}: registration refused (${e.reason})`),
      onFatal: (e) => console.error(`  ${name}: stopped (${e.reason})`),
      onServerMessage: (m) => {
        if (m.kind.case !== 'assignment') return;
        const id = m.kind.value.jobRunId;
        held.add(id);
        const report = (kind: Parameters<AgentConnection['client']['reportJob']>[0]['kind']) =>
          conn.call((o) => conn.client.reportJob({ jobRunId: id, kind }, o));
        void (async () => {
          await report({ case: 'started', value: {} });
          const shipper = new LogShipper(async (lines) => {
            const ack = await conn.call((o) => conn.client.pushLogs({ jobRunId: id, lines }, o));
            const sent = Number(/^t=(\d+(?:\.\d+)?) /.exec(lines[0].text)?.[1]);
            stored.push(performance.timeOrigin + performance.now() - sent);
            return Number(ack.ackedSeq);
          });
          await go();
          const total = Math.round(seconds() * RATE);
          const t0 = performance.now();
          for (let seq = 1, k = 0; seq <= total; k++) {
            const wait = t0 + k * 10 - performance.now();
            if (wait > 0) await sleep(wait);
            const stamp = performance.timeOrigin + performance.now();
            const at = new Date().toISOString();
            for (const end = Math.min(total, seq + RATE / 100 - 1); seq <= end; seq++)
              shipper.push({ seq, stream: 'stdout', at, text: `t=${stamp} line ${seq} of job ${id}` });
          }
          await shipper.flush();
          await report({ case: 'finished', value: { status: 'success', hasExitCode: true } });
          held.delete(id);
        })().catch((err) => console.error(`printing job ${id}: ${String(err)}`));
      },
    },
  );
  conn.runningJobIds = () => [...held];
  const running = conn.run();
  return {
    stored,
    ready: () => conn.session(),
    stop: async () => {
      conn.stop();
      await running;
    },
  };
}

/** A replica as its own process (`main.ts`), so replicas, writers and readers do not share one event loop. */
async function replicaProcess(url: string): Promise<ServerProcess & { grpcPort: number }> {
  const grpcPort = await freePort();
  const server = startServerProcess({
    CI_DATA_DIR: tempDir('bench-replica-'),
    CI_DATABASE_URL: url,
    CI_HTTP_PORT: String(await freePort()),
    CI_GRPC_PORT: String(grpcPort),
    CI_AGENT_TOKEN: TOKEN,
    CI_SECRET_KEY: '0'.repeat(64),
    CI_AUTH_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  });
  await server.ready(120_000);
  return Object.assign(server, { grpcPort });
}

async function post(base: string, path: string, body: unknown): Promise<{ run_id: string }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { run_id: string };
}

/**
 * One run of MATRIX printing jobs through replica A, read at the same time by an SSE client on A and one
 * on B: both readers see the same lines from the same writers in the same seconds, so their ratio holds
 * whatever the machine's load.
 */
async function logLatency(url: string) {
  const a = await replicaProcess(url);
  const b = await replicaProcess(url);
  let seconds = 1;
  let release!: () => void;
  let go = new Promise<void>((r) => {
    release = r;
  });
  // One agent running all MATRIX jobs at once; each job has its own shipper, as in the real agent.
  const agent = printingAgent(
    a.grpcPort,
    'printer',
    () => seconds,
    () => go,
  );
  const rows: { reader: string; p50: number; p99: number; lines: number }[] = [];
  try {
    await agent.ready();
    await post(a.base, '/api/v1/projects/apply', { yaml: printerBundle });
    const project = (await (await fetch(`${a.base}/api/v1/projects/printer`)).json()) as {
      pipelines: { id: string }[];
    };
    const pipelineId = project.pipelines[0].id as string;
    for (const [phase, length] of [
      ['warm-up', 1],
      ['measured', LOG_SECONDS],
    ] as const) {
      seconds = length;
      agent.stored.length = 0;
      const { run_id } = await post(a.base, `/api/v1/pipelines/${pipelineId}/trigger`, {});
      const total = MATRIX * Math.round(length * RATE);
      const deadline = Date.now() + (length + 30) * 1000;
      const readers = [follow(a.base, run_id, total, deadline), follow(b.base, run_id, total, deadline)];
      // Both streams are open (they answer at once with what is stored: nothing yet) before lines are made.
      await sleep(500);
      release();
      const [onA, onB] = await Promise.all(readers);
      go = new Promise<void>((r) => {
        release = r;
      });
      if (phase === 'warm-up') continue;
      for (const [reader, lat] of [
        ['stored (agent write → acknowledged, first line of a batch)', agent.stored],
        ['same replica (A → A)', onA],
        ['other replica (A → B), NOTIFY', onB],
      ] as const)
        rows.push({ reader, p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), lines: lat.length });
    }
  } finally {
    await agent.stop();
    await b.stop();
    await a.stop();
  }
  return rows;
}

export async function run() {
  const pg = await startPostgres();
  try {
    console.log(`replicas: pickup at ${(MATRIX * 1000) / GAP_MS} jobs/s offered, ${AGENTS} agents`);
    const pick = ONLY === 'logs' ? [] : await pickupLayouts(pg.url);
    if (pick.length > 0) {
      const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
      console.log(`\n${ROUNDS} rounds; medians of the rounds, and their range`);
      console.log('| layout | pickup p50 ms | p50 range | pickup p99 ms | p99 range | p99 / one replica |');
      console.log('|---|---:|---:|---:|---:|---:|');
      for (const r of pick)
        console.log(
          `| ${r.layout} | ${median(r.p50s).toFixed(1)} | ${range(r.p50s)} | ${median(r.p99s).toFixed(1)} | ${range(r.p99s)} | ${(median(r.p99s) / median(pick[0].p99s)).toFixed(2)}× |`,
        );
    }
    if (ONLY === 'pickup') return { pick, logs: [] };
    console.log(
      `\nlog latency: ${MATRIX} jobs × ${RATE} lines/s for ${LOG_SECONDS} s (the agent's own batching)`,
    );
    const logs = await logLatency(pg.url);
    console.log('\n| SSE reader | lines read | p50 ms | p99 ms | p50 / same replica | p99 / same replica |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of logs)
      console.log(
        `| ${r.reader} | ${r.reader.startsWith('stored') ? `${r.lines} batches` : r.lines} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p50 / logs[1].p50).toFixed(2)}× | ${(r.p99 / logs[1].p99).toFixed(2)}× |`,
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
