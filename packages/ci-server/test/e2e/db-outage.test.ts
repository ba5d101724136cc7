// Fault test with real processes (issue 12): the control plane's PostgreSQL becomes unreachable for longer
// than the job lease while a job runs (a loopback TCP proxy in front of the shared test PostgreSQL is cut and
// restored, so no other test's database goes away). /readyz answers 503 and the API 503 `{error}` during
// the outage, then 200; the LISTEN connection of replica notifications comes back; the agent keeps its
// job; the run finishes once (no second attempt, the script ran once) and no log line is lost or repeated.
// OUTAGE_MS sets the outage: by default 20 s, nearly seven times this test's 3 s lease and ten times the 2 s
// after which the sweeper counts itself stalled, so every lease would lapse without the rules this tests;
// the 60 s the issue named (OUTAGE_MS=60000) exercises nothing more and cost the suite 40 s.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '@app/kit';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  type AgentProcess,
  api,
  FAST_TIMING,
  HOST_ENGINE,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';
import { TcpProxy } from './tcp-proxy.js';

const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 20_000);
const LINES = 150;

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('PostgreSQL unreachable for longer than the lease', () => {
  it('keeps the job, answers 503 meanwhile, finishes the run once with every line', async () => {
    const url = new URL(await createPostgresDatabase(inject('services').postgresUrl, 'ci_outage'));
    const proxy = new TcpProxy(await freePort(), [{ host: url.hostname, port: Number(url.port) }]);
    await proxy.up();
    cleanups.push(() => proxy.cut());
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const ci = await startServer({ databaseUrl: url.toString(), agentTiming: FAST_TIMING });
    cleanups.push(() => ci.server.close());
    // The job counts its attempts in a file outside its checkout: only the host engine can write there.
    const agent: AgentProcess = startAgent(ci.grpcPort, 'steady', { extra: HOST_ENGINE });
    cleanups.push(() => agent.stop());
    await waitForAgents(ci.server, ['steady']);
    const client = api(ci.base);
    // The job prints through the outage, then runs until the test has seen the store back (the `go` file),
    // and prints its last lines after it.
    const marks = tempDir('outage-');
    const ids = await client.apply('outage', [
      `name: steady
stages: [work]
jobs:
  long:
    stage: work
    retry: 1
    script:
      - echo "attempt $CI_JOB_ATTEMPT" >> "${join(marks, 'runs')}"
      - 'for i in $(seq 1 ${LINES - 10}); do echo "line $i"; sleep ${(OUTAGE_MS / (LINES - 10) / 1000).toFixed(3)}; done'
      - 'while [ ! -e "${join(marks, 'go')}" ]; do sleep 0.1; done'
      - 'for i in $(seq ${LINES - 9} ${LINES}); do echo "line $i"; done'`,
    ]);
    const runId = await client.trigger(ids.steady);
    await waitFor(
      async () => (await client.run(runId)).stages[0].jobs[0].logs.some((l: any) => l.text === 'line 5'),
      {
        what: 'the job to be printing',
      },
    );

    // A live follower of the run's log: it must not see a clean end while the run goes on.
    const stream = (async () => {
      const res = await fetch(`${ci.base}/api/v1/runs/${runId}/logs/stream`);
      let text = '';
      try {
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return { text, clean: true };
          text += Buffer.from(value).toString();
        }
      } catch {
        return { text, clean: false };
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    await proxy.cut();
    const cutAt = Date.now();
    const ready = await fetch(`${ci.base}/readyz`);
    expect(ready.status).toBe(503);
    const during = await fetch(`${ci.base}/api/v1/runs`);
    expect(during.status).toBe(503);
    expect(Object.keys((await during.json()) as object)).toEqual(['error']);
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - cutAt))));
    expect(Date.now() - cutAt).toBeGreaterThan(FAST_TIMING.leaseMs);
    await proxy.up();
    await waitFor(async () => (await fetch(`${ci.base}/readyz`)).status === 200, {
      what: '/readyz 200 again',
    });
    // The replica-notification listener lost its connection in the cut and connects again by itself.
    await waitFor(async () => ci.server.replicas?.listening && ci.server.replicas.stats.reconnects >= 1, {
      what: 'the LISTEN connection back',
      timeoutMs: 60_000,
    });
    writeFileSync(join(marks, 'go'), '');

    const followed = await stream;
    const runAtEnd = await client.run(runId, 0);
    // Either the stream outlived the outage and ended with the run, or it ended with an error / dropped.
    if (followed.clean && !['success', 'failed', 'canceled'].includes(runAtEnd.status))
      expect(followed.text).toContain('event: error');
    const run = await client.waitRun(runId, undefined, 120_000);
    const jobs = client.jobs(run);
    expect(run.status, JSON.stringify(jobs.map((j: any) => [j.attempt, j.status, j.failure_reason]))).toBe(
      'success',
    );
    expect(jobs).toHaveLength(1);
    expect(readFileSync(join(marks, 'runs'), 'utf8').trim().split('\n')).toEqual(['attempt 1']);
    const printed = jobs[0].logs.map((l: any) => l.text).filter((t: string) => t.startsWith('line '));
    expect(printed).toEqual(Array.from({ length: LINES }, (_, i) => `line ${i + 1}`));
    // The agent stayed registered through the outage (no "internal error" on re-registration).
    expect(agent.output()).not.toMatch(/internal error/i);
    appendFileSync(join(marks, 'figures'), `outage ${Date.now() - cutAt} ms\n`);
    console.log(
      `[figures] database outage of ${OUTAGE_MS} ms (lease ${FAST_TIMING.leaseMs} ms): run success, attempts 1, lines lost 0`,
    );
  }, 180_000);
});
