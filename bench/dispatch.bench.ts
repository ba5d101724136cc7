// Benchmark: dispatch. 50 simulated agents (gRPC clients speaking the real protocol over loopback HTTP/2,
// capacity 4 each, in a process of their own: bench/dispatch-agents.ts) take 2,000 trivial jobs (100 runs of a 20-way matrix) and report each one
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
// (`dispatchBatching: false`: one statement per start, one transaction per finish, a claim per freed slot,
// and the agents' reports one ReportJob call each instead of a message per turn on the session stream),
// in alternating order, each on a fresh server and database; reported are the medians of the rounds with
// their range and the load average during each round, since the machine's load moves the rates a lot.
// CPU per job is printed for each process: the control plane's (this process: server, triggering, the
// benchmark's light bookkeeping) and the agents' (their gRPC and TLS clients), so the control plane's cost
// per job — what bounds its rate — is not mixed with its simulated clients'.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';
import { claimJob } from '../packages/ci-server/src/store/agent-leases.js';
import type { StoreDb } from '../packages/ci-server/src/store/database.js';
import { createPostgresDatabase, startPostgres, tempDir } from '../packages/kit/src/testing/index.js';
import { GRPC_TLS, TOKEN } from './dispatch-agents.js';
import {
  countsSince,
  type DriverCounts,
  installDriverCounts,
  shapes,
  snapshotCounts,
} from './driver-counts.js';
import { postgresCpuMs, startProfile } from './process-cpu.js';

export { GRPC_TLS, simAgent, TOKEN } from './dispatch-agents.js';

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
/** Runs a burst triggers at once (BENCH_TRIGGERS). */
const TRIGGERS = Number(process.env.BENCH_TRIGGERS ?? 8);
type Mode = 'batched' | 'baseline';
/** `BENCH_MODES=batched` (or `baseline`) measures one side only (no ratio then). */
const MODES = (process.env.BENCH_MODES ?? 'baseline,batched').split(',');
/** Server settings naming the same transport as the simulated agents. */
export const grpcTlsEnv = (): Record<string, string> => (GRPC_TLS ? {} : { CI_GRPC_TLS: 'off' });

export const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const PG_PORT = /:(\d+)\//;
/** Epoch milliseconds, comparable with the agents' process. */
const clock = () => performance.timeOrigin + performance.now();

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

interface Collected {
  assigned: [string, number][];
  failures: { count: number; last: string };
  cpuMs: number;
  reportTurns: number;
}

/** The simulated agents in a process of their own (bench/dispatch-agents.ts). */
class AgentsProcess {
  private readonly child: ChildProcess;
  private readonly replies: { resolve(m: any): void; reject(err: Error): void }[] = [];

