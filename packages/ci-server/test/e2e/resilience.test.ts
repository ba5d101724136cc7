// End to end with real agent processes, when things break: `kill -9` of an agent mid-job moves the job to
// another agent (a new attempt, the first failed with "agent … was lost") and the run finishes; a server
// restart mid-run (same data directory and ports) loses no acknowledged log line and the run finishes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  api,
  atHead,
  type E2eServer,
  HOST_ENGINE,
  makeRepo,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const killQuietly = (pid: number) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
};

describe('agents and servers that go away', () => {
  it('kill -9 of an agent mid-job: another agent runs it again and the run finishes', async () => {
    const ci: E2eServer = await startServer();
    const client = api(ci.base);
    const agents: AgentProcess[] = [];
    cleanups.push(async () => {
      await Promise.all(agents.map((a) => a.stop()));
      await ci.server.close();
    });
    const marks = tempDir('e2e-kill-');
    const repo = makeRepo();
    const ids = await client.apply('killed', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
variables:
  MARKS: "${marks}"
stages: [build]
jobs:
  long:
    stage: build
    retry: 1
    script:
      - echo "attempt $CI_JOB_ATTEMPT"
      - 'if [ "$CI_JOB_ATTEMPT" = 1 ]; then sleep 120 & echo $! > "$MARKS/sleep.pid"; wait; fi'
      - echo finished`,
    ]);
    agents.push(startAgent(ci.grpcPort, 'doomed', { extra: HOST_ENGINE }));
    await waitForAgents(ci.server, ['doomed']);
    const runId = await client.trigger(ids.build, atHead(repo));
    const pidFile = join(marks, 'sleep.pid');
    await waitFor(async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', {
      what: 'attempt 1 to be running',
    });
    // The orphaned sleep of the killed agent is stopped at the end.
    cleanups.push(() => killQuietly(Number(readFileSync(pidFile, 'utf8').trim())));

    agents.push(startAgent(ci.grpcPort, 'survivor', { extra: HOST_ENGINE }));
    await waitForAgents(ci.server, ['survivor']);
    const killedAt = Date.now();
    await agents[0].kill9();

    const run = await client.waitRun(runId, undefined, 60_000);
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(run.status).toBe('success');
    const attempts = run.stages[0].jobs;
    expect(attempts.map((j: any) => [j.attempt, j.status, j.agent])).toEqual([
      [1, 'failed', 'doomed'],
      [2, 'success', 'survivor'],
    ]);
    expect(attempts[0].logs.map((l: any) => l.text).join('\n')).toMatch(/agent doomed was lost/);
    expect(attempts[1].logs.map((l: any) => l.text)).toContain('finished');
    const agentsView = await client.get('/api/v1/agents');
    const doomed = agentsView.agents.find((a: any) => a.name === 'doomed');
    expect(doomed.status).toBe('offline');
  });

  it('a server restart mid-run loses no acknowledged log line and the run finishes', async () => {
    const dataDir = tempDir('e2e-restart-');
    const [httpPort, grpcPort] = [await freePort(), await freePort()];
    let ci: E2eServer = await startServer({ dataDir, httpPort, grpcPort });
    const agent = startAgent(grpcPort, 'steady');
    cleanups.push(async () => {
      await agent.stop();
      await ci.server.close();
    });
    await waitForAgents(ci.server, ['steady']);
    const repo = makeRepo();
    let client = api(ci.base);
    const ids = await client.apply('restart', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build, after]
jobs:
  chatty:
    stage: build
    script: ['for i in $(seq 1 80); do echo "line $i"; sleep 0.05; done']
  next:
    stage: after
    script: [echo next stage]`,
    ]);
    const runId = await client.trigger(ids.build, atHead(repo));
    const lines = async () => {
      const run = await client.run(runId, 10_000);
      return run.stages[0].jobs[0].logs.map((l: any) => l.text).filter((t: string) => t.startsWith('line '));
    };
    await waitFor(async () => (await lines()).length >= 10, { what: 'the first lines to be stored' });
    const before = await lines();
    await ci.server.close();

    // Lines keep coming on the agent while the server is away; it resends what was not acknowledged.
    ci = await startServer({ dataDir, httpPort, grpcPort });
    client = api(ci.base);
    const run = await client.waitRun(runId, undefined, 60_000);
    expect(run.status).toBe('success');
    const job = run.stages[0].jobs[0];
    expect(job.attempt).toBe(1);
    const seqs = job.logs.map((l: any) => l.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const after = job.logs.map((l: any) => l.text).filter((t: string) => t.startsWith('line '));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toEqual(Array.from({ length: 80 }, (_, i) => `line ${i + 1}`));
    expect(run.stages[1].jobs[0].logs.map((l: any) => l.text)).toContain('next stage');
  });
});
