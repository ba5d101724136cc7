// Benchmark: log ingestion. Simulated agents (one per job run, all at once) push their lines in batches of
// 100 through `LogStore.appendLogBatch` — what the PushLogs handler calls: ordering checks, run-wide cursor,
// idempotent insert, hub publish — and the figure is lines/s from call to commit, as a ratio to a plain
// multi-row INSERT of the same lines, in the same batches and concurrency, into the same table of the same
// database in the same run. Rounds alternate baseline and target on fresh job runs. SQLite (a file) and a
// private PostgreSQL. Run with `npm run bench` or `node --import tsx bench/log-ingest.bench.ts`;
// BENCH_LOG_JOBS, BENCH_LOG_LINES (per job) and BENCH_LOG_ROUNDS change the sizes.
import { pathToFileURL } from 'node:url';
import { startPostgres, tempDir } from '@app/kit/testing';
import type { CiServer } from '../packages/ci-server/src/index.js';
import { withServer } from './runs-list.bench.js';

const JOBS = Number(process.env.BENCH_LOG_JOBS ?? 20);
const LINES = Number(process.env.BENCH_LOG_LINES ?? 5_000);
const ROUNDS = Number(process.env.BENCH_LOG_ROUNDS ?? 3);
const BATCH = 100;

export const PIPELINE = `project: { slug: logbench, name: Log bench }
pipelines:
  - name: noisy
    stages: [build]
    jobs:
      make:
        stage: build
        script: [make]
        matrix:
          N: [${Array.from({ length: JOBS }, (_, i) => `"${i}"`).join(', ')}]
`;

/** A compiler-like line of about 90 characters. */
export const text = (job: number, seq: number) =>
  `[${String(seq).padStart(6, '0')}] src/module_${job}/file_${seq % 97}.ts: compiled 1${seq % 1000} symbols in ${seq % 50} ms`;

/** Triggers the `noisy` pipeline once and returns the ids of its job runs (one per matrix cell). */
export async function newJobRuns(server: CiServer): Promise<string[]> {
  const pipeline = await server.database.db
    .selectFrom('pipelines')
    .select('id')
    .where('name', '=', 'noisy')
    .executeTakeFirstOrThrow();
  const res = await server.app.inject({ method: 'POST', url: `/api/v1/pipelines/${pipeline.id}/trigger` });
  if (res.statusCode !== 201) throw new Error(`trigger failed: ${res.body}`);
  const jobs = await server.database.db
    .selectFrom('job_runs')
    .select('id')
    .where('run_id', '=', res.json().run_id)
    .execute();
  return jobs.map((j: { id: string }) => j.id);
}

/** Every job pushes its lines batch after batch; all jobs at once. Returns lines per second. */
async function pushAll(
  jobIds: string[],
  push: (jobIndex: number, jobId: string, from: number) => Promise<void>,
) {
  const t0 = process.hrtime.bigint();
  await Promise.all(
    jobIds.map(async (id, j) => {
      for (let from = 1; from <= LINES; from += BATCH) await push(j, id, from);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return (jobIds.length * LINES) / seconds;
}

const batchOf = (job: number, from: number) =>
  Array.from({ length: Math.min(BATCH, LINES - from + 1) }, (_, i) => ({
    seq: from + i,
    stream: 'stdout',
    atMs: Date.now(),
    text: text(job, from + i),
  }));

export interface IngestResult {
  store: string;
  baseline: number;
  target: number;
  ratio: number;
}

async function benchStore(store: 'sqlite' | 'postgres', url: string): Promise<IngestResult> {
  return withServer(url, async (server) => {
    const applied = await server.app.inject({
      method: 'POST',
      url: '/api/v1/projects/apply',
      payload: { yaml: PIPELINE },
    });
    if (applied.statusCode !== 200) throw new Error(`apply failed: ${applied.body}`);
    const db = server.database.db;
    const logs = server.execution.logs;
    // Warm-up of both paths (statement caches, JIT).
    const warm = await newJobRuns(server);
    await logs.appendLogBatch(warm[0], batchOf(0, 1));
    await db
      .insertInto('log_lines')
      .values(
        batchOf(1, 1).map((l) => ({
          job_run_id: warm[1],
          seq: l.seq,
          stream: l.stream,
          at: new Date(l.atMs).toISOString(),
          text: l.text,
        })),
      )
      .execute();

    const base: number[] = [];
    const target: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const plainJobs = await newJobRuns(server);
      base.push(
        await pushAll(plainJobs, async (j, id, from) => {
          const rows = batchOf(j, from).map((l) => ({
            job_run_id: id,
            seq: l.seq,
            stream: l.stream,
            at: new Date(l.atMs).toISOString(),
            text: l.text,
          }));
          await db.insertInto('log_lines').values(rows).execute();
        }),
      );
      const agentJobs = await newJobRuns(server);
      target.push(
        await pushAll(agentJobs, async (j, id, from) => {
          const r = await logs.appendLogBatch(id, batchOf(j, from));
          if (r.ackedSeq !== Math.min(from + BATCH - 1, LINES))
            throw new Error(`unexpected ack ${r.ackedSeq}`);
        }),
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const b = median(base);
    const t = median(target);
    console.log(
      `  ${store}: plain ${base.map((x) => Math.round(x)).join(', ')} lines/s; appendLogBatch ${target.map((x) => Math.round(x)).join(', ')} lines/s`,
    );
    return { store, baseline: b, target: t, ratio: t / b };
  });
}

export async function run(): Promise<IngestResult[]> {
  console.log(
    `log ingestion: ${JOBS} concurrent jobs × ${LINES} lines in batches of ${BATCH}, ${ROUNDS} rounds (medians)`,
  );
  const results = [await benchStore('sqlite', `sqlite:${tempDir('bench-logs-')}/ci.db`)];
  const pg = await startPostgres();
  try {
    results.push(await benchStore('postgres', pg.url));
  } finally {
    await pg.stop();
  }
  console.log('\n| store | plain INSERT lines/s | appendLogBatch lines/s | ratio |');
  console.log('|---|---:|---:|---:|');
  for (const r of results)
    console.log(
      `| ${r.store} | ${Math.round(r.baseline)} | ${Math.round(r.target)} | ${(r.ratio * 100).toFixed(0)} % |`,
    );
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