  constructor() {
    this.child = fork(fileURLToPath(new URL('./dispatch-agents.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m) => this.replies.shift()?.resolve(m));
    this.child.on('exit', (code) => {
      for (const r of this.replies.splice(0)) r.reject(new Error(`the agents' process exited (${code})`));
    });
  }

  private ask<T>(m: object): Promise<T> {
    return new Promise((resolve, reject) => {
      this.replies.push({ resolve, reject });
      this.child.send(m);
    });
  }

  /** `batchReports`: the agents' reports by turn on the session stream (the agent as it is), else a call each. */
  start(grpcPort: number, prefix: string, batchReports: boolean): Promise<unknown> {
    return this.ask({ start: { grpcPort, agents: AGENTS, capacity: CAPACITY, prefix, batchReports } });
  }

  /** Assignment times and CPU since the last collect. */
  collect(): Promise<Collected> {
    return this.ask({ collect: true });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.send({ stop: true });
    await exited;
  }
}

interface Phase {
  jobs: number;
  seconds: number;
  p50: number;
  p99: number;
  /** What the server sent its database during the phase (triggering included), per job. */
  perJob: DriverCounts;
  /** CPU of the control plane's process per job, ms (user + system; PostgreSQL's own CPU is not in it). */
  serverCpuMs: number;
  /** CPU of the simulated agents' process per job, ms (their gRPC and TLS clients). */
  agentsCpuMs: number;
  /** CPU of PostgreSQL per job, ms (NaN on SQLite, which is in the server's process). */
  postgresCpuMs: number;
  /** Reports the agents could not deliver (their jobs went back through the lease sweeper). */
  failures: number;
  /**
   * Turns of reports the agents sent per job (two reports a job): each a message on the session stream, or
   * — the baseline, and what the stream could not deliver — a ReportJob call.
   */
  reportTurns: number;
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

/** Runs that have finished (their `run-finished` effect), heard from the server's creation on. */
interface RunWatch {
  finished: Set<string>;
  onFinished(): void;
}

function watchRuns(server: CiServer): RunWatch {
  const watch: RunWatch = { finished: new Set(), onFinished: () => undefined };
  server.events.on('change', (change: { runId: string; effects: { kind: string }[] }) => {
    if (!change.effects.some((e) => e.kind === 'run-finished')) return;
    watch.finished.add(change.runId);
    watch.onFinished();
  });
  return watch;
}

/**
 * Triggers `runs` runs `gapMs` apart and waits until every one has finished (its `run-finished` effect, so
 * the benchmark itself sends the database nothing while it waits); the agents' process then hands over when
 * each job reached it.
 */
async function phase(
  server: CiServer,
  watch: RunWatch,
  pipelineId: string,
  agents: AgentsProcess,
  gapMs: number,
  runs = RUNS,
  earlier: readonly string[] = [],
): Promise<Phase> {
  const pgPort =
    server.database.dialect === 'postgres' ? PG_PORT.exec(server.database.displayUrl)?.[1] : undefined;
  const runnable = new Map<string, number>();
  const triggered = new Set<string>(earlier);
  const finished = watch.finished;
  let triggering = true;
  let allFinished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allFinished = resolve;
  });
  const check = () => {
    if (!triggering && [...triggered].every((id) => finished.has(id))) allFinished();
  };
  const onChange = (change: { runId: string; effects: { kind: string; jobId?: string }[] }) => {
    const now = clock();
    for (const e of change.effects) if (e.kind === 'enqueue' && e.jobId) runnable.set(e.jobId, now);
  };
  watch.onFinished = check;
  server.events.on('change', onChange);
  const before = snapshotCounts();
  const cpu0 = process.cpuUsage();
  const pgCpu0 = pgPort ? postgresCpuMs(pgPort) : undefined;
  const t0 = performance.now();
  try {
    // A burst triggers its runs TRIGGERS at a time: one after another (when creating a run took about ten
    // round trips; one statement since, run-create-statements.ts) it was slower than dispatching the jobs,
    // and the burst measured the triggering.
    let next = 0;
    const trigger = async () => {
      while (next < runs) {
        const i = next++;
        const wait = t0 + i * gapMs - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        triggered.add((await server.runs.trigger(pipelineId, {}, 'bench')).run_id);
      }
    };
    await Promise.all(Array.from({ length: gapMs > 0 ? 1 : TRIGGERS }, trigger));
    triggering = false;
    check();
    await done;
  } finally {
    server.events.off('change', onChange);
    watch.onFinished = () => undefined;
  }
  const counted = countsSince(before);
  const cpu = process.cpuUsage(cpu0);
  const pgCpu1 = pgPort ? postgresCpuMs(pgPort) : undefined;
  const collected = await agents.collect();
  const assigned = new Map(collected.assigned);
  const seconds = (Math.max(...assigned.values()) - Math.min(...runnable.values())) / 1000;
  const latencies = [...runnable].map(([id, t]) => (assigned.get(id) ?? Number.NaN) - t);
  if (collected.failures.count > 0)
    console.log(`  ${collected.failures.count} reports failed so far; last: ${collected.failures.last}`);
  return {
    jobs: runnable.size,
    seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    perJob: perJob(counted, runnable.size),
    serverCpuMs: (cpu.user + cpu.system) / 1000 / runnable.size,
    agentsCpuMs: collected.cpuMs / runnable.size,
    postgresCpuMs:
      pgCpu0 !== undefined && pgCpu1 !== undefined ? (pgCpu1 - pgCpu0) / runnable.size : Number.NaN,
    failures: collected.failures.count,
    reportTurns: collected.reportTurns / runnable.size,
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
  const watch = watchRuns(server);
  const agents = new AgentsProcess();
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
    const early: string[] = [];
    for (let i = 0; i < 10; i++) early.push((await server.runs.trigger(pipelineId, {}, 'bench')).run_id);
    const createPerJob = perJob(countsSince(created), 10 * MATRIX);
    await agents.start(grpcPort, `sim-${mode}`, mode === 'batched');
    await phase(server, watch, pipelineId, agents, 0, RUNS, early); // warm-up, the 10 runs above included
    shapes.clear();
    const profiling = process.env.BENCH_PROFILE ? await startProfile() : undefined;
    const burst = await phase(server, watch, pipelineId, agents, 0);
    if (profiling) await profiling(`${process.env.BENCH_PROFILE}/dispatch-${store}-${mode}.cpuprofile`);
    if (process.env.BENCH_SHAPES)
      for (const [shape, n] of [...shapes].sort((a, b) => b[1] - a[1]).slice(0, 25))
        console.log(`${(n / burst.jobs).toFixed(3)}/job  ${shape}`);
    const rate = burst.jobs / burst.seconds;
    // Half the burst rate, offered as one run of MATRIX jobs every gap.
    const paced = await phase(server, watch, pipelineId, agents, (MATRIX / (rate / 2)) * 1000, PACED_RUNS);
    const claimMs = await claimBaseline(server, pipelineId);
    const load = (load0 + loadavg()[0]) / 2;
    return { store, mode, burst, rate, paced, pacedRate: rate / 2, claimMs, createPerJob, load };
  } finally {
    await agents.stop();
    await server.close();
  }
}

const median = (xs: number[]) => quantile(xs, 0.5);
const range = (xs: number[], digits = 0) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

type Result = Awaited<ReturnType<typeof benchStore>>;

const med = (cs: DriverCounts[]): DriverCounts => ({
  roundTrips: median(cs.map((c) => c.roundTrips)),
  statements: median(cs.map((c) => c.statements)),
  transactions: median(cs.map((c) => c.transactions)),
});

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
      const modes = (round % 2 === 0 ? ['baseline', 'batched'] : ['batched', 'baseline']).filter((m) =>
        MODES.includes(m),
      ) as Mode[];
      for (const mode of modes)
        for (const store of STORES) {
          const url =
            store === 'postgres' && pg
              ? await createPostgresDatabase(pg.url, 'dispatch')
              : `sqlite:${tempDir('bench-dispatch-sqlite-')}/ci.db`;
          const r = await benchStore(store, url, mode);
          results.push(r);
          console.log(
            `round ${round + 1} ${r.store} ${mode}: ${r.rate.toFixed(0)} jobs/s, load ${r.load.toFixed(1)}, ` +
              `the rest per job ${fmt(minus(r.burst.perJob, r.createPerJob), r.store === 'postgres')}, ` +
              `CPU ms/job server ${r.burst.serverCpuMs.toFixed(2)}, agents ${r.burst.agentsCpuMs.toFixed(2)}, ` +
              `PostgreSQL ${r.burst.postgresCpuMs.toFixed(2)}, report turns ${r.burst.reportTurns.toFixed(2)} (burst)` +
              (r.burst.failures + r.paced.failures > 0
                ? `, ${r.burst.failures + r.paced.failures} reports failed`
                : ''),
          );
        }
    }
  } finally {
    await pg?.stop();
  }
  const pick = (store: string, mode: Mode) => results.filter((r) => r.store === store && r.mode === mode);
  console.log(
    '\n| store | mode | burst jobs/s (median, range) | × baseline | burst p50 / p99 ms | pickup p50 / p99 ms (paced) | claim UPDATE p50 ms | load avg |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|');
  const summary: { store: string; mode: Mode; rate: number }[] = [];
  for (const store of STORES)
    for (const mode of ['baseline', 'batched'] as const) {
      const rs = pick(store, mode);
      if (rs.length === 0) continue;
      const rates = rs.map((r) => r.rate);
      const base = median(pick(store, 'baseline').map((r) => r.rate));
      summary.push({ store, mode, rate: median(rates) });
      console.log(
        `| ${store} | ${mode} | ${median(rates).toFixed(0)} (${range(rates)}) | ${(median(rates) / base).toFixed(2)}× | ${median(rs.map((r) => r.burst.p50)).toFixed(0)} / ${median(rs.map((r) => r.burst.p99)).toFixed(0)} | ${median(rs.map((r) => r.paced.p50)).toFixed(1)} / ${median(rs.map((r) => r.paced.p99)).toFixed(1)} (p99 ${range(rs.map((r) => r.paced.p99))}) | ${median(rs.map((r) => r.claimMs)).toFixed(3)} | ${range(
          rs.map((r) => r.load),
          1,
        )} |`,
      );
    }
  console.log(
    '\nPer job in the burst: CPU ms of each process (median, range) and, at the driver, round trips / statements / transactions\n' +
      '(median of rounds; SQLite has no round trips). "The rest" is claim, start, finish and heartbeats (creating the run subtracted).\n' +
      "\n| store | mode | server CPU ms/job | ÷ batched | agents CPU ms/job | PostgreSQL CPU ms/job | agents' report turns | whole burst | creating the run | the rest | paced phase, the rest |",
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const store of STORES)
    for (const mode of ['baseline', 'batched'] as const) {
      const rs = pick(store, mode);
      if (rs.length === 0) continue;
      const pgStore = store === 'postgres';
      const server = rs.map((r) => r.burst.serverCpuMs);
      const agents = rs.map((r) => r.burst.agentsCpuMs);
      const pgCpu = rs.map((r) => r.burst.postgresCpuMs);
      const batched = median(pick(store, 'batched').map((r) => r.burst.serverCpuMs));
      console.log(
        `| ${store} | ${mode} | ${median(server).toFixed(2)} (${range(server, 2)}) | ${(median(server) / batched).toFixed(1)}× | ${median(agents).toFixed(2)} (${range(agents, 2)}) | ${pgStore ? `${median(pgCpu).toFixed(2)} (${range(pgCpu, 2)})` : '–'} | ${median(rs.map((r) => r.burst.reportTurns)).toFixed(2)} | ${fmt(med(rs.map((r) => r.burst.perJob)), pgStore)} | ${fmt(med(rs.map((r) => r.createPerJob)), pgStore)} | ${fmt(med(rs.map((r) => minus(r.burst.perJob, r.createPerJob))), pgStore)} | ${fmt(med(rs.map((r) => minus(r.paced.perJob, r.createPerJob))), pgStore)} |`,
      );
    }
  return summary;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
  process.exit(0);
}
