// Installs npm dependencies when they are missing or older than package-lock.json, so that a fresh clone
// works with `npm start` / `npm test` alone. Uses `npm install` (not `npm ci`: this registry lacks other
// platforms' optional binaries, which `npm ci` would insist on). A first install takes minutes (about 1,500
// packages, and better-sqlite3 compiles from source), so it is never a silent wait: npm's own output is
// shown, install scripts print as they run (`--foreground-scripts`, the compile included), and a line every
// few seconds says how long it has taken and how many packages are in so far.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packages installed so far (top-level folders of node_modules, scopes counted by their members). */
function installedCount(dir) {
  const modules = join(dir, 'node_modules');
  let count = 0;
  try {
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      if (name.startsWith('@')) count += readdirSync(join(modules, name)).length;
      else count += 1;
    }
  } catch {
    // not created yet
  }
  return count;
}

/**
 * Resolves once dependencies are present. `options` serve the test: another root, another npm command,
 * another heartbeat interval.
 */
export function ensureDeps(options = {}) {
  const dir = options.root ?? root;
  const npm = options.npm ?? process.env.ENSURE_DEPS_NPM ?? 'npm';
  const everyMs = options.heartbeatMs ?? Number(process.env.ENSURE_DEPS_HEARTBEAT_MS ?? 10_000);
  const marker = join(dir, 'node_modules', '.package-lock.json');
  const lock = join(dir, 'package-lock.json');
  const fresh =
    existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs);
  if (fresh && existsSync(join(dir, 'node_modules', '.bin', 'tsx'))) return Promise.resolve();
  console.log(
    'Installing npm dependencies (npm install). A first install takes 2–5 minutes: about 1,500 packages, and ' +
      'better-sqlite3 compiles from source (about a minute). Progress follows.',
  );
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['install', '--no-audit', '--no-fund', '--foreground-scripts'], {
      cwd: dir,
      stdio: 'inherit',
    });
    const heartbeat = setInterval(() => {
      const s = Math.round((Date.now() - started) / 1000);
      console.log(`… still installing npm dependencies: ${s} s, ${installedCount(dir)} packages so far`);
    }, everyMs);
    const done = (status) => {
      clearInterval(heartbeat);
      if (status !== 0) {
        console.error('npm install failed; see the output above.');
        process.exit(status ?? 1);
      }
      console.log(`npm dependencies installed in ${Math.round((Date.now() - started) / 1000)} s.`);
      resolve();
    };
    child.on('error', () => done(1));
    child.on('exit', (code) => done(code));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureDeps();
