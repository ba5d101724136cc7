import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canConnect, freePort } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { JobExecutor, processAlive, type ServiceEvent } from '../../src/index.js';
import { logCollector, makeJob, makeRepo, scratchDir } from './helpers.js';

const repo = makeRepo();

/** A tiny HTTP server that records its pid, then listens on the port after a short delay. */
function serverScript(dir: string): string {
  const path = join(dir, 'server.cjs');
  writeFileSync(
    path,
    `const [port, pidFile, delay] = process.argv.slice(2);
require('node:fs').writeFileSync(pidFile, String(process.pid));
setTimeout(() => require('node:http').createServer((q, s) => s.end('pong')).listen(Number(port), '127.0.0.1'), Number(delay));
`,
  );
  return path;
}

function setup() {
  const dir = scratchDir('svc-');
  return {
    dir,
    script: serverScript(dir),
    ex: new JobExecutor({
      workdir: scratchDir('agent-work-'),
      killGraceMs: 2_000,
      serviceKillGraceMs: 2_000,
      // The host engine, explicitly: these tests watch a service's process from outside (its pid file in a
      // directory outside the workspace, its host pid). Sandboxed and container services: isolation.test.ts.
      engines: { plain: 'host' },
    }),
  };
}

describe('job services', () => {
  it('starts a tcp-ready service before the script and stops it after the job', async () => {
    const { dir, script, ex } = setup();
    const port = await freePort();
    const pidFile = join(dir, 'svc.pid');
    const events: ServiceEvent[] = [];
    const logs = logCollector();
    const job = makeJob(repo, {
      env: { PORT: String(port) },
      services: [
        {
          name: 'web',
          command: [process.execPath, script, String(port), pidFile, '300'],
          ready: { tcp: port, timeoutMs: 20_000 },
        },
      ],
      // The first line would fail (set -e) if nothing listened yet.
      script: ['exec 3<>/dev/tcp/127.0.0.1/$PORT', 'echo service-was-up'],
    });
    const res = await ex.start(job, { onLog: logs.sink, onServiceEvent: (e) => events.push(e) }).result;
    expect(res.status).toBe('success');
    expect(logs.stdout()).toContain('service-was-up');
    expect(events.map((e) => `${e.service}:${e.state}`)).toEqual([
      'web:starting',
      'web:ready',
      'web:stopped',
    ]);
    const readySeq = logs.lines.find((l) => l.text.includes('service web is ready'))!.seq;
    const scriptSeq = logs.lines.find((l) => l.text.startsWith('+ exec 3'))!.seq;
    expect(readySeq).toBeLessThan(scriptSeq);
    expect(processAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    expect(await canConnect(port)).toBe(false);
  });

  it('supports http and command readiness probes', async () => {
    const { dir, script, ex } = setup();
    const [p1, p2] = [await freePort(), await freePort()];
    const events: ServiceEvent[] = [];
    const job = makeJob(repo, {
      env: { NODE_BIN: process.execPath },
      services: [
        {
          name: 'api',
          command: [process.execPath, script, String(p1), join(dir, 'a.pid'), '200'],
          ready: { http: `http://127.0.0.1:${p1}/health`, timeoutMs: 20_000 },
        },
        {
          name: 'db',
          command: [process.execPath, script, String(p2), join(dir, 'b.pid'), '200'],
          ready: { command: ['bash', '-c', `exec 3<>/dev/tcp/127.0.0.1/${p2}`], timeoutMs: 20_000 },
        },
      ],
      script: [`exec 3<>/dev/tcp/127.0.0.1/${p1}`, `exec 4<>/dev/tcp/127.0.0.1/${p2}`],
    });
    const res = await ex.start(job, { onLog: () => {}, onServiceEvent: (e) => events.push(e) }).result;
    expect(res.status).toBe('success');
    for (const name of ['api', 'db']) {
      expect(events.filter((e) => e.service === name).map((e) => e.state)).toEqual([
        'starting',
        'ready',
        'stopped',
      ]);
    }
  });

  it('fails the job when a service is not ready within its timeout, without running the script', async () => {
    const { dir, ex } = setup();
    const port = await freePort();
    const events: ServiceEvent[] = [];
    const logs = logCollector();
    const pidFile = join(dir, 'sleeper.pid');
    const job = makeJob(repo, {
      services: [
        {
          name: 'never',
          command: ['bash', '-c', `echo $$ > ${pidFile}; exec sleep 600`],
          ready: { tcp: port, timeoutMs: 1_000 },
        },
      ],
      script: ['echo script-ran'],
    });
    const res = await ex.start(job, { onLog: logs.sink, onServiceEvent: (e) => events.push(e) }).result;
    expect(res.status).toBe('failed');
    expect(res.exit_code).toBeNull();
    expect(res.error).toBe(`service never was not ready within 1s (tcp 127.0.0.1:${port})`);
    expect(logs.stdout()).not.toContain('script-ran');
    expect(events.map((e) => e.state)).toEqual(['starting', 'failed']);
    expect(events[1].message).toBe(res.error);
    expect(processAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });

  it('fails the job when a service exits before it is ready or cannot start', async () => {
    const { ex } = setup();
    const port = await freePort();
    const exits = await ex.start(
      makeJob(repo, {
        services: [{ name: 'crash', command: ['bash', '-c', 'echo boom >&2; exit 7'], ready: { tcp: port } }],
      }),
      { onLog: () => {} },
    ).result;
    expect(exits.status).toBe('failed');
    expect(exits.error).toBe('service crash exited before it was ready (exit code 7)');

    const missing = await ex.start(
      makeJob(repo, { services: [{ name: 'ghost', command: ['/nonexistent/ghost-binary'] }] }),
      { onLog: () => {} },
    ).result;
    expect(missing.status).toBe('failed');
    expect(missing.error).toContain('cannot start service ghost');
  });

  it('stops services when the job is canceled', async () => {
    const { dir, script, ex } = setup();
    const port = await freePort();
    const pidFile = join(dir, 'svc.pid');
    const events: ServiceEvent[] = [];
    const logs = logCollector();
    const running = ex.start(
      makeJob(repo, {
        services: [
          {
            name: 'web',
            command: [process.execPath, script, String(port), pidFile, '0'],
            ready: { tcp: port },
          },
        ],
        script: ['echo waiting', 'sleep 600'],
      }),
      { onLog: logs.sink, onServiceEvent: (e) => events.push(e) },
    );
    const deadline = Date.now() + 20_000;
    while (!logs.stdout().includes('waiting') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    running.cancel();
    const res = await running.result;
    expect(res.status).toBe('canceled');
    expect(events.map((e) => e.state)).toEqual(['starting', 'ready', 'stopped']);
    expect(processAlive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
});
