// Attacks on the podman engine (real podman, a local busybox image), each judged by its effect: a secret
// with line breaks and shell/option text reaches the container byte for byte and never any command line
// nor podman's own environment; job variables named like the loader's (LD_*), podman's (CONTAINERS_CONF)
// or like options (`-v`) configure nothing outside the container; image names that look like options are
// refused before podman sees them; `network: none` with services reaches the services and nothing of the
// host; a job's background processes and a process flood end with its container.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@app/kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOB_LABEL, JobExecutor, namePrefix, podman, workspacePath } from '../../src/index.js';
import { leftovers, realEngines, testImage } from './engines.js';
import { logCollector, makeJob, makeRepo, scratchDir, visibleDir } from './helpers.js';

// A containers.conf podman would obey if a job could point podman at it.
const repo = makeRepo([{ 'evil.conf': '[containers]\nenv = ["INJECTED=by-the-job"]\n' }]);
let image: string;

beforeAll(async () => {
  image = await testImage();
}, 120_000);

async function setup(pids?: number) {
  const workdir = scratchDir('agent-container-attack-');
  const engines = await realEngines(workdir);
  const settings = { ...engines.podman, ...(pids ? { pids } : {}) };
  return {
    workdir,
    settings,
    ex: new JobExecutor({
      workdir,
      killGraceMs: 1_000,
      serviceKillGraceMs: 1_000,
      engines: { ...engines, podman: settings },
    }),
  };
}

