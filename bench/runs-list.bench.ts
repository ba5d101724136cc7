// Benchmark: latency of GET /api/v1/runs?limit=50 (first page, a deep offset, a status filter, a project
// filter) over 100,000 seeded runs, as a ratio to GET /healthz on the same server in the same run, on SQLite
// and on a private PostgreSQL. Requests go over real HTTP with keep-alive; targets are interleaved with the
// baseline so drift affects both alike. Run with `npm run bench` (all benchmarks) or
// `node --import tsx bench/runs-list.bench.ts`. BENCH_RUNS and BENCH_ROUNDS change the sizes.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPostgres, tempDir } from '@app/kit/testing';
import { sql } from 'kysely';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const WARMUP = 100;
const PIPELINES = 10;
const STATUSES = [
  ...Array(70).fill('success'),
  ...Array(15).fill('failed'),
  ...Array(5).fill('canceled'),
  ...Array(5).fill('running'),
  ...Array(5).fill('queued'),
];

function pipelineDoc(i: number): string {
  return [
    `  - name: p${i}`,
    '    materials:',
    '      - git: { url: "https://git.example.com/org/bench.git", branch: main }',
    '    stages: [build]',
    '    jobs:',
    '      make: { stage: build, script: [make] }',
  ].join('\n');
}

export async function seed(server: CiServer): Promise<void> {
  const docs = Array.from({ length: PIPELINES }, (_, i) => pipelineDoc(i)).join('\n');
  const yaml = `project: { slug: bench, name: Bench }\npipelines:\n${docs}\n`;
  const applied = await server.app.inject({
    method: 'POST',
    url: '/api/v1/projects/apply',
    payload: { yaml },
  });
  if (applied.statusCode !== 200) throw new Error(`apply failed: ${applied.body}`);
  const db = server.database.db;
  const pipelines = await db
    .selectFrom('pipelines')
    .select(['id', 'project_id', 'version_id'])
    .orderBy('name')
    .execute();
  const start = Date.now() - RUNS * 60_000;
  const counters = new Map<string, number>();
  const batch = 1000;
  for (let offset = 0; offset < RUNS; offset += batch) {
    const rows = [];
    for (let i = offset; i < Math.min(RUNS, offset + batch); i++) {
      const p = pipelines[i % PIPELINES];
      const counter = (counters.get(p.id) ?? 0) + 1;
      counters.set(p.id, counter);
      const status = STATUSES[(i * 7919) % STATUSES.length];
      const at = new Date(start + i * 60_000).toISOString();
      const done = status !== 'queued' && status !== 'running';
      rows.push({
        // A UUIDv7-shaped id with the creation time in front, as the server makes them.
        id: `${(start + i * 60_000)
          .toString(16)
          .padStart(12, '0')
          .replace(/^(.{8})(.{4})$/, '$1-$2')}-7000-8000-${i.toString(16).padStart(12, '0')}`,
        project_id: p.project_id,
        pipeline_id: p.id,
        version_id: p.version_id,
        counter,
        status,
        cause: 'manual',
        triggered_by: 'bench',
        git_ref: 'main',
        revision: null,
        parameters: '{}',
        rerun_of: null,
        cancel_requested: 0,
        created_at: at,
        started_at: status === 'queued' ? null : at,
        finished_at: done ? at : null,
        updated_at: at,
      });
    }
    await db.insertInto('runs').values(rows).execute();
  }
  for (const [id, counter] of counters)
    await db.updateTable('pipelines').set({ counter }).where('id', '=', id).execute();
  // Fresh statistics (and, on PostgreSQL, a visibility map for index-only scans), as autovacuum would give.
  // The bulk seed updates each run_stats row thousands of times per transaction, which no server does (one
  // run per transaction keeps it on a page or two through HOT pruning): compact it like steady state.
  if (server.database.dialect === 'postgres') {
    await sql`vacuum full run_stats`.execute(db);
    await sql`vacuum analyze`.execute(db);
  } else await sql`analyze`.execute(db);
}

