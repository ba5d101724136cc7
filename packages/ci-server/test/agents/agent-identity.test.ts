// Agent identity end to end, with a real control plane (TLS on its agent port, the product's default) and
// real agent processes: an agent registers once with the registration token and keeps its own credential
// (the server stores only its hash); a rotated registration token leaves running agents alone, refuses the
// old token and admits the new one; after a server restart the agent comes back with its credential (the
// old token would be refused); a revoked agent is disconnected and exits, its running job is re-queued and
// finished by another agent, and its credential stays refused. Every wait is for a condition.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDENTITY_FILE } from '@app/ci-agent';
import { freePort, hashToken, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_TOKEN,
  type AgentProcess,
  api,
  atHead,
  type E2eServer,
  exitCodeOf,
  HOST_ENGINE,
  makeRepo,
  startAgent,
  startServer,
  waitForAgents,
} from '../e2e/harness.js';

const LONG = 60_000;
const dataDir = tempDir('identity-ci-');
let httpPort: number;
let grpcPort: number;
let ci: E2eServer;
const agents: AgentProcess[] = [];
/** The registration token in force (rotated by the second test). */
let token = AGENT_TOKEN;

const start = () => startServer({ dataDir, httpPort, grpcPort, tls: true });
const identityOf = (workdir: string) => JSON.parse(readFileSync(join(workdir, IDENTITY_FILE), 'utf8'));
const agentRow = (name: string) =>
  ci.server.database.db
    .selectFrom('agents' as any)
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirstOrThrow() as Promise<any>;
const launch = (name: string, opts: Parameters<typeof startAgent>[2] = {}) => {
  const agent = startAgent(grpcPort, name, { tls: true, token, ...opts });
  agents.push(agent);
  return agent;
};

beforeAll(async () => {
  [httpPort, grpcPort] = [await freePort(), await freePort()];
  ci = await start();
}, LONG);

afterAll(async () => {
  for (const agent of agents) await agent.kill9();
  await ci?.server.close();
});

