// Benchmark: the added cost per job of the agent's isolation engines (issue 28). The same trivial job
// (`true`, no git material, so no checkout) runs through the agent's executor N times with each engine, one
// after another: the host engine (bash directly, the baseline: how every job ran before), the bubblewrap
// sandbox, and a podman container of a local busybox image (already present: no pull), then the container
// again with a service container (the private network and the service's address lookup). Figures are the
// job's wall time from start() to its result, median and p90, with the ratio and the difference to the host
// job measured in the same run.
// Run with `npm run bench` or `node --import tsx bench/engines.bench.ts`; BENCH_ENGINE_JOBS sets N (default 10).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  detectEngines,
  type EngineSettings,
  type JobAssignment,
  JobExecutor,
  podman,
} from '../packages/ci-agent/src/index.js';
import { tempDir } from '../packages/kit/src/testing/index.js';
import { quantile } from './dispatch.bench.js';

const N = Number(process.env.BENCH_ENGINE_JOBS ?? 10);

/** A busybox image imported from Debian's busybox-static (no registry needed). */
async function busyboxImage(settings: { binary: string; runtime: string }): Promise<string> {
  const hash = createHash('sha256').update(readFileSync('/bin/busybox')).digest('hex').slice(0, 12);
  const image = `localhost/ci-agent-bench-busybox:${hash}`;
  if ((await podman(settings, ['image', 'exists', image])).code === 0) return image;
  const root = tempDir('bench-rootfs-');
  for (const d of ['bin', 'tmp', 'etc']) mkdirSync(join(root, d));
  writeFileSync(join(root, 'bin', 'busybox'), readFileSync('/bin/busybox'), { mode: 0o755 });
  for (const a of execFileSync('/bin/busybox', ['--list']).toString().split('\n'))
    if (a && a !== 'busybox') symlinkSync('busybox', join(root, 'bin', a));
  const tar = join(tempDir('bench-tar-'), 'rootfs.tar');
  execFileSync('tar', ['-C', root, '-cf', tar, '.']);
  const r = await podman(settings, ['import', '--change', 'ENV PATH=/bin', tar, image]);
  if (r.code !== 0) throw new Error(`podman import failed: ${r.stderr}`);
  rmSync(root, { recursive: true, force: true });
  return image;
}

function job(i: number, extra: Partial<JobAssignment> = {}): JobAssignment {
  return {
    jobRunId: `bench${i}x${Math.random().toString(16).slice(2, 8)}`,
    attempt: 1,
    projectSlug: 'bench',
    pipelineName: 'engines',
    pipelineId: 'p',
    runId: 'r',
    runCounter: i,
    jobName: 'noop',
    cause: 'manual',
    script: ['true'],
    env: {},
    secrets: {},
    services: [],
    cache: [],
    testReports: [],
    ...extra,
  };
}

async function measure(engines: EngineSettings, workdir: string, extra: Partial<JobAssignment>) {
  const ex = new JobExecutor({ workdir, engines, killGraceMs: 2_000 });
  const times: number[] = [];
  // One warm-up job (first exec of each binary, page cache), then N measured.
  for (let i = 0; i <= N; i++) {
    const t0 = performance.now();
    const res = await ex.start(job(i, extra), { onLog: () => {} }).result;
    if (res.status !== 'success') throw new Error(`bench job failed: ${res.error}`);
    if (i > 0) times.push(performance.now() - t0);
  }
  return times;
}

export async function run() {
  const workdir = tempDir('bench-engines-');
  const { settings, problems } = await detectEngines({ workdir, plain: 'sandbox' });
  if (!settings.sandbox || !settings.podman) throw new Error(`engines missing: ${problems.join('; ')}`);
  const image = await busyboxImage(settings.podman);
  const rows: [string, EngineSettings, Partial<JobAssignment>][] = [
    ['host (baseline)', { plain: 'host' }, {}],
    ['sandbox (bwrap)', { plain: 'sandbox', sandbox: settings.sandbox }, {}],
    ['container (podman)', settings, { image }],
    [
      'container + 1 service',
      settings,
      { image, services: [{ name: 'svc', image, command: ['sleep', '600'] }] },
    ],
  ];
  const result: Record<string, unknown>[] = [];
  let base = 0;
  for (const [name, engines, extra] of rows) {
    const t = await measure(engines, workdir, extra);
    const p50 = quantile(t, 0.5);
    if (!base) base = p50;
    result.push({
      engine: name,
      jobs: t.length,
      p50_ms: Math.round(p50),
      p90_ms: Math.round(quantile(t, 0.9)),
      ratio_to_host: Number((p50 / base).toFixed(2)),
      added_ms: Math.round(p50 - base),
    });
  }
  console.table(result);
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run();
  process.exit(0);
}
