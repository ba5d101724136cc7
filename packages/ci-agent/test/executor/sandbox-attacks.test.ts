// Attacks on the sandbox engine (real bubblewrap), each judged by its effect on disk, in the host's process
// table or in what the agent stores: a job variable that would configure bwrap itself (the loader's LD_*
// variables act before any sandbox exists), a job reading or writing a concurrent job's workspace, the
// agent's cache or identity, the operator's hidden paths and the credential files of the agent user's home,
// a cache or artifact path leading through a symbolic link out of the checkout, a job leaving processes
// behind with setsid/nohup, and a `network: none` job reaching the host's listeners on any address.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePort } from '@app/kit';
import { describe, expect, it } from 'vitest';
import { detectSandbox, IDENTITY_FILE, JobExecutor, workspacePath } from '../../src/index.js';
import { realEngines } from './engines.js';
import { logCollector, makeJob, makeRepo, scratchDir, visibleDir } from './helpers.js';

const repo = makeRepo([{ 'README.md': 'hello\n' }]);
const CREDENTIAL = 'ciac_sandbox_attack_credential';

async function setup(o: { hide?: string[]; home?: string; workdir?: string; expose?: string[] } = {}) {
  const workdir = o.workdir ?? scratchDir('agent-attack-');
  const engines = await realEngines(workdir);
  writeFileSync(join(workdir, IDENTITY_FILE), `{"credential":"${CREDENTIAL}"}\n`, { mode: 0o600 });
  mkdirSync(join(workdir, 'cache'), { recursive: true });
  writeFileSync(join(workdir, 'cache', 'other-project.tar.gz'), 'cached bytes of another project\n');
  const sandbox = detectSandbox(o.hide ?? [], o.home, o.expose ?? []).sandbox;
  if (!sandbox) throw new Error('bubblewrap is needed');
  return {
    workdir,
    ex: new JobExecutor({ workdir, killGraceMs: 1_000, engines: { ...engines, sandbox, podman: undefined } }),
  };
}

/** Host processes whose command line holds `token` (an escaped background process carries it). */
function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(token)) found.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Resolves once `path` exists (the job reached a given line), polling the file system. */
async function appears(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 25));
}