describe('agent identity', () => {
  const steadyDir = tempDir('identity-agent-steady-');

  it(
    'registers once with the token and keeps its own credential, stored on the server only as a hash',
    async () => {
      launch('steady', { workdir: steadyDir });
      await waitForAgents(ci.server, ['steady']);
      const identity = identityOf(steadyDir);
      expect(identity.credential).toMatch(/^ciac_[A-Za-z0-9_-]{40,}$/);
      expect(identity.name).toBe('steady');
      // The server's certificate was pinned on first use, keyed by the address.
      expect(identity.servers[`127.0.0.1:${grpcPort}`]).toBe(ci.server.grpcTls?.fingerprint);
      const row = await agentRow('steady');
      expect(row.credential_hash).toBe(hashToken(identity.credential));
      expect(JSON.stringify(row)).not.toContain(identity.credential);
      const audit = await api(ci.base).get('/api/v1/admin/audit?action=agent.register');
      expect(audit.entries.some((e: any) => e.target === `agent:${row.id}`)).toBe(true);
    },
    LONG,
  );

  it(
    'rotating the registration token leaves running agents connected, refuses the old token, admits the new',
    async () => {
      const client = api(ci.base);
      const rotated = await client.post('/api/v1/admin/agents/registration-token');
      expect(rotated.status).toBe(200);
      expect(rotated.body.token).toMatch(/^cia_/);
      const steady = ci.server.agents.list().find((a) => a.name === 'steady');
      const session = steady?.sessionId;

      const late = launch('late-old-token', { token: AGENT_TOKEN });
      await waitFor(async () => /invalid agent registration token/.test(late.output()), {
        what: 'the old token to be refused',
        timeoutMs: LONG,
      });
      expect(ci.server.agents.list().some((a) => a.name === 'late-old-token')).toBe(false);
      await late.kill9();

      token = rotated.body.token;
      launch('late-new-token');
      await waitForAgents(ci.server, ['late-new-token']);
      // The running agent kept its session throughout.
      expect(ci.server.agents.connected().find((a) => a.name === 'steady')?.sessionId).toBe(session);
    },
    LONG,
  );

  it(
    'after a server restart the agent reconnects with its credential (its old token is no longer valid)',
    async () => {
      const before = identityOf(steadyDir);
      await ci.server.close();
      ci = await start();
      // The rotated token survived the restart; `steady` only has the old token and its credential.
      await waitForAgents(ci.server, ['steady']);
      expect(identityOf(steadyDir)).toEqual(before);
      expect(ci.server.grpcTls?.source).toBe('kept');
      const audit = await api(ci.base).get('/api/v1/admin/audit?action=agent.register');
      const row = await agentRow('steady');
      // One registration with the token: the reconnection used the credential.
      expect(audit.entries.filter((e: any) => e.target === `agent:${row.id}`)).toHaveLength(1);
    },
    LONG,
  );

  it(
    'a revoked agent is disconnected and exits, its job is re-queued and finished by another agent',
    async () => {
      const client = api(ci.base);
      const marks = tempDir('identity-marks-');
      const repo = makeRepo();
      const ids = await client.apply('identity', [
        `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs:
  long:
    stage: build
    tags: [revoke]
    script: ['if [ -f ${marks}/first ]; then echo "second attempt"; else touch ${marks}/first; sleep 120; fi']`,
      ]);
      const doomedDir = tempDir('identity-agent-doomed-');
      const doomed = launch('doomed', {
        workdir: doomedDir,
        tags: 'revoke',
        capacity: 1,
        // The job marks its first attempt in a folder outside its checkout: only the host engine can write there.
        extra: HOST_ENGINE,
      });
      await waitForAgents(ci.server, ['doomed']);
      const runId = await client.trigger(ids.build, atHead(repo));
      // The script itself runs (it left its mark), not only the job's checkout.
      await waitFor(async () => existsSync(join(marks, 'first')), {
        what: 'the job script to run on the doomed agent',
        timeoutMs: LONG,
      });
      const row = await agentRow('doomed');

      const revoked = await client.post(`/api/v1/admin/agents/${row.id}/revoke`);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ id: row.id, name: 'doomed', revoked: true, requeued_job_runs: 1 });
      expect(await exitCodeOf(doomed)).toBe(3);
      expect(doomed.output()).toMatch(/revoked by an administrator/);
      expect(ci.server.agents.list().some((a) => a.name === 'doomed')).toBe(false);
      expect((await agentRow('doomed')).revoked_at).toBeTruthy();

      // The job waits in the queue as a new attempt, and another agent with the tag takes it.
      const rescuer = launch('rescuer', { tags: 'revoke', extra: HOST_ENGINE });
      const run = await client.waitRun(runId, undefined, LONG).catch(async (err) => {
        const jobs = client.jobs(await client.run(runId, 100));
        throw new Error(`${err.message}\njobs: ${JSON.stringify(jobs)}\nrescuer:\n${rescuer.output()}`);
      });
      expect(run.status).toBe('success');
      const jobs = client.jobs(run);
      expect(jobs.map((j: any) => [j.attempt, j.status, j.agent])).toEqual([
        [1, 'failed', 'doomed'],
        [2, 'success', 'rescuer'],
      ]);

      // Its credential stays refused: started again from the same work directory it exits at once.
      const again = launch('doomed', { workdir: doomedDir, tags: 'revoke' });
      expect(await exitCodeOf(again)).toBe(3);
      expect(again.output()).toMatch(/refused this agent's credential: this agent was revoked/);
      // And its name cannot be registered again with the token.
      token = (await client.post('/api/v1/admin/agents/registration-token')).body.token;
      const fresh = launch('doomed');
      expect(await exitCodeOf(fresh)).toBe(3);
      expect(fresh.output()).toMatch(
        /doomed.{1,4} was revoked by an administrator; register under another name/,
      );
      const audit = await client.get('/api/v1/admin/audit?action=agent.revoke');
      expect(audit.entries.some((e: any) => e.target === `agent:${row.id}`)).toBe(true);
      expect((await client.get(`/api/v1/agents/${row.id}`)).status).toBe('offline');
    },
    3 * LONG,
  );

  it('answers 404 for revoking an unknown agent and 400 for a malformed id', async () => {
    const client = api(ci.base);
    const unknown = await client.post('/api/v1/admin/agents/00000000-0000-4000-8000-000000000000/revoke');
    expect(unknown.status).toBe(404);
    const bad = await client.post('/api/v1/admin/agents/not-a-uuid/revoke');
    expect(bad.status).toBe(400);
  });
});