function getter(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (path: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          if (res.statusCode !== 200) body += chunk;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${path}: HTTP ${res.statusCode} ${body}`));
          else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
        });
      });
      req.on('error', reject);
    });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

export interface ListResult {
  store: string;
  target: string;
  medianMs: number;
  p95Ms: number;
  ratio: number;
}

async function measure(store: string, server: CiServer): Promise<ListResult[]> {
  const { httpPort } = await server.listen();
  const get = getter(httpPort);
  const targets: Record<string, string> = {
    'first page': '/api/v1/runs?limit=50',
    [`offset ${Math.floor(RUNS * 0.9)}`]: `/api/v1/runs?limit=50&offset=${Math.floor(RUNS * 0.9)}`,
    // The worst case: the middle of the range is as far from either end as a page can be.
    [`offset ${Math.floor(RUNS * 0.5)}`]: `/api/v1/runs?limit=50&offset=${Math.floor(RUNS * 0.5)}`,
    'status=failed': '/api/v1/runs?limit=50&status=failed',
    'project=bench': '/api/v1/runs?limit=50&project=bench',
  };
  const samples: Record<string, number[]> = { healthz: [] };
  for (const name of Object.keys(targets)) samples[name] = [];
  for (let i = 0; i < WARMUP; i++) {
    await get('/healthz');
    for (const path of Object.values(targets)) await get(path);
  }
  // Keyset paging at the same depths: the id of the run just before offset 50,000 and 90,000, taken after
  // the warm-up, when the retention pass that starts with the server has run (a run it deletes is no cursor).
  for (const depth of [0.5, 0.9]) {
    const at = Math.floor(RUNS * depth);
    const res = await fetch(`http://127.0.0.1:${httpPort}/api/v1/runs?limit=1&offset=${at - 1}`);
    const last = ((await res.json()) as { runs: { id: string }[] }).runs[0]?.id;
    if (last) {
      targets[`cursor at ${at}`] = `/api/v1/runs?limit=50&cursor=${last}`;
      samples[`cursor at ${at}`] = [];
    }
  }
  for (let i = 0; i < ROUNDS; i++) {
    samples.healthz.push(await get('/healthz'));
    for (const [name, path] of Object.entries(targets)) samples[name].push(await get(path));
  }
  const base = quantile(samples.healthz, 0.5);
  return Object.entries(samples).map(([target, xs]) => ({
    store,
    target,
    medianMs: quantile(xs, 0.5),
    p95Ms: quantile(xs, 0.95),
    ratio: quantile(xs, 0.5) / base,
  }));
}

export async function withServer<T>(databaseUrl: string, fn: (server: CiServer) => Promise<T>): Promise<T> {
  const dataDir = tempDir('bench-ci-');
  // Retention keeps 500 finished runs per pipeline by default and its first pass runs a second after
  // listen(): without this it deletes most of the seeded runs while they are measured.
  const config = join(dataDir, 'ci.yaml');
  writeFileSync(config, 'retention:\n  runs_per_pipeline: 100000000\n  run_days: 100000\n');
  const settings = loadCiSettings({
    CI_CONFIG: config,
    CI_DATA_DIR: dataDir,
    CI_DATABASE_URL: databaseUrl,
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: 'bench-agent-token',
    CI_SECRET_KEY: '0'.repeat(64),
    CI_AUTH_ENABLED: 'false',
  });
  const server = await createCiServer(settings, { logger: false });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

async function benchStore(store: 'sqlite' | 'postgres', url: string): Promise<ListResult[]> {
  return withServer(url, async (server) => {
    const t0 = Date.now();
    await seed(server);
    console.log(`  ${store}: seeded ${RUNS} runs in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return measure(store, server);
  });
}

export async function run(): Promise<ListResult[]> {
  console.log(`runs list: ${RUNS} runs, ${ROUNDS} rounds (median and p95 over HTTP keep-alive)`);
  const results = [...(await benchStore('sqlite', `sqlite:${tempDir('bench-sqlite-')}/ci.db`))];
  const pg = await startPostgres();
  try {
    results.push(...(await benchStore('postgres', pg.url)));
  } finally {
    await pg.stop();
  }
  console.log('\n| store | request | median ms | p95 ms | median / healthz |');
  console.log('|---|---|---:|---:|---:|');
  for (const r of results)
    console.log(
      `| ${r.store} | ${r.target} | ${r.medianMs.toFixed(3)} | ${r.p95Ms.toFixed(3)} | ${r.ratio.toFixed(2)}× |`,
    );
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
