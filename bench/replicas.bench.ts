// Benchmark: replicas on one PostgreSQL (issue 21). Two control planes in this process share a private
// PostgreSQL, as two replicas behind a load balancer would; run changes and stored log lines travel between
// them by LISTEN/NOTIFY (packages/ci-server/src/replicas/).
//
// 1. Pickup: 50 simulated agents (real protocol over loopback HTTP/2, capacity 4) take trivial jobs queued
//    through replica A at a steady offered load (50 jobs/s); pickup = from the commit that queued a job (A's RunEvents)
//    to the agent receiving it. Three layouts: all agents on A (one replica, the baseline), agents spread
//    25/25 over A and B, and all agents on B (every job crosses replicas).
// 2. Log latency (issue 31.3): one agent speaking the real protocol runs 20 jobs that each print
//    BENCH_REPLICA_RATE lines/s (default 100) into the real agent's LogShipper, over PushLogs to replica A;
//    SSE clients on A (the baseline) and on B read the run at the same time; each line carries its write time,
//    so the figure is agent print → SSE event. In interleaved rounds (BENCH_REPLICA_LOG_ROUNDS, default 3)
//    each round runs the shipper as it is and, as a second baseline, the batching it replaced (the bench
//    holds each line until 200 ms after the first line of its batch, then hands the lot over at once).
//    Reported: the median of the rounds' p50 and p99, with their range.
//    Each round also prints the per-stage latencies (log-stages.ts), each process's CPU per 1,000 lines, and
//    what A did for the run: PushLogs calls, INSERT statements, NOTIFYs.
// Run with `npm run bench` or `node --import tsx bench/replicas.bench.ts`. BENCH_REPLICA_SECONDS sets the
// log phase length (default 5), BENCH_REPLICA_ONLY=pickup|logs one part, BENCH_REPLICA_RATE the lines per
// second per job, BENCH_REPLICA_LOG_ROUNDS the rounds, BENCH_REPLICA_VARIANTS=now|before one shipping
// variant, BENCH_REPLICA_PROFILE=<dir> a CPU profile and query counts of A per measured phase.
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { LogLine } from '../packages/ci-agent/src/executor/log.js';
import { AgentConnection, courierOf, LogShipper, loadAgentSettings } from '../packages/ci-agent/src/index.js';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';
import { traceNow } from '../packages/ci-server/src/replicas/log-trace.js';
import { type ServerProcess, startServerProcess } from '../packages/ci-server/test/e2e/server-process.js';
import { freePort } from '../packages/kit/src/index.js';
import { startPostgres, tempDir } from '../packages/kit/src/testing/index.js';
import { grpcTlsEnv, quantile, simAgent, TOKEN } from './dispatch.bench.js';
import {
  type BenchMarks,
  cpuMsOf,
  describeStages,
  replicaCounts,
  STAGES,
  type Stage,
  stageLatencies,
} from './log-stages.js';

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
/** Lines per second per job (default 100, issue 31's aim); a hundredth of it every 10 ms (fewer: 1 a tick). */
const RATE = Number(process.env.BENCH_REPLICA_RATE ?? 100);
/** Rounds of the log phase; each runs every shipper variant once. */
const LOG_ROUNDS = Number(process.env.BENCH_REPLICA_LOG_ROUNDS ?? 3);
/**
 * BENCH_REPLICA_PROFILE=<dir>: replica A writes a CPU profile of the measured phases there (one per variant,
 * cpu-profile-preload.cjs), for `node --cpu-prof`'s view of where A's time per batch goes.
 */
const PROFILE_DIR = process.env.BENCH_REPLICA_PROFILE;
/** BENCH_REPLICA_VARIANTS=now|before: one shipping variant only (default both). */
const ONLY_VARIANT = process.env.BENCH_REPLICA_VARIANTS;
/**
 * BENCH_REPLICA_PUSH=single: each job's batch in its own PushLogs call, as agents before PushLogBatches sent
 * them (default: the agent's courier, one PushLogBatches call per turn for every job's batch).
 */
