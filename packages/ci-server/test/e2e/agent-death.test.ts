// Fault test with real processes (issue 12): an agent killed with SIGKILL mid-job. Its dropped stream is
// taken as a signal: after a short reconnect grace its job is back in the queue well within 15 s even with a
// production-length lease (60 s here), runs again on another agent and finishes; the first attempt's log is
// kept, and RunDetail says why the first attempt failed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentProcess, api, HOST_ENGINE, startAgent, startServer, waitForAgents } from './harness.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('an agent killed mid-job', () => {
  it('is noticed by its dropped stream: the job is re-queued within 15 s and finishes elsewhere', async () => {
    const ci = await startServer({ agentTiming: { heartbeatMs: 20_000, leaseMs: 60_000, sweepMs: 5_000 } });
    cleanups.push(() => ci.server.close());
    const client = api(ci.base);
    const marks = tempDir('death-');
    const ids = await client.apply('death', [
      `name: doomed
stages: [work]
jobs:
  long:
    stage: work
    retry: 1
    script:
      - echo "attempt $CI_JOB_ATTEMPT"
      - 'if [ "$CI_JOB_ATTEMPT" = 1 ]; then sleep 120 & echo $! > "${marks}/sleep.pid"; wait; fi'
      - echo finished`,
    ]);
    const first: AgentProcess = startAgent(ci.grpcPort, 'first', { extra: HOST_ENGINE });
    cleanups.push(() => first.stop());
    await waitForAgents(ci.server, ['first']);
    const runId = await client.trigger(ids.doomed);
    const pidFile = join(marks, 'sleep.pid');
    await waitFor(async () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', {
      what: 'attempt 1 to be running',
    });
    cleanups.push(() => {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
      } catch {
        // already gone
      }
    });
    const second: AgentProcess = startAgent(ci.grpcPort, 'second', { extra: HOST_ENGINE });
    cleanups.push(() => second.stop());
    await waitForAgents(ci.server, ['second']);

    const killedAt = Date.now();
    await first.kill9();
    const requeued = await waitFor(
      async () => {
        const run = await client.run(runId, 0);
        return client.jobs(run).some((j: any) => j.attempt === 2) ? Date.now() : undefined;
      },
      { what: 'attempt 2 to exist', timeoutMs: 30_000, intervalMs: 100 },
    );
    const requeueMs = requeued - killedAt;
    expect(requeueMs).toBeLessThan(15_000);

    const run = await client.waitRun(runId, undefined, 60_000);
    expect(run.status).toBe('success');
    const [attempt1, attempt2] = client.jobs(run);
    expect(attempt1).toMatchObject({ attempt: 1, status: 'failed', agent: 'first' });
    expect(attempt1.failure_reason).toMatch(/agent first was lost/);
    expect(attempt1.logs.map((l: any) => l.text)).toContain('attempt 1');
    expect(attempt2).toMatchObject({ attempt: 2, status: 'success', agent: 'second' });
    expect(attempt2.logs.map((l: any) => l.text)).toContain('finished');
    console.log(`[figures] agent SIGKILL: job re-queued after ${requeueMs} ms (lease 60 s); lines lost 0`);
  }, 120_000);
});
