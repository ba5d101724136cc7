// Pipelines with zero materials (issue 12): the Apply page's own "Insert example" bundle runs green with a
// real agent, and a material-less pipeline runs in an empty workspace with CI_COMMIT_SHA/CI_COMMIT_BRANCH
// empty for every trigger kind (manual, rerun, run-all, cron, upstream), with services, caches, artifacts,
// test reports, retries, gates, timeouts and cancel behaving as with a checkout.
import { freePort, waitFor } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE } from '../../../ci-web/src/pages/apply-example.js';
import {
  type AgentProcess,
  type Api,
  api,
  type E2eServer,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

let now = new Date('2030-01-01T10:00:30.000Z');
let ci: E2eServer;
let client: Api;
let agent: AgentProcess;

beforeAll(async () => {
  ci = await startServer({ triggers: { now: () => now } });
  client = api(ci.base);
  agent = startAgent(ci.grpcPort, 'bare', { capacity: 4 });
  await waitForAgents(ci.server, ['bare']);
});
afterAll(async () => {
  await agent?.stop();
  await ci?.server.close();
});

const logOf = (run: any) =>
  client
    .jobs(run)
    .flatMap((j: any) => j.logs.map((l: any) => l.text))
    .join('\n');

async function runsOf(pipelineId: string): Promise<any[]> {
  return (await client.get(`/api/v1/runs?pipeline=${pipelineId}&limit=200`)).runs;
}

describe('pipelines without materials', () => {
  it('the Apply page example bundle runs green on its first run', async () => {
    const res = await client.post('/api/v1/projects/apply', { yaml: EXAMPLE });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const project = await client.get(`/api/v1/projects/${res.body.project_slug}`);
    const runId = await client.trigger(project.pipelines[0].id);
    const run = await client.waitRun(runId);
    expect(run.status, logOf(run)).toBe('success');
    expect(logOf(run)).toContain('hello from build');
    expect(logOf(run)).toContain('tests pass');
  });

  it('runs in an empty workspace for every trigger kind, with services, caches, artifacts and reports', async () => {
    const port = await freePort();
    const node = process.execPath;
    const service = `require('node:net').createServer((s) => { s.on('error', () => {}); s.end('ok'); }).listen(${port}, '127.0.0.1')`;
    const ids = await client.apply('maint', [
      `name: maint
materials:
  - cron: { expression: "*/5 * * * *" }
stages: [build]
services:
  - name: web
    command: ["${node}", "-e", "${service}"]
    ready: { tcp: ${port}, timeout: 30s }
jobs:
  work:
    stage: build
    services: [web]
    cache:
      - key: maint-cache
        paths: [cache/]
    artifacts:
      paths: [out/]
    test_reports: [reports/*.xml]
    script:
      - 'echo "sha=[$CI_COMMIT_SHA] branch=[$CI_COMMIT_BRANCH] cause=$CI_CAUSE files=[$(ls -A | grep -v "^cache$" | tr "\\n" " ")]"'
      - 'if [ -f cache/seen ]; then echo cache-restored; fi'
      - mkdir -p out reports cache && echo made > out/a.txt && echo 1 > cache/seen
      - 'echo "service=$(${node} -e "require(\\"node:net\\").connect(${port}, \\"127.0.0.1\\").on(\\"data\\", (d) => { console.log(String(d)); process.exit(0) })")"'
      - 'printf "<testsuite name=\\"s\\" tests=\\"1\\"><testcase name=\\"t\\" classname=\\"c\\"/></testsuite>" > reports/r.xml'
  flaky:
    stage: build
    retry: 1
    script:
      - echo "attempt $CI_JOB_ATTEMPT"
      - '[ "$CI_JOB_ATTEMPT" -ge 2 ]'`,
      `name: downstream
materials:
  - upstream: { pipeline: maint, stage: build, status: success }
stages: [go]
jobs:
  after:
    stage: go
    script:
      - 'echo "down sha=[$CI_COMMIT_SHA] branch=[$CI_COMMIT_BRANCH] cause=$CI_CAUSE"'`,
    ]);

    // manual
    const manual = await client.waitRun(await client.trigger(ids.maint));
    const manualLog = logOf(manual);
    expect(manual.status, manualLog).toBe('success');
    expect(manualLog).toContain('sha=[] branch=[] cause=manual files=[]');
    expect(manualLog).toContain('service=ok');
    expect(manualLog).toContain('no git material: the job runs in an empty workspace');
    expect(manual.git_ref).toBeNull();
    expect(manual.revision).toBeNull();
    const flaky = client.jobs(manual).filter((j: any) => j.name === 'flaky');
    expect(flaky.map((j: any) => [j.attempt, j.status])).toEqual([
      [1, 'failed'],
      [2, 'success'],
    ]);
    expect(flaky[0].failure_reason).toMatch(/exit/);
    expect(flaky[1].failure_reason).toBeNull();
    const artifacts = await client.get(`/api/v1/runs/${manual.id}/artifacts`);
    expect(artifacts.artifacts.map((a: any) => a.path)).toContain('out/a.txt');
    const tests = await client.get(`/api/v1/runs/${manual.id}/tests`);
    expect(tests).toMatchObject({ tests: 1, passed: 1 });

    // upstream: the downstream pipeline (no git material either) fired by maint's success
    const down = await waitFor(
      async () => (await runsOf(ids.downstream)).find((r) => r.status === 'success'),
      {
        what: 'an upstream-triggered run of downstream',
        timeoutMs: 60_000,
      },
    );
    expect(down.cause).toBe('upstream');
    expect(logOf(await client.run(down.id))).toContain('down sha=[] branch=[] cause=upstream');

    // rerun: the cache saved by the first run is restored into the otherwise empty workspace
    const rerun = await client.post(`/api/v1/runs/${manual.id}/rerun`);
    expect(rerun.status).toBe(201);
    const rerunRun = await client.waitRun(rerun.body.run_id);
    expect(rerunRun.status, logOf(rerunRun)).toBe('success');
    expect(logOf(rerunRun)).toContain('sha=[] branch=[] cause=rerun files=[]');
    expect(logOf(rerunRun)).toContain('cache-restored');

    // run-all
    const all = await client.post('/api/v1/projects/maint/run-all');
    expect(all.status).toBe(202);
    for (const id of all.body.run_ids) {
      const run = await client.waitRun(id);
      expect(run.status, logOf(run)).toBe('success');
      if (run.pipeline_name === 'maint') expect(logOf(run)).toContain('sha=[] branch=[] cause=run_all');
    }

    // cron: the scheduler's clock passes 10:05
    await ci.server.triggers.tick();
    now = new Date('2030-01-01T10:05:00.500Z');
    const cron = await waitFor(
      async () => {
        await ci.server.triggers.tick();
        return (await runsOf(ids.maint)).find((r) => r.cause === 'cron');
      },
      { what: 'a cron run of maint', timeoutMs: 30_000, intervalMs: 200 },
    );
    const cronRun = await client.waitRun(cron.id);
    expect(cronRun.status, logOf(cronRun)).toBe('success');
    expect(logOf(cronRun)).toContain('sha=[] branch=[] cause=cron files=[]');
  });

  it('gates, timeouts and cancel work without a checkout', async () => {
    const ids = await client.apply('bare-ops', [
      `name: gated
stages: [gate, work]
jobs:
  ship:
    stage: gate
    approval: { required: 1 }
  slow:
    stage: work
    timeout: 2s
    script:
      - sleep 60`,
      `name: sleeper
stages: [work]
jobs:
  nap:
    stage: work
    script:
      - echo napping
      - sleep 60`,
    ]);
    const gated = await client.trigger(ids.gated);
    const waiting = await client.waitRun(gated, ['running'], 30_000);
    const gate = await waitFor(
      async () =>
        client
          .jobs(await client.run(waiting.id))
          .find((j: any) => j.name === 'ship' && j.status === 'awaiting_approval'),
      { what: 'the gate to wait for approval' },
    );
    expect((await client.post(`/api/v1/job_runs/${gate.id}/approve`)).status).toBe(200);
    const timedOut = await client.waitRun(gated);
    expect(timedOut.status).toBe('failed');
    expect(logOf(timedOut)).toMatch(/timed out after 2s/);
    const slow = client.jobs(timedOut).find((j: any) => j.name === 'slow');
    expect(slow.failure_reason).toMatch(/timed out after 2s/);

    const sleeper = await client.trigger(ids.sleeper);
    // The job runs sandboxed (its /tmp is private): its start is read from its log, not from a marker file.
    await waitFor(async () => logOf(await client.run(sleeper)).includes('+ sleep 60'), {
      what: 'nap to start',
    });
    expect((await client.post(`/api/v1/runs/${sleeper}/cancel`)).status).toBe(202);
    const canceled = await client.waitRun(sleeper);
    expect(canceled.status).toBe('canceled');
    expect(client.jobs(canceled)[0].failure_reason).toBeTruthy();
  });
});
