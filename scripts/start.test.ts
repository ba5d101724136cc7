// `npm start` as a user runs it: everything comes up on its ports, and Ctrl-C (SIGINT) leaves no process.
import { spawn } from 'node:child_process';
import { freePort, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it('starts the CI server, an agent and the portal, and Ctrl-C stops them all', {
    timeout: 120_000,
  }, async () => {
    const [http, grpc, portal] = [await freePort(), await freePort(), await freePort()];
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...process.env,
        DATA_DIR: tempDir('start-'),
        CI_HTTP_PORT: String(http),
        CI_GRPC_PORT: String(grpc),
        PORT: String(portal),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      out += c;
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await waitFor(async () => out.includes('Press Ctrl-C to stop.'), {
        what: 'start-up',
        timeoutMs: 100_000,
      });
      expect((await fetch(`http://127.0.0.1:${http}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${portal}/api/db/health`)).status).toBe(200);
      const pids = [...out.matchAll(/(ci-server|ci-agent|portal) (\d+)/g)].map((m) => Number(m[2]));
      expect(pids).toHaveLength(3);
      expect(pids.every(alive)).toBe(true);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(out).toContain('All services stopped.');
      expect(pids.filter(alive)).toEqual([]);
      await expect(fetch(`http://127.0.0.1:${http}/healthz`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
