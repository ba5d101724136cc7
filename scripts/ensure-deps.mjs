// Installs npm dependencies when they are missing or older than package-lock.json, so that a fresh clone
// works with `npm start` / `npm test` alone. Uses `npm install` (not `npm ci`: this registry lacks other
// platforms' optional binaries, which `npm ci` would insist on).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDeps() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  const fresh =
    existsSync(marker) && (!existsSync(lock) || statSync(marker).mtimeMs >= statSync(lock).mtimeMs);
  if (fresh && existsSync(join(root, 'node_modules', '.bin', 'tsx'))) return;
  console.log('Installing npm dependencies (npm install)…');
  const res = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('npm install failed; see the output above.');
    process.exit(res.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();
