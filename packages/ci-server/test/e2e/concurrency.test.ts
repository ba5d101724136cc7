// Concurrency control with a real agent (docs/ci-gocdnext.md, "Concurrency"): a serial pipeline's second run
// waits queued — saying for which run — and starts only after the first ended, though the agent has room;
// a group shared by two pipelines queues across them; cancel-superseded cancels the older run of the same
// ref, which says which run superseded it. Jobs wait for a marker file the test writes, so nothing depends
// on timing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  api,
  type E2eServer,
  HOST_ENGINE,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;
const gates = tempDir('e2e-concurrency-');

beforeAll(async () => {
  ci = await startServer();
  client = api(ci.base);
  // Room for several jobs at once: only the concurrency rule may hold a run back.
  agent = startAgent(ci.grpcPort, 'conc', { capacity: 4, extra: HOST_ENGINE });
  await waitForAgents(ci.server, ['conc']);
});
afterAll(async () => {
  await agent?.stop();
  await ci?.server.close();
});

/** A pipeline whose one job waits until the test writes `<gates>/<name>-<counter>`. */
const pipeline = (name: string, concurrency: string) => `name: ${name}
concurrency: ${concurrency}
stages: [work]
jobs:
  hold:
    stage: work
    script:
      - 'while [ ! -f "${gates}/${name}-$CI_RUN_COUNTER" ]; do sleep 0.1; done'
      - echo "run $CI_RUN_COUNTER done"`;

const open = (name: string, counter: number) => writeFileSync(join(gates, `${name}-${counter}`), '');
const jobStatus = async (runId: string) => client.jobs(await client.run(runId, 0))[0].status;
const running = (runId: string) =>
  waitFor(async () => ((await jobStatus(runId)) === 'running' ? true : undefined), {
    what: `run ${runId} to be running`,
    timeoutMs: 60_000,
    intervalMs: 100,
  });

describe('concurrency', () => {
  it('serial: the second run waits for the first, saying so, and starts once it ended', async () => {
    const ids = await client.apply('conc-serial', [pipeline('deploy', 'serial')]);
    const first = await client.trigger(ids.deploy);
    await running(first);
    const second = await client.trigger(ids.deploy);
    const waiting = await client.run(second, 0);
    expect(waiting.status).toBe('queued');
    expect(waiting.waiting).toEqual({
      reason: 'concurrency',
      message: 'waits for run #1 to finish (concurrency: serial)',
      run_id: first,
      job: null,
    });
    // The list says the same.
    const listed = (await client.get(`/api/v1/runs?pipeline=${ids.deploy}`)).runs;
    expect(listed.find((r: any) => r.id === second).waiting.reason).toBe('concurrency');
    expect(listed.find((r: any) => r.id === first).waiting).toBeNull();
    // The first run is held open: the second is still not offered to the agent, which has room.
    await running(first);
    expect(await jobStatus(second)).toBe('created');
    open('deploy', 1);
    const done = await client.waitRun(first);
    expect(done.status).toBe('success');
    await running(second);
    const started = await client.run(second, 0);
    expect(started.waiting).toBeNull();
    expect(Date.parse(started.started_at)).toBeGreaterThanOrEqual(Date.parse(done.finished_at));
    open('deploy', 2);
    expect((await client.waitRun(second)).status).toBe('success');
  });

  it('a named group queues runs of two pipelines; a canceled waiting run passes its turn on', async () => {
    const ids = await client.apply('conc-group', [
      pipeline('api', '{group: prod, mode: serial}'),
      pipeline('web', '{group: prod}'),
    ]);
    const a = await client.trigger(ids.api);
    await running(a);
    const w1 = await client.trigger(ids.web);
    const w2 = await client.trigger(ids.web);
    expect((await client.run(w1, 0)).waiting.message).toBe(
      'waits for run #1 of pipeline "api" to finish (concurrency: serial)',
    );
    expect((await client.run(w2, 0)).waiting.run_id).toBe(w1);
    // Canceling the waiting web #1 makes web #2 wait for api #1 directly.
    expect((await client.post(`/api/v1/runs/${w1}/cancel`)).status).toBe(202);
    expect((await client.waitRun(w1)).status).toBe('canceled');
    await waitFor(async () => ((await client.run(w2, 0)).waiting?.run_id === a ? true : undefined), {
      what: 'web #2 to wait for api #1',
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    open('api', 1);
    expect((await client.waitRun(a)).status).toBe('success');
    await running(w2);
    open('web', 2);
    expect((await client.waitRun(w2)).status).toBe('success');
  });

  it('cancel-superseded: a newer run of the same ref cancels the older running one', async () => {
    const ids = await client.apply('conc-cancel', [pipeline('preview', 'cancel-superseded')]);
    const older = await client.trigger(ids.preview, { git_ref: 'feature' });
    const otherRef = await client.trigger(ids.preview, { git_ref: 'main' });
    await running(older);
    await running(otherRef);
    const newer = await client.trigger(ids.preview, { git_ref: 'feature' });
    const canceled = await client.waitRun(older);
    expect(canceled.status).toBe('canceled');
    expect(canceled.superseded_by).toEqual({ run_id: newer, counter: 3, pipeline_name: 'preview' });
    // Another ref is not superseded.
    expect((await client.run(otherRef, 0)).status).toBe('running');
    await running(newer);
    open('preview', 2);
    open('preview', 3);
    expect((await client.waitRun(newer)).status).toBe('success');
    expect((await client.waitRun(otherRef)).status).toBe('success');
  });
});
