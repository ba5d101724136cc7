// `npm start` as a user runs it: everything comes up on its ports, the generated credentials work, appear on
// the terminal and in one 0600 file but in no log file, the portal offers the sample datasource, and Ctrl-C
// (SIGINT) leaves no process.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
    const dataDir = tempDir('start-');
    // The user's own credential settings would change what is generated.
    const {
      CI_ADMIN_PASSWORD: _a,
      ADMIN_PASSWORD: _b,
      USER_PASSWORD: _c,
      USER_EMAIL: _d,
      ADMIN_EMAIL: _e,
      PORTAL_DATASOURCES: _f,
      ...env
    } = process.env;
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...env,
        DATA_DIR: dataDir,
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
      // The local agent enrols over TLS (the default), pinning the server's self-signed certificate.
      const agentLog = () => readFileSync(join(dataDir, 'logs', 'ci-agent.log'), 'utf8');
      await waitFor(
        async () => agentLog().includes(`registered with the control plane at https://127.0.0.1:${grpc}`),
        {
          what: 'the local agent to register over TLS',
          timeoutMs: 60_000,
        },
      );
      const identity = JSON.parse(readFileSync(join(dataDir, 'agent', 'agent-identity.json'), 'utf8'));
      expect(identity.credential).toMatch(/^ciac_/);
      expect(Object.keys(identity.servers)).toEqual([`127.0.0.1:${grpc}`]);

      // Credentials: one 0600 file whose path is printed, values printed to the terminal, and they work.
      const file = join(dataDir, 'credentials.json');
      expect(out).toContain(file);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const creds = JSON.parse(readFileSync(file, 'utf8'));
      const passwords: string[] = [creds.ci.password, creds.portalAdmin.password, creds.portalUser.password];
      expect(new Set(passwords).size).toBe(3);
      for (const p of passwords) expect(out).toContain(p);
      const ciLogin = await fetch(`http://127.0.0.1:${http}/auth/login/local`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: creds.ci.username, password: creds.ci.password }),
      });
      expect(ciLogin.status).toBe(200);
      const portalLogin = async (who: { email: string; password: string }) =>
        (
          await fetch(`http://127.0.0.1:${portal}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(who),
          })
        ).json();
      expect(await portalLogin(creds.portalAdmin)).toEqual({ success: true, role: 'admin' });
      // The second local account: a two-person approval can be tried at once.
      expect(await portalLogin(creds.portalUser)).toEqual({ success: true, role: 'user' });
      // A sample datasource to try the IDE and an approval on, written once into the portal's data folder.
      const userLogin = await fetch(`http://127.0.0.1:${portal}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(creds.portalUser),
      });
      const cookie = (userLogin.headers.get('set-cookie') ?? '').split(';')[0];
      const managed = await fetch(`http://127.0.0.1:${portal}/api/connections/managed`, {
        headers: { cookie },
      });
      expect(managed.status).toBe(200);
      const sample = ((await managed.json()) as { connections: Array<{ id: string }> }).connections.find(
        (c) => c.id === 'sample',
      );
      expect(sample).toMatchObject({ type: 'sqlite', available: true, policy: { writeApproval: true } });
      expect(out).toContain(join(dataDir, 'portal', 'datasources.yaml'));

      // No credential in any log file; logs private to the service account.
      const logDir = join(dataDir, 'logs');
      expect(statSync(logDir).mode & 0o777).toBe(0o700);
      const logs = readdirSync(logDir);
      expect(logs.sort()).toEqual(['ci-agent.log', 'ci-server.log', 'portal.log']);
      for (const name of logs) {
        expect(statSync(join(logDir, name)).mode & 0o777, name).toBe(0o600);
        const text = readFileSync(join(logDir, name), 'utf8');
        for (const p of passwords) expect(text.includes(p), `${name} holds a credential`).toBe(false);
      }
      // Nor the generated JWT signing key or agent token, wherever they are kept.
      const jwt = JSON.parse(readFileSync(join(dataDir, 'portal', 'auth-bootstrap.json'), 'utf8')).JWT_SECRET;
      const agentToken = readFileSync(join(dataDir, 'ci', 'agent-token'), 'utf8').trim();
      for (const name of logs) {
        const text = readFileSync(join(logDir, name), 'utf8');
        expect(text.includes(jwt), name).toBe(false);
        expect(text.includes(agentToken), name).toBe(false);
        expect(text.includes(identity.credential), name).toBe(false);
      }
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
