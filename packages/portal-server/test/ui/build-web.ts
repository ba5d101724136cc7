// Builds packages/portal-web before the browser tests when dist/index.html is missing or older than any
// source file (src/, index.html, vite.config.ts, the web kit's src/). Test files run in parallel processes,
// so the build holds a lock directory; a second process waits for it and then finds the build fresh.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@app/kit';

export const WEB_DIR = fileURLToPath(new URL('../../../portal-web/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const LOCK = join(WEB_DIR, '.build-lock');
const STALE_LOCK_MS = 5 * 60_000;

function newestSource(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestSource(join(path, entry)));
  return newest;
}

function isFresh(): boolean {
  const index = join(WEB_DIR, 'dist', 'index.html');
  if (!existsSync(index)) return false;
  // The web kit (its Monaco, components, styles) is compiled into the app, so its sources count too.
  const sources = ['src', 'index.html', 'vite.config.ts', '../web-kit/src']
    .map((p) => join(WEB_DIR, p))
    .filter(existsSync);
  const newest = Math.max(...sources.map(newestSource));
  return statSync(index).mtimeMs >= newest;
}

function tryLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    // A lock left by a process that died mid-build is taken over.
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
    return false;
  }
}

export async function ensureWebBuilt(): Promise<void> {
  if (isFresh()) return;
  await waitFor(async () => tryLock(), {
    timeoutMs: 180_000,
    intervalMs: 100,
    what: 'the portal-web build lock',
  });
  try {
    if (isFresh()) return;
    const res = spawnSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: WEB_DIR,
      // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build (about 230 KB more).
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
      timeout: 170_000,
    });
    if (res.status !== 0) {
      throw new Error(`portal-web build failed (${res.status}):\n${res.stdout}\n${res.stderr}`);
    }
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
