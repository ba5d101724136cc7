// End to end with real agent processes: a service starts before the job with its readiness probe and stops
// after it (service-run rows), a cache saved by one run is restored by the next through the control plane,
// a failing service fails the job, and SIGTERM drains an agent: its running job finishes and is reported,
// no new job reaches it, and the process exits cleanly.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  api,
  atHead,
  type E2eServer,
  HOST_ENGINE,
  makeRepo,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

let ci: E2eServer;
let client: Api;
const agents: AgentProcess[] = [];

beforeAll(async () => {
  ci = await startServer();
  client = api(ci.base);
  agents.push(startAgent(ci.grpcPort, 'life-a', { capacity: 2 }));
  await waitForAgents(ci.server, ['life-a']);
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await ci?.server.close();
});

const texts = (run: any) =>
  run.stages.flatMap((s: any) => s.jobs.flatMap((j: any) => j.logs.map((l: any) => l.text)));

describe('services, caches and drain on real agents', () => {
  it('starts a service before the job, probes it, stops it after, and records its rows', async () => {
    const port = await freePort();
    const repo = makeRepo();
    const ids = await client.apply('services', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
variables:
  WEB_PORT: "${port}"
stages: [test]
services:
  - name: web
    command: [python3, -m, http.server, "\${{ WEB_PORT }}", --bind, 127.0.0.1]
    # The bundle parser checks probe URLs before references are resolved, so the port is literal here.
    ready: { http: "http://127.0.0.1:${port}/", timeout: 20s }
  - name: broken
    command: [sh, -c, "exit 7"]
    ready: { tcp: 1, timeout: 2s }
jobs:
  uses-web:
    stage: test
    services: [web]
    script:
      - 'python3 -c "import urllib.request,os;print(\\"status\\", urllib.request.urlopen(\\"http://127.0.0.1:\\"+os.environ[\\"WEB_PORT\\"]+\\"/\\").status)"'
  uses-broken:
    stage: test
    services: [broken]
    script: [echo never]`,
    ]);
    const runId = await client.trigger(ids.build, atHead(repo));
    const run = await client.waitRun(runId);
    const [web, broken] = run.stages[0].jobs;
    const logs = JSON.stringify(texts(run));
    expect(run.status, logs).toBe('failed');
    expect(web.status, logs).toBe('success');
    expect(web.logs.map((l: any) => l.text)).toContain('status 200');
    expect(broken.status).toBe('failed');
    expect(broken.logs.map((l: any) => l.text)).not.toContain('never');
    const { services } = await client.get(`/api/v1/runs/${runId}/services`);
    const byName = Object.fromEntries(services.map((s: any) => [s.name, s]));
    expect(Object.keys(byName).sort(), JSON.stringify(services)).toEqual(['broken', 'web']);
    expect(byName.web).toMatchObject({ job_run_id: web.id, status: 'stopped' });
    expect(byName.broken).toMatchObject({ job_run_id: broken.id, status: 'failed' });
  });

  it('restores a cache saved by an earlier run, through the control plane', async () => {
    const repo = makeRepo({ 'deps.lock': 'left-pad 1.0.0\n' });
    const ids = await client.apply('caches', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs:
  install:
    stage: build
    cache:
      - key: 'deps-{{ hash "deps.lock" }}'
        paths: [vendor/]
    script:
      - 'if [ -f vendor/marker ]; then echo "cache hit: $(cat vendor/marker)"; else mkdir -p vendor && echo "$CI_RUN_ID" > vendor/marker && echo "cache miss"; fi'`,
    ]);
    const first = await client.waitRun(await client.trigger(ids.build, atHead(repo)));
    expect(first.status).toBe('success');
    expect(texts(first)).toContain('cache miss');
    const second = await client.waitRun(await client.trigger(ids.build, atHead(repo)));
    expect(second.status).toBe('success');
    expect(texts(second)).toContain(`cache hit: ${first.id}`);
  });

  it('SIGTERM drains an agent: the running job finishes and is reported, then the agent exits', async () => {
    const marks = tempDir('e2e-drain-');
    const draining = startAgent(ci.grpcPort, 'drainer', { tags: 'drain', capacity: 1, extra: HOST_ENGINE });
    agents.push(draining);
    await waitForAgents(ci.server, ['drainer']);
    const repo = makeRepo();
    const ids = await client.apply('drain', [
      `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
variables:
  MARKS: "${marks}"
stages: [build]
jobs:
  slow:
    stage: build
    tags: [drain]
    script: ['touch "$MARKS/started-$CI_RUN_COUNTER"', sleep 2, echo drained fine]`,
    ]);
    const runId = await client.trigger(ids.build, atHead(repo));
    await waitFor(async () => existsSync(join(marks, 'started-1')), { what: 'the job to start' });
    draining.child.kill('SIGTERM');
    // A second job for the same tag must not reach the draining agent.
    const second = await client.trigger(ids.build, atHead(repo));
    const run = await client.waitRun(runId, undefined, 30_000);
    expect(run.status).toBe('success');
    expect(texts(run)).toContain('drained fine');
    expect(await draining.exited).toBe(0);
    expect(existsSync(join(marks, 'started-2'))).toBe(false);
    expect((await client.run(second, 0)).status).toBe('queued');
    expect((await client.post(`/api/v1/runs/${second}/cancel`)).status).toBe(202);
  });
});
