// Benchmark: dispatch. 50 simulated agents (in-process gRPC clients speaking the real protocol over
// loopback HTTP/2, capacity 4 each) take 2,000 trivial jobs (100 runs of a 20-way matrix) and report each one
// started and finished at once. Figures: jobs/s for a burst of all runs, and the pickup latency from
// "runnable" (the commit that queued the job, seen on RunEvents) to "assigned" (the agent received it),
// p50/p99, both in the burst (which includes waiting for a free slot) and at a steady offered load of half
// the burst rate (pure pickup). Baseline: the claim UPDATE alone on the same database in the same run. SQLite
// (a file) and a private PostgreSQL. Run with `npm run bench` or `node --import tsx bench/dispatch.bench.ts`;
// BENCH_AGENTS, BENCH_JOBS change the sizes. Per job it also prints the database round trips, statements
// and transactions the server spent (counted at the driver, bench/driver-counts.ts).
//
// Since issue 31 the figures come in interleaved rounds (BENCH_ROUNDS, default 3): each round runs the
// server as it is and, as the baseline, with report batching and coalesced claims turned off
// (`dispatchBatching: false`: one statement per start, one transaction per finish, a claim per freed slot),
// in alternating order, each on a fresh server and database; reported are the medians of the rounds with
// their range and the load average during each round, since the machine's load moves the rates a lot.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AgentConnection, loadAgentSettings } from '../packages/ci-agent/src/index.js';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';
import { claimJob } from '../packages/ci-server/src/store/agent-leases.js';
import type { StoreDb } from '../packages/ci-server/src/store/database.js';
import { createPostgresDatabase, startPostgres, tempDir } from '../packages/kit/src/testing/index.js';
import {
  countsSince,
  type DriverCounts,
  installDriverCounts,
  shapes,
  snapshotCounts,
  uncounted,
} from './driver-counts.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 50);
const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
/** `BENCH_STORES=postgres` (or `sqlite`) measures one store only. */
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',');
const CAPACITY = 4;
const MATRIX = 20;
const RUNS = Math.ceil(JOBS / MATRIX);
/** Runs of the paced phase (it is slow by design: half the burst rate). */
const PACED_RUNS = Math.min(RUNS, Number(process.env.BENCH_PACED_RUNS ?? 10));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
type Mode = 'batched' | 'baseline';
export const TOKEN = 'bench-dispatch-token';
/** gRPC over TLS, as deployed by default; `BENCH_GRPC_TLS=off` measures the cleartext port instead. */
export const GRPC_TLS = process.env.BENCH_GRPC_TLS !== 'off';
/** Server settings naming the same transport as the simulated agents. */
export const grpcTlsEnv = (): Record<string, string> => (GRPC_TLS ? {} : { CI_GRPC_TLS: 'off' });

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const PIPELINE = `project: { slug: dispatchbench, name: Dispatch bench }
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

/** An agent that reports every assignment started and finished as soon as it arrives. */
export function simAgent(grpcPort: number, name: string, assigned: Map<string, number>) {
  const conn = new AgentConnection(
    loadAgentSettings({
      // No scheme: TLS, the certificate pinned on first use; http://: the cleartext port.
      CI_SERVER: `${GRPC_TLS ? '' : 'http://'}127.0.0.1:${grpcPort}`,
      CI_AGENT_TOKEN: TOKEN,
      CI_AGENT_NAME: name,
      CI_AGENT_CAPACITY: String(CAPACITY),
    }),
    {
      onServerMessage: (m) => {
        if (m.kind.case !== 'assignment') return;
        const id = m.kind.value.jobRunId;
        assigned.set(id, performance.now());
        held.add(id);
        void (async () => {
          await conn.call((o) =>
            conn.client.reportJob({ jobRunId: id, kind: { case: 'started', value: {} } }, o),
          );
          await conn.call((o) =>
            conn.client.reportJob(
              { jobRunId: id, kind: { case: 'finished', value: { status: 'success', hasExitCode: true } } },
              o,
            ),
          );
          held.delete(id);
        })();
      },
    },
  );
  const held = new Set<string>();
  conn.runningJobIds = () => [...held];
  const running = conn.run();
  return {
    ready: () => conn.session(),
    stop: async () => {
      conn.stop();
      await running;
    },
  };
}

interface Phase {
  jobs: number;
  seconds: number;
  p50: number;
  p99: number;
  /** What the server sent its database during the phase (triggering included), per job. */
  perJob: DriverCounts;
  /**
   * CPU of this process per job, ms (user + system): the control plane and the simulated agents' gRPC
   * clients together, since they share the process; PostgreSQL's own CPU is not in it.
   */
  cpuMsPerJob: number;
}

const perJob = (c: DriverCounts, jobs: number): DriverCounts => ({
  roundTrips: c.roundTrips / jobs,
  statements: c.statements / jobs,
  transactions: c.transactions / jobs,
});

const minus = (a: DriverCounts, b: DriverCounts): DriverCounts => ({
  roundTrips: a.roundTrips - b.roundTrips,
  statements: a.statements - b.statements,
  transactions: a.transactions - b.transactions,
});

const fmt = (c: DriverCounts, postgres: boolean) =>
  `${postgres ? c.roundTrips.toFixed(1) : '–'} / ${c.statements.toFixed(1)} / ${c.transactions.toFixed(1)}`;

/** Queued or running job runs left (the benchmark's own read: not counted). */
const busyJobs = (server: CiServer) =>
  uncounted(() =>
    server.database.db
      .selectFrom('job_runs')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .execute(),
  );

async function phase(
  server: CiServer,
  pipelineId: string,
  assigned: Map<string, number>,
  gapMs: number,
  runs = RUNS,
): Promise<Phase> {
  const runnable = new Map<string, number>();
  const onChange = (change: { effects: { kind: string; jobId?: string }[] }) => {
    const now = performance.now();
    for (const e of change.effects) if (e.kind === 'enqueue' && e.jobId) runnable.set(e.jobId, now);
  };
  server.events.on('change', onChange);
  assigned.clear();
  const before = snapshotCounts();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const next = t0 + i * gapMs;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await server.runs.trigger(pipelineId, {}, 'bench');
  }
  while (assigned.size < runnable.size || runnable.size < runs * MATRIX)
    await new Promise((r) => setTimeout(r, 5));
  // Every run finished: the next phase starts from idle agents.
  while ((await busyJobs(server)).length > 0) await new Promise((r) => setTimeout(r, 5));
  const counted = countsSince(before);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (Math.max(...assigned.values()) - Math.min(...runnable.values())) / 1000;
  server.events.off('change', onChange);
  const latencies = [...runnable].map(([id, t]) => (assigned.get(id) ?? Number.NaN) - t);
  return {
    jobs: runnable.size,
    seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    perJob: perJob(counted, runnable.size),
    cpuMsPerJob: (cpu.user + cpu.system) / 1000 / runnable.size,
  };
}

/** The claim statement alone: one conditional UPDATE per job, sequentially. */
async function claimBaseline(server: CiServer, pipelineId: string): Promise<number> {
  const db = server.database.db as StoreDb;
  const { run_id } = await server.runs.trigger(pipelineId, {}, 'bench').then((r) => ({ run_id: r.run_id }));
  // The jobs of this run are claimed by the dispatcher too; measure on a copy of the statement instead.
  const ids = (await db.selectFrom('job_runs').select('id').where('run_id', '=', run_id).execute()).map(
    (r) => r.id,
  );
  const samples: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (const id of ids) {
      const t = performance.now();
      await claimJob(db, id, { id: '00000000-0000-7000-8000-00000000b0b0', name: 'baseline' }, 30_000);
      samples.push(performance.now() - t);
    }
  }
  return quantile(samples, 0.5);
}

async function benchStore(store: string, url: string, mode: Mode) {
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('bench-dispatch-'),
    CI_DATABASE_URL: url,
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: TOKEN,
    CI_SECRET_KEY: '0'.repeat(64),
    CI_AUTH_ENABLED: 'false',
    ...grpcTlsEnv(),
  });
  const server = await createCiServer(settings, { logger: false, dispatchBatching: mode === 'batched' });
  const load0 = loadavg()[0];
  const agents: ReturnType<typeof simAgent>[] = [];
  try {
    const { grpcPort } = await server.listen();
    const applied = await server.app.inject({
      method: 'POST',
      url: '/api/v1/projects/apply',
      payload: { yaml: PIPELINE },
    });
    if (applied.statusCode !== 200) throw new Error(applied.body);
    const pipelineId = (
      await server.database.db.selectFrom('pipelines').select('id').executeTakeFirstOrThrow()
    ).id;
    // What creating a run costs (the trigger, and the dispatcher learning its jobs), measured before any agent
    // is connected so no claim mixes in; the agents take these jobs during the warm-up.
    const created = snapshotCounts();
    for (let i = 0; i < 10; i++) await server.runs.trigger(pipelineId, {}, 'bench');
    const createPerJob = perJob(countsSince(created), 10 * MATRIX);
    const assigned = new Map<string, number>();
    for (let i = 0; i < AGENTS; i++) agents.push(simAgent(grpcPort, `sim-${i}`, assigned));
    await Promise.all(agents.map((a) => a.ready()));
    await phase(server, pipelineId, assigned, 0); // warm-up
    shapes.clear();
    const burst = await phase(server, pipelineId, assigned, 0);
    if (process.env.BENCH_SHAPES)
      for (const [shape, n] of [...shapes].sort((a, b) => b[1] - a[1]).slice(0, 25))
        console.log(`${(n / burst.jobs).toFixed(3)}/job  ${shape}`);
    const rate = burst.jobs / burst.seconds;
    // Half the burst rate, offered as one run of MATRIX jobs every gap.
    const paced = await phase(server, pipelineId, assigned, (MATRIX / (rate / 2)) * 1000, PACED_RUNS);
    const claimMs = await claimBaseline(server, pipelineId);
    const load = (load0 + loadavg()[0]) / 2;
    return { store, mode, burst, rate, paced, pacedRate: rate / 2, claimMs, createPerJob, load };
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
    await server.close();
  }
}

const median = (xs: number[]) => quantile(xs, 0.5);
const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

type Result = Awaited<ReturnType<typeof benchStore>>;

export async function run() {
  installDriverCounts();
  console.log(
    `dispatch: ${AGENTS} agents × capacity ${CAPACITY}, ${RUNS} runs × ${MATRIX} jobs, ${ROUNDS} interleaved rounds`,
  );
  const results: Result[] = [];
  const pg = STORES.includes('postgres') ? await startPostgres() : undefined;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which mode goes first, so a change in the machine's load touches both alike.
      const modes: Mode[] = round % 2 === 0 ? ['baseline', 'batched'] : ['batched', 'baseline'];
      for (const mode of modes) {
        if (STORES.includes('sqlite'))
          results.push(await benchStore('sqlite', `sqlite:${tempDir('bench-dispatch-sqlite-')}/ci.db`, mode));
        if (pg)
          results.push(await benchStore('postgres', await createPostgresDatabase(pg.url, 'dispatch'), mode));
        const r = results[results.length - 1];
        console.log(
          `round ${round + 1} ${r.store} ${mode}: ${r.rate.toFixed(0)} jobs/s, load ${r.load.toFixed(1)}, ` +
            `the rest per job ${fmt(minus(r.burst.perJob, r.createPerJob), r.store === 'postgres')}, ` +
            `CPU ${r.burst.cpuMsPerJob.toFixed(2)} ms/job (burst, this process)`,
        );
      }
    }
  } finally {
    await pg?.stop();
  }
  console.log(
    '\n| store | mode | burst jobs/s (median, range) | × baseline | burst p50 / p99 ms | pickup p50 / p99 ms (paced) | claim UPDATE p50 ms | load avg |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  const summary: { store: string; mode: Mode; rate: number }[] = [];
  for (const store of STORES)
    for (const mode of ['baseline', 'batched'] as const) {
      const rs = results.filter((r) => r.store === store && r.mode === mode);
      if (rs.length === 0) continue;
      const rates = rs.map((r) => r.rate);
      const base = median(
        results.filter((r) => r.store === store && r.mode === 'baseline').map((r) => r.rate),
      );
      summary.push({ store, mode, rate: median(rates) });
      console.log(
        `| ${store} | ${mode} | ${median(rates).toFixed(0)} (${range(rates)}) | ${(median(rates) / base).toFixed(2)}× | ${median(rs.map((r) => r.burst.p50)).toFixed(0)} / ${median(rs.map((r) => r.burst.p99)).toFixed(0)} | ${median(rs.map((r) => r.paced.p50)).toFixed(1)} / ${median(rs.map((r) => r.paced.p99)).toFixed(1)} (p99 ${range(rs.map((r) => r.paced.p99))}) | ${median(rs.map((r) => r.claimMs)).toFixed(3)} | ${range(
          rs.map((r) => r.load),
          1,
        )} |`,
      );
    }
  console.log(
    '\nPer job, at the driver (round trips / statements / transactions, median of rounds; SQLite has no round trips):\n' +
      '\n| store | mode | whole burst | creating the run | claim, start, finish (the rest) | paced phase, the rest |',
  );
  console.log('|---|---|---:|---:|---:|---:|');
  const med = (cs: DriverCounts[]): DriverCounts => ({
    roundTrips: median(cs.map((c) => c.roundTrips)),
    statements: median(cs.map((c) => c.statements)),
    transactions: median(cs.map((c) => c.transactions)),
  });
  for (const store of STORES)
    for (const mode of ['baseline', 'batched'] as const) {
      const rs = results.filter((r) => r.store === store && r.mode === mode);
      if (rs.length === 0) continue;
      const pgStore = store === 'postgres';
      console.log(
        `| ${store} | ${mode} | ${fmt(med(rs.map((r) => r.burst.perJob)), pgStore)} | ${fmt(med(rs.map((r) => r.createPerJob)), pgStore)} | ${fmt(med(rs.map((r) => minus(r.burst.perJob, r.createPerJob))), pgStore)} | ${fmt(med(rs.map((r) => minus(r.paced.perJob, r.createPerJob))), pgStore)} |`,
      );
    }
  return summary;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
  process.exit(0);
}
