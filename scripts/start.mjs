// `npm start`: everything on embedded defaults. Installs dependencies when missing, builds the web UIs when
// they are not built yet, then starts the CI control plane (8153 HTTP, 8154 gRPC), one local build agent
// and the database portal (3000), with SQLite files and folders under ./.data/. Each service's log goes to
// ./.data/logs/<service>.log; warnings (such as generated credentials) are echoed here. Ctrl-C stops
// everything and waits until every process it started has exited.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverArgs } from './build-servers.mjs';
import { ensureDeps, root } from './ensure-deps.mjs';

ensureDeps();

// The services run from their bundles (rebuilt when a source is newer; scripts/build-servers.mjs), not
// through tsx, which compiled every file at each start; DEV=1 runs them from source with tsx.
const SERVER_ARGS = {
  'ci-server': await serverArgs('ci'),
  'ci-agent': await serverArgs('agent'),
  portal: await serverArgs('portal'),
};

// DATA_DIR moves everything (used by the start-up test); the default is ./.data/.
const dataDir = process.env.DATA_DIR ?? join(root, '.data');
const logDir = join(dataDir, 'logs');
mkdirSync(logDir, { recursive: true });

// Web UIs are built once (and again after `rm -rf packages/*-web/dist`).
for (const web of ['ci-web', 'portal-web']) {
  const dir = join(root, 'packages', web);
  if (existsSync(join(dir, 'index.html')) && !existsSync(join(dir, 'dist', 'index.html'))) {
    console.log(`Building ${web}…`);
    const res = spawnSync('npm', ['run', 'build', '-w', `packages/${web}`], { cwd: root, stdio: 'inherit' });
    if (res.status !== 0) process.exit(res.status ?? 1);
  }
}

const ciHttpPort = process.env.CI_HTTP_PORT ?? '8153';
const ciGrpcPort = process.env.CI_GRPC_PORT ?? '8154';
const portalPort = process.env.PORT ?? '3000';
const ciDataDir = process.env.CI_DATA_DIR ?? join(dataDir, 'ci');
const portalDataDir = process.env.PORTAL_DATA_DIR ?? join(dataDir, 'portal');

const children = [];
let stopping = false;

function run(name, entry, env) {
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, SERVER_ARGS[name] ?? ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const echo = (chunk) => {
    log.write(chunk);
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line);
        const level =
          typeof entry.level === 'number'
            ? entry.level
            : ({ warn: 40, error: 50, fatal: 60 }[entry.level] ?? 30);
        if (level >= 40 || entry.announce) console.log(`[${name}] ${entry.msg}`);
      } catch {
        console.log(`[${name}] ${line}`);
      }
    }
  };
  child.stdout.on('data', echo);
  child.stderr.on('data', echo);
  child.on('exit', (code, signal) => {
    log.end();
    if (!stopping) {
      console.error(
        `[${name}] exited (${signal ?? code}); stopping everything. See ${join(logDir, `${name}.log`)}`,
      );
      stop(1);
    }
  });
  children.push(child);
  return child;
}

async function waitHttp(url, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!stopping) throw new Error(`${what} did not become healthy at ${url}`);
}

async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  const exits = children
    .filter((c) => c.exitCode === null && c.signalCode === null)
    .map(
      (c) =>
        new Promise((done) => {
          c.once('exit', done);
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
        }),
    );
  await Promise.all(exits);
  console.log('All services stopped.');
  process.exit(code);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  run('ci-server', 'packages/ci-server/src/main.ts', {
    CI_HTTP_PORT: ciHttpPort,
    CI_GRPC_PORT: ciGrpcPort,
    CI_DATA_DIR: ciDataDir,
  });
  await waitHttp(`http://127.0.0.1:${ciHttpPort}/healthz`, 'CI control plane');

  const tokenFile = join(ciDataDir, 'agent-token');
  const agentToken =
    process.env.CI_AGENT_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : '');
  run('ci-agent', 'packages/ci-agent/src/main.ts', {
    CI_SERVER: `127.0.0.1:${ciGrpcPort}`,
    CI_AGENT_TOKEN: agentToken,
    CI_AGENT_NAME: process.env.CI_AGENT_NAME ?? 'local-agent',
    CI_AGENT_WORKDIR: process.env.CI_AGENT_WORKDIR ?? join(dataDir, 'agent'),
  });

  run('portal', 'packages/portal-server/src/main.ts', {
    PORT: portalPort,
    PORTAL_DATA_DIR: portalDataDir,
    STORAGE_PROVIDER: process.env.STORAGE_PROVIDER ?? 'sqlite',
  });
  await waitHttp(`http://127.0.0.1:${portalPort}/api/db/health`, 'database portal');

  const portalSecrets = join(portalDataDir, 'auth-bootstrap.json');
  let portalLogin = '';
  if (existsSync(portalSecrets)) {
    const s = JSON.parse(readFileSync(portalSecrets, 'utf8'));
    if (s.ADMIN_PASSWORD)
      portalLogin = `  (${process.env.ADMIN_EMAIL ?? 'admin@localhost'} / ${s.ADMIN_PASSWORD})`;
  }
  console.log(`
Everything is up.
  CI control plane   http://localhost:${ciHttpPort}   (agents: 127.0.0.1:${ciGrpcPort}; admin credentials are printed above on first start)
  Build agent        local-agent, workspace ${join(dataDir, 'agent')}
  Database portal    http://localhost:${portalPort}${portalLogin}
  Logs               ${logDir}
  Processes          ${children.map((c, i) => `${['ci-server', 'ci-agent', 'portal'][i]} ${c.pid}`).join(', ')}
Press Ctrl-C to stop.`);
} catch (err) {
  console.error(String(err));
  await stop(1);
}