const SINGLE_PUSH = process.env.BENCH_REPLICA_PUSH === 'single';
/** BENCH_REPLICA_LINGER=<ms>: the shippers' linger under volume (default: the agent's own). */
const LINGER = process.env.BENCH_REPLICA_LINGER ? Number(process.env.BENCH_REPLICA_LINGER) : undefined;

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
async function follow(
  base: string,
  runId: string,
  total: number,
  deadline: number,
): Promise<{ latencies: number[]; at: Map<string, number>; cursors: Map<string, number> }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - Date.now()));
  const latencies: number[] = [];
  const at = new Map<string, number>();
  /** Each line's cursor (its event's `id:`), to find the store read that brought it (log-stages.ts). */
  const cursors = new Map<string, number>();
  try {
    const res = await fetch(`${base}/api/v1/runs/${runId}/logs/stream`, { signal: controller.signal });
    if (!res.ok || !res.body) throw new Error(`stream ${res.status}`);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body) {
      const now = traceNow();
      text += decoder.decode(chunk, { stream: true });
      const blocks = text.split('\n\n');
      text = blocks.pop() ?? '';
      for (const block of blocks) {
        const fields = block.split('\n');
        const data = fields.find((l) => l.startsWith('data: '));
        if (!data) continue;
        const stamped = STAMP.exec(JSON.parse(data.slice(6)).text);
        if (!stamped) continue;
        latencies.push(now - Number(stamped[1]));
        const key = `${stamped[3]}#${stamped[2]}`;
        at.set(key, now);
        const id = fields.find((l) => l.startsWith('id: '));
        if (id) cursors.set(key, Number(id.slice(4)));
      }
      if (latencies.length >= total) break;
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { latencies, at, cursors };
}

/** A bench line: `t=<print time> line <seq> of job <job run id>`. */
const STAMP = /^t=(\d+(?:\.\d+)?) line (\d+) of job (\S+)/;

/**
 * An agent speaking the real protocol whose jobs each print RATE lines/s for `seconds` (a hundredth of that
 * every 10 ms, each line stamped with its write time) into the real agent's LogShipper over PushLogs, then
 * finish. With `holdMs() > 0` the lines are held back until that long after the first line of a batch and
 * then handed over at once: the fixed-delay batching the shipper used before (200 ms), as a baseline.
 */
function printingAgent(
  grpcPort: number,
  name: string,
  seconds: () => number,
  go: () => Promise<void>,
  holdMs: () => number,
) {
  const held = new Set<string>();
  /** Per batch: from its first line's write to the server's acknowledgement (stored), in ms. */
  const stored: number[] = [];
  /** What the bench sees of each line and batch, for the per-stage figures (log-stages.ts). */
  const marks: Pick<BenchMarks, 'printed' | 'sent' | 'acked'> = { printed: new Map(), sent: [], acked: [] };
  const now = traceNow;
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
          const shipper = new LogShipper(
            async (lines) => {
              const batch = {
                job: id,
                first: Number(lines[0].seq),
                last: Number(lines[lines.length - 1].seq),
              };
              marks.sent.push({ ...batch, at: now() });
              const acked = SINGLE_PUSH
                ? Number((await conn.call((o) => conn.client.pushLogs({ jobRunId: id, lines }, o))).ackedSeq)
                : await conn.call(() => courier.send(id, lines));
              const sent = Number(/^t=(\d+(?:\.\d+)?) /.exec(lines[0].text)?.[1]);
              marks.acked.push({ ...batch, at: now() });
              stored.push(now() - sent);
              return acked;
            },
            LINGER === undefined ? {} : { lingerMs: LINGER },
          );
          await go();
          const total = Math.round(seconds() * RATE);
          const hold = holdMs();
          let waiting: LogLine[] = [];
          let heldSince = 0;
          const release = () => {
            for (const l of waiting) shipper.push(l);
            waiting = [];
            void shipper.flush();
          };
          // A tick every 10 ms (every 1000/RATE ms below 100 lines/s, so sparse jobs print one line a tick).
          const tickMs = Math.max(10, 1000 / RATE);
          const perTick = Math.max(1, Math.round((RATE * tickMs) / 1000));
          const t0 = performance.now();
          for (let seq = 1, k = 0; seq <= total; k++) {
            const wait = t0 + k * tickMs - performance.now();
            if (wait > 0) await sleep(wait);
            if (waiting.length > 0 && performance.now() - heldSince >= hold) release();
            const stamp = traceNow();
            const at = new Date().toISOString();
            for (const end = Math.min(total, seq + perTick - 1); seq <= end; seq++) {
              marks.printed.set(`${id}#${seq}`, stamp);
              const line: LogLine = {
                seq,
                stream: 'stdout',
                at,
                text: `t=${stamp} line ${seq} of job ${id}`,
              };
              if (hold <= 0) shipper.push(line);
              else {
                if (waiting.length === 0) heldSince = performance.now();
                waiting.push(line);
              }
            }
          }
          if (waiting.length > 0) release();
          await shipper.flush();
          await report({ case: 'finished', value: { status: 'success', hasExitCode: true } });
          held.delete(id);
        })().catch((err) => console.error(`printing job ${id}: ${String(err)}`));
      },
    },
  );
  conn.runningJobIds = () => [...held];
  // The real agent's courier: the batches its shippers hand over in one turn go in one PushLogBatches call.
  const courier = courierOf(conn);
  const running = conn.run();
  return {
    stored,
    marks,
    ready: () => conn.session(),
    stop: async () => {
      conn.stop();
      await running;
    },
  };
}

