// The portal's footprint as a deployment sees it: the server runs as its own process, once from the build
// (`npm start`, scripts/build-servers.mjs) and once through tsx (development), against a private PostgreSQL
// with 1,000,000 seeded rows declared as a managed datasource. Per runner: the time from spawn to the first
// answer of GET /api/health (wall, and the server's own CPU time, which the machine's load moves less),
// idle RSS (VmRSS after the first answer and 2 s of rest), then a sign-in, a first query and a CSV export of
// every row, with the process's peak RSS (VmHWM, the kernel's high-water mark, so no sampling can miss a
// peak). Linux only (/proc). `BENCH_EXPORT_ROWS` changes the size; `BENCH_NODE=/path/to/node` runs the portal
// under another Node binary (the benchmark itself stays on the current one); `BENCH_PG_URL` reuses a server
// that already holds `bench_rows` (seeded with EXPORT_ROWS rows) instead of starting and seeding one;
// `BENCH_RUNNERS=build` skips the tsx runner.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPostgres, tempDir } from '@app/kit/testing';
// @ts-expect-error: a plain .mjs script without types
import { build, NODE_FLAGS } from '../scripts/build-servers.mjs';
import { seedBenchRows } from './portal-bench-rows.js';

const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const NODE = process.env.BENCH_NODE ?? process.execPath;
const root = join(import.meta.dirname, '..');
const ADMIN = { email: 'bench@example.test', password: 'bench-password-0123' };

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function procStatus(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${key}:`));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

/** The process's user + system CPU time in ms (/proc/<pid>/stat fields 14 and 15, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function request(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  cookie?: string,
): Promise<{ status: number; bytes: number; headers: http.IncomingHttpHeaders }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: {
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
          origin: `http://127.0.0.1:${port}`,
          ...(cookie ? { cookie } : {}),
        },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, headers: res.headers }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

interface Figures {
  firstAnswerMs: number;
  startCpuMs: number;
  idleRss: number;
  firstQueryMs: number;
  exportMs: number;
  exportPeak: number;
}

async function measure(args: string[], env: Record<string, string>): Promise<Figures> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(NODE, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), PORTAL_DATA_DIR: tempDir('bench-footprint-') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  const pid = child.pid as number;
  try {
    let firstAnswerMs = 0;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`portal exited: ${stderr}`);
      const ok = await request(port, 'GET', '/api/db/health').then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) {
        firstAnswerMs = performance.now() - started;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const startCpuMs = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 2000));
    const idleRss = procStatus(pid, 'VmRSS');
    const login = await request(port, 'POST', '/api/auth/login', ADMIN);
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
    const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
    let t = performance.now();
    const q = await request(
      port,
      'POST',
      '/api/db/query',
      { connectionId: 'bench', sql: 'SELECT * FROM bench_rows ORDER BY id LIMIT 100' },
      cookie,
    );
    if (q.status !== 200) throw new Error(`query answered ${q.status}`);
    const firstQueryMs = performance.now() - t;
    t = performance.now();
    const e = await request(
      port,
      'POST',
      '/api/db/export',
      { connectionId: 'bench', sql: 'SELECT * FROM bench_rows ORDER BY id', format: 'csv' },
      cookie,
    );
    const exportMs = performance.now() - t;
    if (e.headers['x-export-rows'] !== String(EXPORT_ROWS)) throw new Error(`export answered ${e.status}`);
    return {
      firstAnswerMs,
      startCpuMs,
      idleRss,
      firstQueryMs,
      exportMs,
      exportPeak: procStatus(pid, 'VmHWM'),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function run(): Promise<void> {
  const reuse = process.env.BENCH_PG_URL;
  const server = reuse ? { url: reuse, stop: async () => {} } : await startPostgres();
  if (!reuse) await seedBenchRows(server.url, EXPORT_ROWS);
  const u = new URL(server.url);
  const dir = tempDir('bench-footprint-config-');
  const datasources = join(dir, 'datasources.yaml');
  writeFileSync(
    datasources,
    [
      'datasources:',
      '  - id: bench',
      '    type: postgres',
      `    host: ${u.hostname}`,
      `    port: ${u.port}`,
      `    user: ${decodeURIComponent(u.username)}`,
      ...(u.password ? [`    password: ${decodeURIComponent(u.password)}`] : []),
      `    database: ${u.pathname.slice(1)}`,
      '    roles: [admin]',
      `    policy: { maxRows: ${EXPORT_ROWS} }`,
      '',
    ].join('\n'),
  );
  const env = {
    PORTAL_DATASOURCES: datasources,
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
  };
  try {
    const bundle = await build('portal');
    // BENCH_VARIANTS='{"name": ["--node-flag", …]}' measures the build under other Node flags instead.
    const variants = process.env.BENCH_VARIANTS
      ? Object.entries(JSON.parse(process.env.BENCH_VARIANTS) as Record<string, string[]>).map(
          ([name, flags]): [string, string[]] => [name, [...flags, bundle]],
        )
      : undefined;
    const flags = (NODE_FLAGS as Record<string, string[]>).portal;
    const runners: [string, string[]][] = variants ?? [
      ['build (npm start)', [...flags, bundle]],
      ['build, no V8 flags', [bundle]],
      ...(process.env.BENCH_RUNNERS === 'build'
        ? []
        : [
            ['tsx (development)', ['--import', 'tsx', 'packages/portal-server/src/main.ts']] as [
              string,
              string[],
            ],
          ]),
    ];
    const version = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
    console.log(
      `Node ${version} (${NODE}); portal as a separate process; ${EXPORT_ROWS.toLocaleString('en-US')}-row CSV export`,
    );
    console.log(
      'runner               first answer  start CPU  idle RSS  first query  export    export peak RSS',
    );
    for (const [name, args] of runners) {
      const f = await measure(args, env);
      console.log(
        `${name.padEnd(20)} ${`${Math.round(f.firstAnswerMs)} ms`.padStart(12)}  ${`${f.startCpuMs} ms`.padStart(9)}  ${mb(f.idleRss).padStart(8)}  ${`${Math.round(f.firstQueryMs)} ms`.padStart(11)}  ${`${(f.exportMs / 1000).toFixed(1)} s`.padStart(6)}  ${mb(f.exportPeak).padStart(15)}`,
      );
    }
    console.log('aims: idle RSS ≤ 130 MB, first answer ≤ 1 s, export peak < 200 MB');
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
  process.exit(0);
}