describe('sandbox attacks', () => {
  it("never lets a job's variables configure bwrap itself (the loader's LD_* act outside the sandbox)", async () => {
    const { ex } = await setup();
    const out = visibleDir('ld-out-');
    const logs = logCollector();
    // The agent's own registration token is in its environment: no process of the job may see it.
    const token = `agent-token-${Math.random().toString(16).slice(2)}`;
    const before = process.env.CI_AGENT_TOKEN;
    process.env.CI_AGENT_TOKEN = token;
    const job = makeJob(repo, {
      env: { LD_DEBUG: 'files', LD_DEBUG_OUTPUT: join(out, 'ld') },
      secrets: { LD_AUDIT: join(out, 'absent.so') },
      script: [
        'echo "inside: $LD_DEBUG"',
        'env | grep CI_AGENT_TOKEN || echo no-agent-token',
        'cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep CI_AGENT_TOKEN || echo none-in-proc',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result.finally(() => {
      if (before === undefined) delete process.env.CI_AGENT_TOKEN;
      else process.env.CI_AGENT_TOKEN = before;
    });
    expect(logs.stdout()).toEqual(expect.arrayContaining(['no-agent-token', 'none-in-proc']));
    expect(logs.text()).not.toContain(token);
    expect(res.status, logs.text()).toBe('success');
    // The job itself still gets its variables.
    expect(logs.stdout()).toContain('inside: files');
    // Had bwrap (or anything outside the sandbox) run with them, its loader would have written here:
    // inside the sandbox /var/tmp is read-only.
    expect(readdirSync(out)).toEqual([]);
  });

  it("keeps a concurrent job's workspace, the cache and the identity out of reach, and writes off disk", async () => {
    const { workdir, ex } = await setup();
    const a = makeJob(repo, {
      script: ['echo a-private > a.txt', 'echo ready > ready', 'until [ -e release ]; do sleep 0.05; done'],
    });
    const aCheckout = join(workspacePath(workdir, a.jobRunId, 1), 'src');
    const aLogs = logCollector();
    const runningA = ex.start(a, { onLog: aLogs.sink });
    await appears(join(aCheckout, 'ready'));

    const bLogs = logCollector();
    const b = makeJob(repo, {
      script: [
        `if cat ${aCheckout}/a.txt; then echo A-READ; else echo a-hidden; fi`,
        `ls ${workdir}/jobs || true`,
        `if cat ${workdir}/${IDENTITY_FILE}; then echo IDENTITY-READ; else echo identity-hidden; fi`,
        `if cat ${workdir}/cache/other-project.tar.gz; then echo CACHE-READ; else echo cache-hidden; fi`,
        // Writes land, at most, in the sandbox's own tmpfs over the work directory: never on disk.
        `mkdir -p ${aCheckout} && echo b > ${aCheckout}/b-was-here || true`,
        `mkdir -p ${workdir}/cache && echo x > ${workdir}/cache/poisoned.tar.gz || true`,
        `echo x > ${workdir}/${IDENTITY_FILE} || true`,
        `echo x > ${workdir}/planted || true`,
      ],
    });
    const resB = await ex.start(b, { onLog: bLogs.sink }).result;
    writeFileSync(join(aCheckout, 'release'), '');
    const resA = await runningA.result;
    expect(resA.status, aLogs.text()).toBe('success');
    expect(resB.status, bLogs.text()).toBe('success');
    const out = bLogs.stdout();
    expect(out).toEqual(expect.arrayContaining(['a-hidden', 'identity-hidden', 'cache-hidden']));
    // What the job printed (not the `+ line` echo of its script, which names the probes).
    const printed = out.filter((l) => !l.startsWith('+ ')).join('\n');
    expect(printed).not.toMatch(/A-READ|IDENTITY-READ|CACHE-READ|a-private|cached bytes/);
    expect(printed).not.toContain(CREDENTIAL);
    // The job saw no other workspace: `ls` listed its own only.
    expect(out).toContain(`${b.jobRunId}-1`);
    expect(out).not.toContain(`${a.jobRunId}-1`);
    // On disk: nothing of B's anywhere in the work directory.
    expect(existsSync(join(workdir, 'planted'))).toBe(false);
    expect(readdirSync(join(workdir, 'cache'))).toEqual(['other-project.tar.gz']);
    expect(readFileSync(join(workdir, IDENTITY_FILE), 'utf8')).toContain(CREDENTIAL);
  });

  it("hides the operator's paths and the credential files of the agent user's home", async () => {
    // Stand-ins outside /tmp (which the sandbox covers anyway): the control plane's data directory next to
    // the agent's under `npm start`, and a home with the usual credential files.
    const data = visibleDir('ci-data-');
    writeFileSync(join(data, 'secret-key'), 'server-secret-key-material\n');
    mkdirSync(join(data, 'tls'));
    writeFileSync(join(data, 'tls', 'key.pem'), '-----BEGIN PRIVATE KEY----- server tls\n');
    const home = visibleDir('agent-home-');
    const files: Record<string, string> = {
      '.ssh/id_ed25519': 'ssh-private-key',
      '.docker/config.json': 'docker-registry-login',
      '.config/containers/auth.json': 'podman-registry-login',
      '.local/share/containers/storage.conf': 'rootless-podman-storage',
      '.git-credentials': 'git-credentials-token',
      '.netrc': 'netrc-password',
      '.npmrc': 'npm-registry-token',
      '.aws/credentials': 'aws-secret-key',
      '.kube/config': 'kube-token',
      '.gnupg/private.key': 'gpg-private-key',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(home, path, '..'), { recursive: true });
      writeFileSync(join(home, path), `${text}\n`);
    }
    writeFileSync(join(home, '.bashrc'), 'harmless\n');
    // As under `npm start`: the agent's work directory inside the hidden data directory.
    const workdir = join(data, 'agent');
    mkdirSync(workdir);
    // Both exposed by the operator (CI_AGENT_SANDBOX_EXPOSE), the data directory also hidden: what is hidden
    // stays hidden inside what is exposed, and so do the home's credential files.
    const { ex } = await setup({ hide: [data], home, workdir, expose: [data, home] });
    const logs = logCollector();
    const job = makeJob(repo, {
      script: [
        `cat ${data}/secret-key ${data}/tls/key.pem 2>/dev/null || echo data-hidden`,
        ...Object.keys(files).map((p) => `cat ${home}/${p} 2>/dev/null || echo ${p}-hidden`),
        `cat ${home}/.bashrc`,
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout()).toContain('data-hidden');
    for (const [path, text] of Object.entries(files)) {
      expect(logs.stdout()).toContain(`${path}-hidden`);
      expect(logs.text()).not.toContain(text);
    }
    expect(logs.text()).not.toMatch(/server-secret-key|server tls/);
    // The rest of an exposed home stays readable (tools installed there keep working).
    expect(logs.stdout()).toContain('harmless');
  });

  it('shows a job only the system allow-list: no other host path, no secret of /etc, no writable root', async () => {
    const canary = visibleDir('host-canary-');
    writeFileSync(join(canary, 'note.txt'), 'host-only-canary-text\n');
    const { ex } = await setup();
    const logs = logCollector();
    const job = makeJob(repo, {
      script: [
        `cat ${canary}/note.txt 2>/dev/null || echo canary-absent`,
        `ls ${process.cwd()} >/dev/null 2>&1 && echo CWD-SEEN || echo cwd-absent`,
        'cat /etc/shadow 2>/dev/null || echo shadow-absent',
        'ls /etc/ssh/ssh_host_* >/dev/null 2>&1 && echo HOST-KEYS-SEEN || echo host-keys-absent',
        'ls /root >/dev/null 2>&1 && echo ROOT-HOME-SEEN || echo root-home-absent',
        'ls /var/lib >/dev/null 2>&1 && echo VAR-SEEN || echo var-absent',
        '(echo x > /escape) 2>/dev/null && echo ROOT-WRITABLE || echo root-read-only',
        '(echo x > /etc/escape) 2>/dev/null && echo ETC-WRITABLE || echo etc-read-only',
        // What programs need is there: users, the loader, certificates, and a HOME the job can write.
        'id -un',
        'test -s /etc/ld.so.cache && echo loader-ok',
        'test -d /etc/ssl/certs && echo certs-ok',
        'echo cached > "$HOME/.probe" && cat "$HOME/.probe"',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    const out = logs.stdout();
    for (const word of [
      'canary-absent',
      'cwd-absent',
      'shadow-absent',
      'host-keys-absent',
      'root-home-absent',
      'var-absent',
      'root-read-only',
      'etc-read-only',
      'root',
      'loader-ok',
      'certs-ok',
      'cached',
    ])
      expect(out).toContain(word);
    for (const word of [
      'CWD-SEEN',
      'HOST-KEYS-SEEN',
      'ROOT-HOME-SEEN',
      'VAR-SEEN',
      'ROOT-WRITABLE',
      'ETC-WRITABLE',
    ])
      expect(out).not.toContain(word);
    expect(logs.text()).not.toContain('host-only-canary-text');
    expect(existsSync('/escape')).toBe(false);
  });

  it('never caches or uploads a file reached through a link out of the checkout', async () => {
    const { workdir, ex } = await setup();
    const logs = logCollector();
    // The checkout is <workdir>/jobs/<id>/src: three levels up is the work directory with the identity.
    const job = makeJob(repo, {
      script: ['ln -s ../../.. agent', 'ln -s / root', 'echo fine > ok.txt'],
      cache: [
        { key: 'stolen', paths: ['agent/agent-identity.json', 'root/etc/hostname', 'agent', 'ok.txt'] },
      ],
      artifacts: { paths: ['agent/agent-identity.json', 'root/etc/hostname', 'ok.txt'], when: 'always' },
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(res.artifacts.map((a) => a.path)).toEqual(['ok.txt']);
    // Whatever was saved under the key holds no byte of the identity file.
    const entries = readdirSync(join(workdir, 'cache')).filter((f) => f !== 'other-project.tar.gz');
    for (const e of entries) {
      expect(gunzipSync(readFileSync(join(workdir, 'cache', e))).toString('latin1')).not.toContain(
        CREDENTIAL,
      );
    }
    expect(logs.text()).toMatch(/cache path agent\/agent-identity\.json leads out of the checkout/);
  });

  it('stops what a job left running, setsid and nohup included', async () => {
    const { ex } = await setup();
    const token = `escape${Math.random().toString(16).slice(2, 10)}`;
    const logs = logCollector();
    const job = makeJob(repo, {
      script: [
        `setsid sh -c 'sleep 600; echo ${token}' >/dev/null 2>&1 < /dev/null &`,
        `nohup sh -c 'sleep 600; echo ${token}' >/dev/null 2>&1 &`,
        `(trap "" TERM HUP; sh -c 'sleep 600; echo ${token}' >/dev/null 2>&1 &) &`,
        'echo left-behind',
      ],
    });
    const res = await ex.start(job, { onLog: logs.sink }).result;
    expect(res.status, logs.text()).toBe('success');
    expect(logs.stdout()).toContain('left-behind');
    expect(processesWith(token)).toEqual([]);
  });

  it('gives a network-none job no address of the host, loopback or not', async () => {
    const { ex } = await setup();
    const port = await freePort();
    // Stands in for the control plane's gRPC port (or anything else the host serves), on every address.
    const server = createServer((s) => {
      s.on('error', () => undefined);
      s.end('hi\n');
    }).listen(port, '0.0.0.0');
    await new Promise((r) => server.once('listening', r));
    try {
      const addresses = [
        '127.0.0.1',
        ...Object.values(networkInterfaces())
          .flat()
          .filter((i) => i && i.family === 'IPv4' && !i.internal)
          .map((i) => i!.address),
      ];
      const probe = addresses.map(
        (a) =>
          `if (exec 3<>/dev/tcp/${a}/${port}) 2>/dev/null; then echo "reached ${a}"; else echo "unreachable ${a}"; fi`,
      );
      const open = logCollector();
      await ex.start(makeJob(repo, { script: probe }), { onLog: open.sink }).result;
      expect(open.stdout()).toContain('reached 127.0.0.1');
      const closed = logCollector();
      const res = await ex.start(makeJob(repo, { script: probe, network: 'none' }), { onLog: closed.sink })
        .result;
      expect(res.status, closed.text()).toBe('success');
      for (const a of addresses) expect(closed.stdout()).toContain(`unreachable ${a}`);
    } finally {
      server.close();
    }
  });
});