/** A replica as its own process (`main.ts`), so replicas, writers and readers do not share one event loop. */
async function replicaProcess(
  url: string,
  trace: string,
  profileDir?: string,
): Promise<ServerProcess & { grpcPort: number }> {
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
    // The replica's per-stage trace of log batches and notifications (log-stages.ts reads it).
    CI_LOG_TRACE_FILE: trace,
    ...(profileDir
      ? {
          NODE_OPTIONS: `--require ${join(import.meta.dirname, 'cpu-profile-preload.cjs')}`,
          BENCH_CPU_PROFILE_DIR: profileDir,
        }
      : {}),
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

/** One variant of the agent's shipping, measured in every round of the log phase. */
const VARIANTS = [
  { key: 'now', name: 'shipper now (sparse lines at once, 25 ms linger under volume)', holdMs: 0 },
  { key: 'before', name: 'before: a batch 200 ms after its first line', holdMs: 200 },
] as const;

const READERS = [
  'stored (agent print → acknowledged, first line of a batch)',
  'same replica (A → A)',
  'other replica (A → B), NOTIFY',
] as const;

interface LogRow {
  variant: string;
  reader: string;
  p50s: number[];
  p99s: number[];
  lines: number[];
}

/** Per variant and stage (log-stages.ts), each round's p50 and p99. */
interface StageRow {
  variant: string;
  stage: Stage;
  p50s: number[];
  p99s: number[];
}

/**
 * LOG_ROUNDS rounds; each round runs every variant once (one run of MATRIX printing jobs through replica A,
 * read at the same time by an SSE client on A and one on B), so a drift in the machine's load touches every
 * variant and reader alike.
 */
async function logLatency(url: string): Promise<{ rows: LogRow[]; stages: StageRow[]; load: number[] }> {
  const traces = tempDir('bench-log-trace-');
  const traceA = join(traces, 'a.trace');
  const traceB = join(traces, 'b.trace');
  const a = await replicaProcess(url, traceA, PROFILE_DIR);
  const b = await replicaProcess(url, traceB);
  let seconds = 1;
  let hold = 0;
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
    () => hold,
  );
  const rows: LogRow[] = VARIANTS.flatMap((v) =>
    READERS.map((reader) => ({ variant: v.name, reader, p50s: [], p99s: [], lines: [] })),
  );
  const stageRows: StageRow[] = VARIANTS.flatMap((v) =>
    STAGES.map((stage) => ({ variant: v.name, stage, p50s: [], p99s: [] })),
  );
  /** The one-minute load average at the start of every measured phase. */
  const load: number[] = [];
  try {
    await agent.ready();
    await post(a.base, '/api/v1/projects/apply', { yaml: printerBundle });
    const project = (await (await fetch(`${a.base}/api/v1/projects/printer`)).json()) as {
      pipelines: { id: string }[];
    };
    const pipelineId = project.pipelines[0].id as string;
    const phases: { round: number; variant: number; length: number }[] = [
      { round: 0, variant: 0, length: 1 },
    ];
    for (let round = 1; round <= LOG_ROUNDS; round++)
      for (let variant = 0; variant < VARIANTS.length; variant++)
        if (!ONLY_VARIANT || VARIANTS[variant].key === ONLY_VARIANT)
          phases.push({ round, variant, length: LOG_SECONDS });
    for (const { round, variant, length } of phases) {
      seconds = length;
      hold = VARIANTS[variant].holdMs;
      agent.stored.length = 0;
      agent.marks.printed.clear();
      agent.marks.sent.length = 0;
      agent.marks.acked.length = 0;
      if (round > 0) load.push(loadavg()[0]);
      const cpu0 = [cpuMsOf(a.child.pid), cpuMsOf(b.child.pid), cpuMsOf(process.pid)];
      const { run_id } = await post(a.base, `/api/v1/pipelines/${pipelineId}/trigger`, {});
      const total = MATRIX * Math.round(length * RATE);
      const deadline = Date.now() + (length + 30) * 1000;
      const readers = [follow(a.base, run_id, total, deadline), follow(b.base, run_id, total, deadline)];
      // Both streams are open (they answer at once with what is stored: nothing yet) before lines are made.
      await sleep(500);
      const profiling = PROFILE_DIR !== undefined && round > 0;
      if (profiling) a.child.kill('SIGUSR2');
      release();
      const [onA, onB] = await Promise.all(readers);
      if (profiling) a.child.kill('SIGUSR2');
      const cpu = [cpuMsOf(a.child.pid), cpuMsOf(b.child.pid), cpuMsOf(process.pid)].map(
        (ms, i) => ((ms - cpu0[i]) * 1000) / total,
      );
      go = new Promise<void>((r) => {
        release = r;
      });
      if (round === 0) continue; // the warm-up
      // The replicas write their trace every 50 ms (log-trace.ts): let the last events of the phase land.
      await sleep(200);
      const stages = stageLatencies(
        { ...agent.marks, onA: onA.at, onB: onB.at, cursorsB: onB.cursors },
        run_id,
        traceA,
        traceB,
      );
      const counts = replicaCounts(agent.marks, run_id, traceA);
      for (const stage of STAGES) {
        const row = stageRows[variant * STAGES.length + STAGES.indexOf(stage)];
        row.p50s.push(quantile(stages[stage], 0.5));
        row.p99s.push(quantile(stages[stage], 0.99));
      }
      const measured = [agent.stored.slice(), onA.latencies, onB.latencies];
      for (const [i, lat] of measured.entries()) {
        const row = rows[variant * READERS.length + i];
        row.p50s.push(quantile(lat, 0.5));
        row.p99s.push(quantile(lat, 0.99));
        row.lines.push(lat.length);
      }
      console.log(
        `  round ${round} ${VARIANTS[variant].name} (load ${loadavg()[0].toFixed(1)}): p99 stored ${quantile(measured[0], 0.99).toFixed(1)} ms, A ${quantile(onA.latencies, 0.99).toFixed(1)} ms, B ${quantile(onB.latencies, 0.99).toFixed(1)} ms (${onB.latencies.length}/${total} lines on B)\n    stages p50/p99 ms: ${describeStages(stages)}\n    CPU ms per 1,000 lines: A ${cpu[0].toFixed(0)}, B ${cpu[1].toFixed(0)}, bench (agent and readers) ${cpu[2].toFixed(0)}; on A: ${counts.calls} calls of ${counts.batches} batches, ${counts.inserts} INSERTs, ${counts.notifies} NOTIFYs`,
      );
    }
  } finally {
    await agent.stop();
    await b.stop();
    await a.stop();
  }
  return { rows, stages: stageRows, load };
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
      `\nlog latency: ${MATRIX} jobs × ${RATE} lines/s for ${LOG_SECONDS} s, ${LOG_ROUNDS} interleaved rounds`,
    );
    const measured = await logLatency(pg.url);
    const logs = measured.rows;
    const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
    const p99 = (variant: string, reader: string) =>
      median(logs.find((r) => r.variant === variant && r.reader === reader)!.p99s);
    console.log(
      '\n| shipping | reader | lines (median) | p50 ms | p50 range | p99 ms | p99 range | p99 / same replica | p99 / before |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of logs.filter((r) => r.p50s.length > 0))
      console.log(
        `| ${r.variant} | ${r.reader} | ${median(r.lines)}${r.reader.startsWith('stored') ? ' batches' : ''} | ${median(r.p50s).toFixed(1)} | ${range(r.p50s)} | ${median(r.p99s).toFixed(1)} | ${range(r.p99s)} | ${(median(r.p99s) / p99(r.variant, READERS[1])).toFixed(2)}× | ${(median(r.p99s) / p99(VARIANTS[1].name, r.reader)).toFixed(2)}× |`,
      );
    console.log(
      `\nper stage (log-stages.ts; ship + to A + store + notify + hear + read on B is about the other replica's figure: each stage is exact, they overlap a little where B reads a line on an earlier notice), load average ${Math.min(...measured.load).toFixed(1)}–${Math.max(...measured.load).toFixed(1)}`,
    );
    console.log('| shipping | stage | p50 ms | p50 range | p99 ms | p99 range |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const r of measured.stages.filter((r) => r.p50s.length > 0))
      console.log(
        `| ${r.variant} | ${r.stage} | ${median(r.p50s).toFixed(1)} | ${range(r.p50s)} | ${median(r.p99s).toFixed(1)} | ${range(r.p99s)} |`,
      );
    return { pick, logs, stages: measured.stages };
  } finally {
    await pg.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
  process.exit(0);
}
