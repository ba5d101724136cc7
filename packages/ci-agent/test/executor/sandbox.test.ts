// The sandbox engine on real bubblewrap: a job without an image sees its checkout as the only writable
// place, cannot see the agent's identity file or another job's workspace, has its own /proc, and with
// `network: none` reaches nothing; its services run in the same sandbox.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { freePort } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { IDENTITY_FILE, JobExecutor } from '../../src/index.js';
import { realEngines } from './engines.js';
import { logCollector, makeJob, makeRepo, scratchDir } from './helpers.js';

const repo = makeRepo([{ 'README.md': 'hello\n' }]);

async function setup() {
  const workdir = scratchDir('agent-sandbox-');
  const engines = await realEngines(workdir);
  // The agent's credential, and another job's workspace with its own secret file.
  writeFileSync(join(workdir, IDENTITY_FILE), '{"credential":"ciac_never_readable"}\n', { mode: 0o600 });
  mkdirSync(join(workdir, 'jobs', 'other-1', 'src'), { recursive: true });
  writeFileSync(join(workdir, 'jobs', 'other-1', 'src', 'secret.txt'), 'other job data\n');
  return {
    workdir,
    ex: new JobExecutor({ workdir, killGraceMs: 2_000, engines: { ...engines, podman: undefined } }),
  };
}

describe('sandbox engine', () => {
  it('keeps the agent credential, other workspaces and the host read-only out of reach', async () => {
    const { workdir, ex } = await setup();
    const outside = scratchDir('outside-');
    const logs = logCollector();
    const job = makeJob(repo, {
      script: [
        'echo made > built.txt',
        `if cat ${join(workdir, IDENTITY_FILE)}; then echo IDENTITY-READ; else echo identity-hidden; fi`,
        `if ls ${join(workdir, 'jobs', 'other-1')}; then echo OTHER-SEEN; else echo other-hidden; fi`,
        `if echo x > ${join(outside, 'escape.txt')}; then echo WROTE-OUTSIDE; else echo outside-read-only; fi`,
        'if echo x > /etc/ci-escape; then echo WROTE-OUTSIDE; else echo etc-read-only; fi',
        'echo scratch > /tmp/private && cat /tmp/private',
        'echo "pid1=$(cat /proc/1/comm)"',
        'echo "processes=$(ls /proc | grep -c "^[0-9]")"',
      ],
      artifacts: { paths: ['built.txt'], when: 'on_success' },
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(res.engine).toBe('sandbox');
    const out = logs.stdout();
    expect(out).toContain('identity-hidden');
    expect(out).toContain('other-hidden');
    expect(out).toContain('outside-read-only');
    expect(out).toContain('scratch');
    expect(out).toContain('pid1=bwrap');
    expect(logs.text()).not.toContain('ciac_never_readable');
    expect(out).not.toContain('IDENTITY-READ');
    expect(out).not.toContain('OTHER-SEEN');
    expect(out).not.toContain('WROTE-OUTSIDE');
    expect(out).toContain('etc-read-only');
    // Its own pid namespace: bwrap, bash, and the few commands of the line.
    const processes = Number(out.find((l) => l.startsWith('processes='))!.split('=')[1]);
    expect(processes).toBeLessThan(10);
    expect(res.artifacts.map((a) => a.path)).toEqual(['built.txt']);
    expect(logs.text()).toContain('engine: bubblewrap sandbox');
  });

  it('gives a job with network none no way to the host, and the host network otherwise', async () => {
    const { ex } = await setup();
    const port = await freePort();
    const server = createServer((s) => {
      s.on('error', () => undefined); // the probe closes without reading
      s.end('hi\n');
    }).listen(port, '127.0.0.1');
    try {
      const probe = [
        `if (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; then echo reached; else echo unreachable; fi`,
      ];
      const open = logCollector();
      expect((await ex.start(makeJob(repo, { script: probe }), { onLog: open.sink }).result).status).toBe(
        'success',
      );
      expect(open.stdout()).toContain('reached');
      const closed = logCollector();
      const none = makeJob(repo, { script: probe, network: 'none' });
      expect((await ex.start(none, { onLog: closed.sink }).result).status).toBe('success');
      expect(closed.stdout()).toContain('unreachable');
    } finally {
      server.close();
    }
  });

  it('runs services in the sandbox, reachable from the job on the loopback', async () => {
    const { ex } = await setup();
    const port = await freePort();
    const logs = logCollector();
    const job = makeJob(repo, {
      services: [
        {
          name: 'web',
          // Serves the checkout: the service sees the job's workspace, in the same kind of sandbox.
          command: ['busybox', 'httpd', '-f', '-p', `127.0.0.1:${port}`, '-h', '.'],
          ready: { http: `http://127.0.0.1:${port}/README.md`, timeoutMs: 20_000 },
        },
      ],
      script: [`busybox wget -qO- http://127.0.0.1:${port}/README.md`],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout()).toContain('hello');
  });
});
