// End to end with real agent processes: cancel stops a running `sleep` (its whole process group) within
// seconds, `timeout` fails a job, `retry` runs a failed job again as a new attempt, and a manual gate waits
// until approved (the run continues) or rejected (the run fails).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  atHead,
  type E2eServer,
  HOST_ENGINE,
  makeRepo,
  startServerWithAgent,
  stopServerWithAgent,
} from './harness.js';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;

beforeAll(async () => {
  ({ ci, client, agent } = await startServerWithAgent('control-a', { capacity: 4, extra: HOST_ENGINE }));
}, 60_000);

afterAll(() => stopServerWithAgent({ ci, agent }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('cancel, timeout, retry and gates on real agents', () => {
  it('cancel stops a running sleep within seconds', async () => {
    const marks = tempDir('e2e-marks-');
    const repo = makeRepo();
    const ids = await client.apply('cancel', [
      `name: slow
materials:
  - git: { url: "${repo.url}", branch: main }
variables:
  MARKS: "${marks}"
stages: [build]
jobs:
  wait:
    stage: build
    script: ['sleep 300 & echo $! > "$MARKS/sleep.pid"; wait']`,
    ]);
    const runId = await client.trigger(ids.slow, atHead(repo));
    const pidFile = join(marks, 'sleep.pid');
    await waitFor(async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', {
      what: 'the sleep to start',
    });
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(alive(pid)).toBe(true);
    const started = Date.now();
    const cancel = await client.post(`/api/v1/runs/${runId}/cancel`);
    expect(cancel.status).toBe(202);
    const run = await client.waitRun(runId, ['canceled'], 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.stages[0].jobs[0].status).toBe('canceled');
    await waitFor(async () => !alive(pid), { what: 'the sleep to be killed', timeoutMs: 15_000 });
  });

  it('a job past its timeout fails and its processes are stopped', async () => {
    const repo = makeRepo();
    const ids = await client.apply('timeout', [
      `name: slow
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs:
  hang:
    stage: build
    timeout: 2s
    script: [echo starting, sleep 120, echo never]`,
    ]);
    const started = Date.now();
    const run = await client.waitRun(await client.trigger(ids.slow, atHead(repo)), undefined, 30_000);
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(run.status).toBe('failed');
    const [job] = run.stages[0].jobs;
    expect(job.status).toBe('failed');
    const text = job.logs.map((l: any) => l.text).join('\n');
    expect(text).toContain('timed out after 2s');
    expect(text).not.toContain('never');
  });

  it('retry runs a failed job again as a new attempt', async () => {
    const repo = makeRepo();
    const ids = await client.apply('retry', [
      `name: flaky
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs:
  flaky:
    stage: build
    retry: 2
    script: ['echo "attempt $CI_JOB_ATTEMPT"', 'test "$CI_JOB_ATTEMPT" -ge 2']`,
    ]);
    const run = await client.waitRun(await client.trigger(ids.flaky, atHead(repo)));
    expect(run.status).toBe('success');
    const attempts = run.stages[0].jobs;
    expect(attempts.map((j: any) => [j.attempt, j.status, j.exit_code])).toEqual([
      [1, 'failed', 1],
      [2, 'success', 0],
    ]);
    expect(attempts[1].logs.map((l: any) => l.text)).toContain('attempt 2');
  });

  it('a gate waits for approval; approve continues, reject fails the run', async () => {
    const repo = makeRepo();
    const ids = await client.apply('gated', [
      `name: release
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build, gate, ship]
jobs:
  compile:
    stage: build
    script: [echo compiled]
  approve:
    stage: gate
    approval:
      description: Ship it?
  ship:
    stage: ship
    script: [echo shipped]`,
    ]);
    const gateOf = async (runId: string) => {
      const run = await client.waitRun(runId, ['running', 'queued', 'success', 'failed', 'canceled']);
      return waitFor(
        async () => {
          const r = await client.run(runId, 0);
          const gate = r.stages[1].jobs[0];
          return gate.status === 'awaiting_approval' ? { r, gate } : undefined;
        },
        { what: `the gate of ${run.id}` },
      );
    };

    const approvedRun = await client.trigger(ids.release, atHead(repo));
    const { r, gate } = await gateOf(approvedRun);
    expect(r.stages[0].jobs[0].status).toBe('success');
    expect(r.stages[2].jobs[0].status).toBe('created');
    expect((await client.post(`/api/v1/job_runs/${gate.id}/approve`, { comment: 'go' })).status).toBe(200);
    const done = await client.waitRun(approvedRun);
    expect(done.status).toBe('success');
    expect(done.stages[2].jobs[0].logs.map((l: any) => l.text)).toContain('shipped');

    const rejectedRun = await client.trigger(ids.release, atHead(repo));
    const second = await gateOf(rejectedRun);
    expect((await client.post(`/api/v1/job_runs/${second.gate.id}/reject`)).status).toBe(200);
    const rejected = await client.waitRun(rejectedRun);
    expect(rejected.status).toBe('failed');
    expect(rejected.stages[2].jobs[0].status).toBe('skipped');
  });
});
