// Engines decide who may run a job: a job with an image (or image services) goes only to an agent that
// reported podman, a job without one only to an agent with the sandbox or the host engine; the assignment
// carries image, pull policy and network. A job no connected agent can run stays queued, and its log says
// why.
import { waitFor } from '@app/kit';
import { describe, expect, it } from 'vitest';
import {
  applyPipeline,
  cleanupsAfterEach,
  databaseUrl,
  jobsOf,
  PIPE,
  SimAgent,
  STORES,
  startServer,
  trigger,
} from './helpers.js';

const cleanups = cleanupsAfterEach();

const BODY = `  box:
    stage: build
    image: localhost/busybox:1
    pull: never
    network: none
    script: [make]
  plain:
    stage: build
    script: [lint]`;

async function setup() {
  const s = await startServer(await databaseUrl(STORES[0]));
  const agents: SimAgent[] = [];
  cleanups.push(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await s.server.close();
  });
  const agent = async (name: string, engines: string[]) => {
    const a = new SimAgent(s.grpcPort, name, { engines, capacity: 2 }).start();
    agents.push(a);
    await a.ready();
    await waitFor(async () => s.server.agents.connected().some((c) => c.name === name), { what: name });
    return a;
  };
  return { s, agent };
}

describe('dispatch by engine', () => {
  it('sends image jobs to podman agents and plain jobs to sandbox agents', async () => {
    const { s, agent } = await setup();
    const sandbox = await agent('boxes', ['sandbox']);
    const podman = await agent('containers', ['podman']);
    const runId = await trigger(s, await applyPipeline(s, 'engines', PIPE(BODY)));
    await waitFor(async () => sandbox.assignments.length === 1 && podman.assignments.length === 1, {
      what: 'both jobs assigned',
    });
    expect(sandbox.assignments[0].jobName).toBe('plain');
    expect(sandbox.assignments[0].image).toBe('');
    const box = podman.assignments[0];
    expect([box.jobName, box.image, box.pull, box.network]).toEqual([
      'box',
      'localhost/busybox:1',
      'never',
      'none',
    ]);
    // Each agent reports the engine it started the job with; the run says which ran what.
    await sandbox.started(sandbox.assignments[0].jobRunId);
    await podman.started(box.jobRunId);
    const run = (await s.inject('GET', `/api/v1/runs/${runId}`)).body;
    const engineOf = (name: string) => jobsOf(run).find((j: any) => j.name === name).engine;
    expect([engineOf('plain'), engineOf('box')]).toEqual(['sandbox', 'podman']);
  });

  it('records a job run on an opted-in host agent as not isolated', async () => {
    const { s, agent } = await setup();
    const host = await agent('bare', ['host']);
    const runId = await trigger(s, await applyPipeline(s, 'engines', PIPE(BODY)));
    await waitFor(async () => host.assignments.length === 1, { what: 'the plain job' });
    const before = (await s.inject('GET', `/api/v1/runs/${runId}`)).body;
    expect(jobsOf(before).find((j: any) => j.name === 'plain').engine).toBeNull();
    await host.started(host.assignments[0].jobRunId);
    const run = (await s.inject('GET', `/api/v1/runs/${runId}`)).body;
    expect(jobsOf(run).find((j: any) => j.name === 'plain').engine).toBe('host');
  });

  it('keeps a job no connected agent can run queued, with the reason in its log', async () => {
    const { s, agent } = await setup();
    const sandbox = await agent('boxes', ['sandbox']);
    const runId = await trigger(s, await applyPipeline(s, 'engines', PIPE(BODY)));
    await waitFor(async () => sandbox.assignments.length === 1, { what: 'the plain job' });
    const waiting = async () => {
      const run = (await s.inject('GET', `/api/v1/runs/${runId}?logs=100`)).body;
      const box = jobsOf(run).find((j: any) => j.name === 'box');
      return { status: box.status, text: box.logs.map((l: any) => l.text).join('\n') };
    };
    await waitFor(async () => (await waiting()).text.includes('[ci] waiting for an agent'), {
      what: 'the reason in the log',
    });
    const box = await waiting();
    expect(box.status).toBe('queued');
    expect(box.text).toContain(
      'it runs in a container (image localhost/busybox:1) and no connected agent has podman',
    );
    // A podman agent connecting takes it.
    const podman = await agent('containers', ['podman']);
    await waitFor(async () => podman.assignments.length === 1, { what: 'the image job' });
    expect(podman.assignments[0].jobName).toBe('box');
  });
});
