// The podman engine on real podman with a locally built busybox image: the job's file system is the
// image's, the checkout is its working directory, variables and secrets arrive as environment (secrets
// masked), exit codes and output behave as on the host, service containers are reachable by name, a job
// with no script runs the image's own command (plugins), the pull policy fails clearly, and cancel, timeout
// and a killed agent's leftovers leave no container or network behind.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_LABEL,
  IDENTITY_FILE,
  JOB_LABEL,
  JobExecutor,
  type PodmanSettings,
  podman,
  sweepLeftovers,
} from '../../src/index.js';
import { leftovers, realEngines, testImage } from './engines.js';
import { logCollector, makeJob, makeRepo, scratchDir } from './helpers.js';

const repo = makeRepo([{ 'README.md': 'hello from the repo\n' }]);
let image: string;

beforeAll(async () => {
  image = await testImage();
}, 120_000);

async function setup() {
  const workdir = scratchDir('agent-podman-');
  const engines = await realEngines(workdir);
  writeFileSync(join(workdir, IDENTITY_FILE), '{"credential":"ciac_never_readable"}\n', { mode: 0o600 });
  mkdirSync(join(workdir, 'jobs', 'other-1', 'src'), { recursive: true });
  return {
    workdir,
    settings: engines.podman,
    ex: new JobExecutor({ workdir, killGraceMs: 2_000, serviceKillGraceMs: 1_000, engines }),
  };
}

describe('podman engine', () => {
  it("runs the script in the image's file system with the checkout as working directory", async () => {
    const { workdir, ex, settings } = await setup();
    const logs = logCollector();
    const job = makeJob(repo, {
      image,
      env: { GREETING: 'multi\nline' },
      secrets: { API_TOKEN: 's3cr3t-token-value' },
      script: [
        'cat /etc/marker',
        'pwd',
        'cat README.md',
        'echo "token=$API_TOKEN"',
        'printf "%s\\n" "$GREETING"',
        `if cat ${join(workdir, IDENTITY_FILE)} 2>/dev/null; then echo IDENTITY-READ; else echo identity-absent; fi`,
        `if ls ${join(workdir, 'jobs')} 2>/dev/null; then echo JOBS-SEEN; else echo jobs-absent; fi`,
        'test ! -e /usr/bin/node && echo no-host-node',
        'echo to-stderr >&2',
        'echo built > out.txt',
        'exit 3',
      ],
      artifacts: { paths: ['out.txt'], when: 'always' },
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.engine).toBe('podman');
    expect(res.status, logs.text()).toBe('failed');
    expect(res.exit_code).toBe(3);
    const out = logs.stdout();
    expect(out).toContain('the image file system');
    expect(out).toContain('/workspace');
    expect(out).toContain('hello from the repo');
    expect(out).toContain('token=***');
    expect(out).toEqual(expect.arrayContaining(['multi', 'line']));
    expect(out).toContain('identity-absent');
    expect(out).toContain('jobs-absent');
    expect(out).toContain('no-host-node');
    expect(logs.text()).not.toContain('s3cr3t-token-value');
    // The job's stderr shares stdout's pipe (one order for both, as written: docs/ci-agent.md).
    expect(out).toContain('to-stderr');
    expect(res.artifacts.map((a) => a.path)).toEqual(['out.txt']);
    expect(await leftovers(settings, `${JOB_LABEL}=${job.jobRunId}-1`)).toEqual([]);
  });

  it("runs the image's own command when the job has no script (a plugin)", async () => {
    const { ex } = await setup();
    const logs = logCollector();
    const job = makeJob(repo, { image, script: [], env: { PLUGIN_MESSAGE: 'hi-from-plugin' } });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout()).toContain('image cmd says hi-from-plugin');
  });

  it('starts service containers on a private network, reachable by name', async () => {
    const { ex, settings } = await setup();
    const logs = logCollector();
    const job = makeJob(repo, {
      image,
      services: [
        {
          name: 'web',
          image,
          command: ['httpd', '-f', '-p', '8080', '-h', '/www'],
          ready: { tcp: 8080, timeoutMs: 30_000 },
        },
      ],
      script: ['wget -qO- http://web:8080/index.html'],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout()).toContain('pong');
    expect(await leftovers(settings, `${JOB_LABEL}=${job.jobRunId}-1`)).toEqual([]);
  });

  it('fails with a clear reason when the image cannot be had', async () => {
    const { ex } = await setup();
    const never = makeJob(repo, { image: 'localhost/ci-agent-absent:1', pull: 'never' });
    const r1 = await ex.start(never, { onLog: () => {} }).result;
    expect(r1.status).toBe('failed');
    expect(r1.error).toBe(
      'image localhost/ci-agent-absent:1 is not on this agent and the pull policy is never',
    );
    const pull = makeJob(repo, { image: 'localhost/ci-agent-absent:1', pull: 'always' });
    const r2 = await ex.start(pull, { onLog: () => {} }).result;
    expect(r2.status).toBe('failed');
    expect(r2.error).toMatch(/^cannot pull image localhost\/ci-agent-absent:1: /);
  });

  it('leaves no container or network behind when a job is canceled or times out', async () => {
    const { ex, settings } = await setup();
    const logs = logCollector();
    const job = makeJob(repo, {
      image,
      services: [{ name: 'idle', image, command: ['sleep', '600'] }],
      script: ['echo started', 'sleep 600'],
    });
    const running = ex.start(job, { onLog: logs.sink });
    // Cancel once the script runs (its first line is in the log), not after a guessed delay.
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (logs.stdout().includes('started')) {
          clearInterval(poll);
          resolve();
        }
      }, 50);
    });
    running.cancel();
    const res = await running.result;
    expect(res.status).toBe('canceled');
    expect(await leftovers(settings, `${JOB_LABEL}=${job.jobRunId}-1`)).toEqual([]);

    const slow = makeJob(repo, { image, script: ['sleep 600'], timeoutMs: 3_000 });
    const timedOut = await ex.start(slow, { onLog: () => {} }).result;
    expect(timedOut.status).toBe('failed');
    expect(timedOut.error).toContain('timed out');
    expect(await leftovers(settings, `${JOB_LABEL}=${slow.jobRunId}-1`)).toEqual([]);
  });

  it("sweeps what a killed agent left (by its label) and nobody else's", async () => {
    const { settings } = await setup();
    const mine = { ...settings, agentKey: `t${Math.random().toString(16).slice(2, 12)}` };
    const other: PodmanSettings = { ...settings, agentKey: `t${Math.random().toString(16).slice(2, 12)}` };
    const start = async (s: PodmanSettings) => {
      const net = `ci-${s.agentKey}-leftover`;
      expect(
        (await podman(s, ['network', 'create', '--label', `${AGENT_LABEL}=${s.agentKey}`, net])).code,
      ).toBe(0);
      const run = await podman(s, [
        'run',
        '-d',
        '--label',
        `${AGENT_LABEL}=${s.agentKey}`,
        '--network',
        net,
        ...s.ulimits.flatMap((u) => ['--ulimit', u]),
        image,
        'sleep',
        '600',
      ]);
      expect(run.code, run.stderr).toBe(0);
    };
    await start(mine);
    await start(other);
    expect(await sweepLeftovers(mine)).toEqual({ containers: 1, networks: 1, secrets: 0 });
    expect(await leftovers(mine, `${AGENT_LABEL}=${mine.agentKey}`)).toEqual([]);
    expect(await leftovers(other, `${AGENT_LABEL}=${other.agentKey}`)).toHaveLength(2);
    await sweepLeftovers(other);
  });
});
