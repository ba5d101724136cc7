// Benchmark: CI operations on SQLite (a file). (1) Log archive throughput: 40 finished jobs of 2,500 lines
// (~100 bytes each, ~10 MB of log text) archived by the real LogArchiver to the filesystem backend, in MB of
// log text per second, against the baseline of gzip alone over the same bytes in memory in the same run; the
// log table's size (rows, text bytes, pages from SQLite's dbstat) before and after. (2) Sweeper time over
// 100,000 runs (the runs-list seed: 10 pipelines, 90 % finished): a pass that finds nothing to remove, then a
// pass that keeps 500 runs per pipeline (deleting ~95,000 runs in batches of 200), then a no-op pass again.
// Run with `npm run bench` or `node --import tsx bench/ci-ops.bench.ts`; BENCH_RUNS changes the run count.
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { type CiServer, createCiServer, loadCiSettings } from '../packages/ci-server/src/index.js';
import { DEFAULT_QUOTAS } from '../packages/ci-server/src/retention/retention-settings.js';
import { RetentionSweeper } from '../packages/ci-server/src/retention/retention-sweeper.js';
import { tempDir } from '../packages/kit/src/testing/index.js';
import { seed } from './runs-list.bench.js';

const JOBS = 40;
const LINES = 2_500;

async function server(): Promise<CiServer> {
  const dir = tempDir('bench-ops-');
  return createCiServer(
    loadCiSettings({
      CI_DATA_DIR: dir,
      CI_DATABASE_URL: `sqlite:${dir}/ci.db`,
      CI_HTTP_PORT: '0',
      CI_GRPC_PORT: '0',
      CI_AUTH_ENABLED: 'false',
      CI_AGENT_TOKEN: 'bench',
      CI_SECRET_KEY: '0'.repeat(64),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
}

async function tableSize(s: CiServer) {
  const db = s.database.db as any;
  const agg = await db
    .selectFrom('log_lines')
    .select([sql<number>`count(*)`.as('rows'), sql<number>`coalesce(sum(length(text)), 0)`.as('bytes')])
    .executeTakeFirstOrThrow();
  let pages: number | null = null;
  try {
    const r = await sql<{
      bytes: number;
    }>`select sum(pgsize) as bytes from dbstat where name like 'log_lines%' or name = 'sqlite_autoindex_log_lines_1'`.execute(
      db,
    );
    pages = Number(r.rows[0]?.bytes ?? 0);
  } catch {
    // dbstat is not compiled into every SQLite build.
  }
  return { rows: Number(agg.rows), textBytes: Number(agg.bytes), onDiskBytes: pages };
}

export async function archiveBench() {
  const s = await server();
  try {
    const yaml = `project: { slug: ops, name: Ops }\npipelines:\n  - name: build\n    stages: [build]\n    jobs:\n      make: { stage: build, script: [make] }\n`;
    const applied = await s.app.inject({ method: 'POST', url: '/api/v1/projects/apply', payload: { yaml } });
    if (applied.statusCode !== 200) throw new Error(applied.body);
    const db = s.database.db as any;
    const pipeline = await db.selectFrom('pipelines').select('id').executeTakeFirstOrThrow();
    const raw: string[] = [];
    for (let j = 0; j < JOBS; j++) {
      const res = await s.app.inject({ method: 'POST', url: `/api/v1/pipelines/${pipeline.id}/trigger` });
      const job = await db
        .selectFrom('job_runs')
        .select('id')
        .where('run_id', '=', res.json().run_id)
        .executeTakeFirstOrThrow();
      for (let from = 1; from <= LINES; from += 500) {
        const batch = Array.from({ length: 500 }, (_, i) => {
          const seq = from + i;
          const text = `[${String(seq).padStart(5, '0')}] compiling module_${(seq * 7919) % 1000}.ts ok ${'.'.repeat(seq % 40)} ${(seq * 31) % 97}ms`;
          raw.push(text);
          return { seq, stream: 'stdout', atMs: Date.UTC(2026, 0, 1) + seq, text };
        });
        await s.execution.logs.appendLogBatch(job.id, batch);
      }
      await db
        .updateTable('job_runs')
        .set({ status: 'success', finished_at: new Date(Date.UTC(2026, 0, 1)).toISOString() })
        .where('id', '=', job.id)
        .execute();
    }
    const before = await tableSize(s);
    const rawBytes = Buffer.byteLength(raw.join('\n'));
    // Baseline: gzip alone over the same bytes, in memory.
    const g0 = performance.now();
    const gz = gzipSync(Buffer.from(raw.join('\n')), { level: 6 });
    const gzipMs = performance.now() - g0;

    await s.app.inject({
      method: 'PUT',
      url: '/api/v1/projects/ops/log-archive',
      payload: { override: { enabled: true, after: '0s' } },
    });
    const t0 = performance.now();
    let archived = 0;
    let stored = 0;
    for (;;) {
      const r = await s.retention.archiver.archiveDue(10);
      archived += r.archived;
      stored += r.stored_bytes;
      if (r.archived === 0) break;
    }
    const archiveMs = performance.now() - t0;
    const after = await tableSize(s);
    const mb = rawBytes / 1024 / 1024;
    const result = {
      jobs: archived,
      log_mb: Number(mb.toFixed(2)),
      archive_mb_per_s: Number((mb / (archiveMs / 1000)).toFixed(2)),
      gzip_only_mb_per_s: Number((mb / (gzipMs / 1000)).toFixed(2)),
      ratio_to_gzip: Number((archiveMs / gzipMs).toFixed(2)),
      compressed_bytes: stored,
      compression: Number((rawBytes / Math.max(1, stored)).toFixed(1)),
      gzip_only_bytes: gz.length,
      table_before: before,
      table_after: after,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await s.close();
  }
}

export async function sweepBench() {
  const s = await server();
  try {
    const s0 = performance.now();
    await seed(s);
    const seedMs = performance.now() - s0;
    const sweeper = (runs_per_pipeline: number) =>
      new RetentionSweeper({
        db: s.database.db,
        storage: s.execution.storage,
        quotas: { ...DEFAULT_QUOTAS, runs_per_pipeline },
      });
    const noop1 = await sweeper(100_000).sweep();
    const quota = await sweeper(500).sweep();
    const noop2 = await sweeper(500).sweep();
    const runsLeft = Number(
      (
        (await (s.database.db as any)
          .selectFrom('runs')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()) as { n: number }
      ).n,
    );
    const result = {
      seeded_runs: Number(process.env.BENCH_RUNS ?? 100_000),
      seed_ms: Math.round(seedMs),
      noop_sweep_ms: noop1.duration_ms,
      quota_sweep_ms: quota.duration_ms,
      quota_sweep_removed_runs: quota.removed.runs,
      runs_left: runsLeft,
      noop_sweep_after_ms: noop2.duration_ms,
      errors: [...noop1.errors, ...quota.errors, ...noop2.errors],
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await s.close();
  }
}

export async function run() {
  console.log('-- log archive (SQLite, filesystem backend)');
  await archiveBench();
  console.log('-- retention sweeper over seeded runs (SQLite)');
  await sweepBench();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
  process.exit(0);
}
