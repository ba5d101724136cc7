// `npm start`: everything on embedded defaults. Installs dependencies when missing, builds the web UIs when
// they are not built yet, then starts the CI control plane (8153 HTTP, 8154 gRPC), one local build agent
// and the database portal (3000), with SQLite files and folders under ./.data/. Each service's log goes to
// ./.data/logs/<service>.log (directory 0700, files 0600); warnings are echoed here. Ctrl-C stops
// everything and waits until every process it started has exited.
//
// Credentials: the CI administrator's password and the portal's two local accounts (administrator and a
// second, ordinary user, so a two-person approval can be tried at once) are generated here, once, into
// ./.data/credentials.json (mode 0600) and handed to the services through their environment, so no service
// ever generates (and logs) one. They are printed to this terminal with the file's path, and scrubbed from
// every log line before it is written or echoed, whatever a service prints.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { serverArgs } from './build-servers.mjs';
import { ensureDeps, root } from './ensure-deps.mjs';
import { ensureSampleDatasources } from './sample-datasource.mjs';

await ensureDeps();

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
for (const dir of [dataDir, logDir]) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** The newest modification time of the files under `dir` (0 when there is none). */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

// Web UIs are built when they have no build, or when a source is newer than it: after a `git pull` the
// user gets the UI of the code they pulled, not the one built at their first start. The kit's sources count
// too (both UIs are built from it).
const kitSources = newestMtime(join(root, 'packages', 'web-kit', 'src'));
for (const web of ['ci-web', 'portal-web']) {
  const dir = join(root, 'packages', web);
  const built = join(dir, 'dist', 'index.html');
  const stale = () =>
    Math.max(kitSources, newestMtime(join(dir, 'src')), statSync(join(dir, 'index.html')).mtimeMs) >
    statSync(built).mtimeMs;
  if (existsSync(join(dir, 'index.html')) && (!existsSync(built) || stale())) {
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

// ---- credentials ------------------------------------------------------------------------------------------
const credentialsFile = join(dataDir, 'credentials.json');
const generate = () => randomBytes(18).toString('base64url');
const readJson = (path) => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return {};
  }
};
const saved = readJson(credentialsFile);
const credentials = { ...saved };
const ciUsername = process.env.CI_ADMIN_USERNAME ?? 'admin';
const adminEmail = process.env.ADMIN_EMAIL ?? 'admin@localhost';
const userEmail = process.env.USER_EMAIL ?? 'user@localhost';
// The CI administrator is created at the first start only: a password generated later would not apply.
const ciFirstStart = !existsSync(join(ciDataDir, 'ci.db')) && !process.env.CI_DATABASE_URL;
if (!process.env.CI_ADMIN_PASSWORD && !credentials.ci && ciFirstStart) {
  credentials.ci = { username: ciUsername, password: generate() };
}
// The portal reads its passwords at every start; an earlier start's generated one is kept.
const portalBootstrap = readJson(join(portalDataDir, 'auth-bootstrap.json'));
if (!process.env.ADMIN_PASSWORD && !credentials.portalAdmin) {
  credentials.portalAdmin = { email: adminEmail, password: portalBootstrap.ADMIN_PASSWORD ?? generate() };
}
if (!process.env.USER_PASSWORD && !credentials.portalUser) {
  credentials.portalUser = { email: userEmail, password: generate() };
}
if (JSON.stringify(credentials) !== JSON.stringify(saved)) {
  writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
if (existsSync(credentialsFile)) chmodSync(credentialsFile, 0o600);

/** Every credential value this start knows, generated or given: none may reach a log file. */
const secrets = [
  credentials.ci?.password,
  credentials.portalAdmin?.password,
  credentials.portalUser?.password,
  process.env.CI_ADMIN_PASSWORD,
  process.env.ADMIN_PASSWORD,
  process.env.USER_PASSWORD,
].filter((v) => typeof v === 'string' && v.length >= 6);
const scrub = (line) => secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), line);

