// Builds packages/ci-web before the browser tests when dist/index.html is missing or older than any source
// file (src/, index.html, vite.config.ts, public/, the web kit's sources). Test files run in parallel
// processes, so the build is guarded by a lock directory (mkdir is atomic); a process that finds the lock
// waits for it, then re-checks.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const WEB_DIR = join(ROOT, 'packages/ci-web');
const INDEX = join(WEB_DIR, 'dist/index.html');
const LOCK = join(WEB_DIR, '.build-lock');
// The web kit (packages/web-kit) is compiled into the app, so its sources count too.
const SOURCES = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  '../web-kit/src',
  '../web-kit/vite.mjs',
];

function newestSource(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestSource(join(path, entry)));
  return newest;
}

function isFresh(): boolean {
  if (!existsSync(INDEX)) return false;
  const built = statSync(INDEX).mtimeMs;
  return SOURCES.every((s) => newestSource(join(WEB_DIR, s)) <= built);
}

function tryLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    // A lock left by a killed run (older than the longest build) is taken over.
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > 180_000) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // gone in between: the next attempt takes it
    }
    return false;
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function ensureWebBuilt(): Promise<void> {
  const deadline = Date.now() + 240_000;
  while (!isFresh()) {
    if (tryLock()) {
      try {
        if (isFresh()) return;
        const res = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
          cwd: WEB_DIR,
          encoding: 'utf8',
          timeout: 180_000,
        });
        if (res.status !== 0)
          throw new Error(`building ci-web failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
        return;
      } finally {
        rmSync(LOCK, { recursive: true, force: true });
      }
    }
    if (Date.now() > deadline) throw new Error('timed out waiting for another process to build ci-web');
    await pause(250);
  }
}