/** Live host processes, with their command line, environment and command name. */
function hostProcesses(): { pid: number; comm: string; cmdline: string; environ: string }[] {
  const out = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      out.push({
        pid: Number(e),
        comm: readFileSync(`/proc/${e}/comm`, 'utf8').trim(),
        cmdline: readFileSync(`/proc/${e}/cmdline`, 'utf8'),
        environ: readFileSync(`/proc/${e}/environ`, 'utf8'),
      });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function appears(path: string): Promise<void> {
  for (;;) {
    try {
      readFileSync(path);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe('podman engine attacks', () => {
  it('hands a multi-line secret with shell and option text over exactly, never on a command line', async () => {
    const { workdir, ex, settings } = await setup();
    const marker = `zq${Math.random().toString(36).slice(2, 10)}`;
    const secret = `first ${marker}\n$HOME \`id\` "double" 'single' \\ --privileged\n-v /:/host\n`;
    const md5 = createHash('md5').update(secret).digest('hex');
    const logs = logCollector();
    const job = makeJob(repo, {
      image,
      secrets: { MULTI: secret, ONE_LINE: `single ${marker} --env X=1` },
      script: [
        'printf %s "$MULTI" | md5sum',
        'echo "$ONE_LINE" | md5sum',
        'echo ready > ready',
        'until [ -e release ]; do sleep 0.05; done',
      ],
    });
    const checkout = join(workspacePath(workdir, job.jobRunId, 1), 'src');
    const running = ex.start(job, { onLog: logs.sink });
    await Promise.race([
      appears(join(checkout, 'ready')),
      running.result.then((r) => {
        throw new Error(`the job ended before it was ready: ${r.error}`);
      }),
    ]);
    // While the container runs: no command line anywhere holds the values, nor the environment of any
    // process outside the container (podman, conmon, the runtime).
    const seen = hostProcesses();
    const own = new Set(['sh', 'sleep', 'md5sum']);
    expect(seen.filter((p) => p.cmdline.includes(marker)).map((p) => p.comm)).toEqual([]);
    expect(seen.filter((p) => !own.has(p.comm) && p.environ.includes(marker)).map((p) => p.comm)).toEqual([]);
    await import('node:fs').then((fs) => fs.writeFileSync(join(checkout, 'release'), ''));
    const res = await running.result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout().some((l) => l.startsWith(md5))).toBe(true);
    const oneLineMd5 = createHash('md5').update(`single ${marker} --env X=1\n`).digest('hex');
    expect(logs.stdout().some((l) => l.startsWith(oneLineMd5))).toBe(true);
    expect(logs.text()).not.toContain(marker);
    // The secret made for the multi-line value is gone with the job.
    const secrets = await podman(settings, ['secret', 'ls', '--noheading', '--format', '{{.Name}}']);
    expect(secrets.stdout.split('\n').filter((n) => n.startsWith(namePrefix(settings)))).toEqual([]);
  }, 60_000);

  it("never lets a job's variables configure podman or its loader, whatever their names", async () => {
    const { ex } = await setup();
    const out = visibleDir('podman-ld-');
    const logs = logCollector();
    const job = makeJob(repo, {
      image,
      env: {
        // Multi-line values once went to podman's own environment; single-line ones reached `podman exec`.
        LD_DEBUG: 'x\n:files',
        LD_DEBUG_OUTPUT: `${join(out, 'run')}\n`,
        LD_PRELOAD: './absent.so',
        CONTAINERS_CONF: 'evil.conf',
        PATH: '/nowhere\n:/bin',
        BWRAP_ARGS: '--bind / /host',
        '-v': '/:/host',
        '--privileged': 'true',
      },
      secrets: { CONTAINERS_STORAGE_CONF: 'storage.conf\n' },
      services: [{ name: 'idle', image, command: ['sleep', '600'], ready: { command: ['true'] } }],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
      script: ['echo "injected=${INJECTED:-none}"', 'echo "conf=$CONTAINERS_CONF"', 'ls /host 2>&1 || true'],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout()).toContain('injected=none');
    expect(logs.stdout()).toContain('conf=evil.conf');
    expect(logs.stdout().join('\n')).toMatch(/\/host: No such file or directory/);
    // Names that are options are refused by name, not handed to podman.
    expect(logs.text()).toContain('variable "-v" cannot be exported');
    expect(logs.text()).toContain('variable "--privileged" cannot be exported');
    // No loader outside the container acted on LD_DEBUG_OUTPUT (busybox inside is static).
    expect(readdirSync(out)).toEqual([]);
  }, 90_000);

  it('refuses image names that podman would read as options', async () => {
    const { ex, settings } = await setup();
    for (const bad of ['--privileged', '-v=/:/host', `${'x'} --privileged`, 'img,readonly=false']) {
      const job = makeJob(repo, { image: bad, script: ['true'] });
      const res = await ex.start(job, { onLog: () => {} }).result;
      expect(res.status).toBe('failed');
      expect(res.error).toBe(`image ${JSON.stringify(bad)} is not a valid image reference`);
      expect(await leftovers(settings, `${JOB_LABEL}=${job.jobRunId}-1`)).toEqual([]);
      const svc = makeJob(repo, {
        image,
        services: [{ name: 'db', image: bad, command: ['sleep', '600'] }],
        script: ['true'],
      });
      const r2 = await ex.start(svc, { onLog: () => {} }).result;
      expect(r2.error).toBe(`image ${JSON.stringify(bad)} is not a valid image reference`);
      expect(r2.exit_code).toBeNull();
    }
  }, 60_000);

  it('with network none and services: the services by name, nothing of the host', async () => {
    const { ex } = await setup();
    const port = await freePort();
    // Stands in for the agent's or the control plane's port, on every address of the host.
    const server = createServer((s) => {
      s.on('error', () => undefined);
      s.end('host says hi\n');
    }).listen(port, '0.0.0.0');
    await new Promise((r) => server.once('listening', r));
    try {
      const hostAddresses = Object.values(networkInterfaces())
        .flat()
        .filter((i) => i && i.family === 'IPv4')
        .map((i) => i!.address);
      const probe = [
        'wget -qO- http://web/index.html',
        // The job's own bridge's gateway (x.y.z.1 of its address) and every address the host has.
        `SELF=$(ip -4 addr show eth0 | awk '/inet /{split($2,a,"/"); print a[1]}')`,
        `for a in \${SELF%.*}.1 ${hostAddresses.join(' ')}; do if nc -w 1 $a ${port} </dev/null | grep -q 'host says'; then echo "reached $a"; else echo "unreachable $a"; fi; done`,
      ];
      const services = [
        {
          name: 'web',
          image,
          command: ['httpd', '-f', '-p', '80', '-h', '/www'],
          ready: { tcp: 80, timeoutMs: 20_000 },
        },
      ];
      const closed = logCollector();
      const res = await ex.start(makeJob(repo, { image, network: 'none', services, script: probe }), {
        onLog: closed.sink,
      }).result;
      expect(res.status, closed.text()).toBe('success');
      expect(closed.stdout()).toContain('pong');
      expect(closed.stdout().filter((l) => l.startsWith('reached'))).toEqual([]);
      expect(closed.stdout().filter((l) => l.startsWith('unreachable')).length).toBe(
        hostAddresses.length + 1,
      );
      // The control: with the default network the same probe reaches the host through its gateway.
      const open = logCollector();
      await ex.start(makeJob(repo, { image, services, script: probe }), { onLog: open.sink }).result;
      expect(open.stdout().filter((l) => l.startsWith('reached')).length, open.text()).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  }, 120_000);

  it("ends a job's background processes and a process flood with its container (pids limit)", async () => {
    const { ex, settings } = await setup(64);
    const logs = logCollector();
    const job = makeJob(repo, {
      image,
      script: [
        'setsid sleep 6017 &',
        'nohup sleep 6017 >/dev/null 2>&1 &',
        // More processes than the pids limit allows: fork fails, the shell gives up.
        'n=0; while [ $n -lt 300 ]; do sleep 6017 & n=$((n+1)); done',
        'echo NEVER-HERE',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status).toBe('failed');
    expect(logs.text()).toMatch(/can't fork/);
    expect(logs.stdout()).not.toContain('NEVER-HERE');
    expect(hostProcesses().filter((p) => p.cmdline.includes('6017'))).toEqual([]);
    expect(await leftovers(settings, `${JOB_LABEL}=${job.jobRunId}-1`)).toEqual([]);
  }, 60_000);
});