// ---- services -----------------------------------------------------------------------------------------------
const children = [];
let stopping = false;

function run(name, entry, env) {
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  if (existsSync(logFile)) chmodSync(logFile, 0o600);
  const child = spawn(process.execPath, SERVER_ARGS[name] ?? ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Whole lines only, so a credential split across two chunks is still recognised and scrubbed.
  const echoFrom = () => {
    let pending = '';
    return (chunk) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const raw of lines) emit(raw);
    };
  };
  const emit = (raw) => {
    const line = scrub(raw);
    log.write(`${line}\n`);
    if (!line.trim()) return;
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
  };
  child.stdout.on('data', echoFrom());
  child.stderr.on('data', echoFrom());
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
    ...(credentials.ci && !process.env.CI_ADMIN_PASSWORD
      ? { CI_ADMIN_PASSWORD: credentials.ci.password }
      : {}),
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
    // The control plane's and the portal's data (secret key, agent token, TLS key, databases) and the
    // printed credentials sit next to the agent's: a sandboxed job must not read them (docs/ci-agent.md).
    CI_AGENT_SANDBOX_HIDE: [process.env.CI_AGENT_SANDBOX_HIDE, dataDir, ciDataDir, portalDataDir]
      .filter(Boolean)
      .join(','),
  });

  // Without a datasources file of the user's own, a sample shop to try the IDE and an approval on.
  const portalDatasources = process.env.PORTAL_DATASOURCES ?? (await ensureSampleDatasources(portalDataDir));
  run('portal', 'packages/portal-server/src/main.ts', {
    PORT: portalPort,
    PORTAL_DATA_DIR: portalDataDir,
    PORTAL_DATASOURCES: portalDatasources,
    STORAGE_PROVIDER: process.env.STORAGE_PROVIDER ?? 'sqlite',
    ADMIN_EMAIL: adminEmail,
    ...(credentials.portalAdmin && !process.env.ADMIN_PASSWORD
      ? { ADMIN_PASSWORD: credentials.portalAdmin.password }
      : {}),
    USER_EMAIL: userEmail,
    ...(credentials.portalUser && !process.env.USER_PASSWORD
      ? { USER_PASSWORD: credentials.portalUser.password }
      : {}),
  });
  await waitHttp(`http://127.0.0.1:${portalPort}/api/db/health`, 'database portal');

  const ciLogin = credentials.ci
    ? `${credentials.ci.username} / ${credentials.ci.password}`
    : process.env.CI_ADMIN_PASSWORD
      ? `${ciUsername} / (your CI_ADMIN_PASSWORD)`
      : `${ciUsername} / (set at an earlier first start)`;
  const portalAdmin = credentials.portalAdmin
    ? `${credentials.portalAdmin.email} / ${credentials.portalAdmin.password}`
    : `${adminEmail} / (your ADMIN_PASSWORD)`;
  const portalUser = credentials.portalUser
    ? `${credentials.portalUser.email} / ${credentials.portalUser.password}`
    : `${userEmail} / (your USER_PASSWORD)`;
  console.log(`
Everything is up.
  CI control plane   http://localhost:${ciHttpPort}   (agents: 127.0.0.1:${ciGrpcPort})
                     administrator ${ciLogin}
  Build agent        local-agent, workspace ${join(dataDir, 'agent')}
  Database portal    http://localhost:${portalPort}
                     administrator ${portalAdmin}
                     user          ${portalUser}   (a second person, e.g. to approve the administrator's writes)
  Datasources        ${portalDatasources}${process.env.PORTAL_DATASOURCES ? '' : "\n                     (a sample shop whose writes wait for the other account's approval; edit freely)"}
  Credentials        ${credentialsFile} (mode 0600; never written to the logs)
  Logs               ${logDir}
  Processes          ${children.map((c, i) => `${['ci-server', 'ci-agent', 'portal'][i]} ${c.pid}`).join(', ')}
Press Ctrl-C to stop.`);
} catch (err) {
  console.error(String(err));
  await stop(1);
}
