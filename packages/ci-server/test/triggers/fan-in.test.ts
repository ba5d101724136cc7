// Upstream materials on SQLite and PostgreSQL: when the named stage of an upstream run finishes with the
// named status, each downstream pipeline gets exactly one run (cause `upstream`) on the same revision;
// a pipeline fed by two upstreams runs once both passed on that revision; repeated events change nothing.
// Jobs are driven to their end through the state machine, and the effects published like the job transitions do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client, STORES } from '../api-helpers.js';
import { driveRun, FakeClock, runsOf, startTriggerServer, storeUrl } from './helpers.js';

const job = (stage: string) => `{ ${stage}-job: { stage: ${stage}, script: [make ${stage}] } }`;
const DOCS = [
  `name: build
materials:
  - git: { url: "https://git.example.com/acme/app.git", branch: main }
stages: [compile, test]
jobs:
  compile: { stage: compile, script: [make] }
  unit: { stage: test, script: [make test] }`,
  `name: deploy
materials:
  - upstream: { pipeline: build, stage: test }
stages: [ship]
jobs: ${job('ship')}`,
  `name: package-linux
materials:
  - upstream: { pipeline: build, stage: test, status: success }
stages: [package]
jobs: ${job('package')}`,
  `name: package-mac
materials:
  - upstream: { pipeline: build, stage: test }
stages: [package]
jobs: ${job('package')}`,
  `name: release
materials:
  - upstream: { pipeline: package-linux, stage: package }
  - upstream: { pipeline: package-mac, stage: package }
stages: [publish]
jobs: ${job('publish')}`,
  `name: triage
materials:
  - upstream: { pipeline: build, stage: test, status: failed }
stages: [notify]
jobs: ${job('notify')}`,
];

describe.each(STORES)('upstream fan-out and fan-in on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  const REV = 'c0ffee0000000000000000000000000000000001';

  const runsFor = async (pipeline: string) => (await runsOf(server)).filter((r) => r.pipeline === pipeline);

  beforeAll(async () => {
    server = await startTriggerServer(await storeUrl(store), new FakeClock(Date.now()));
    api = client(server);
    expect((await api.apply(bundle('flow', DOCS))).status).toBe(200);
    const detail = await api.get('/api/v1/projects/flow');
    ids = Object.fromEntries(detail.body.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
  });
  afterAll(async () => server?.close());

  it('an upstream success starts each downstream pipeline once, on the same revision', async () => {
    const trigger = await api.post(`/api/v1/pipelines/${ids.build}/trigger`, { git_ref: REV });
    expect(trigger.status).toBe(201);
    const buildRun = trigger.body.run_id;
    await driveRun(server, buildRun, 'success');
    const started = (await runsOf(server, { cause: 'upstream' })).map((r) => [
      r.pipeline,
      r.git_ref,
      r.revision,
    ]);
    expect(started.sort()).toEqual([
      ['deploy', REV, REV],
      ['package-linux', REV, REV],
      ['package-mac', REV, REV],
    ]);
    const [deploy] = await runsFor('deploy');
    expect(deploy.triggered_by).toBe('upstream:build/1');
    expect(await runsFor('release')).toEqual([]);
    expect(await runsFor('triage')).toEqual([]);
  });

  it('the same effects seen again (another replica, a replay) start nothing more', async () => {
    const [buildRun] = await runsFor('build');
    const before = (await runsOf(server)).length;
    server.events.publish({
      runId: buildRun.id,
      effects: [{ kind: 'stage-finished', stage: 'test', status: 'success' }],
    });
    await server.triggers.idle();
    expect(
      await server.triggers.fanIn.fanOut(buildRun.id, [
        { kind: 'stage-finished', stage: 'test', status: 'success' },
      ]),
    ).toEqual([]);
    expect((await runsOf(server)).length).toBe(before);
  });

  it('a pipeline fed by two upstreams runs once, when both have passed on that revision', async () => {
    const [linux] = await runsFor('package-linux');
    const [mac] = await runsFor('package-mac');
    await driveRun(server, linux.id, 'success');
    expect(await runsFor('release')).toEqual([]);
    await driveRun(server, mac.id, 'success');
    const release = await runsFor('release');
    expect(release.map((r) => [r.cause, r.revision])).toEqual([['upstream', REV]]);
    // Replaying either upstream's success changes nothing.
    for (const run of [linux, mac])
      await server.triggers.fanIn.fanOut(run.id, [
        { kind: 'stage-finished', stage: 'package', status: 'success' },
      ]);
    expect(await runsFor('release')).toHaveLength(1);
  });

  it('a failed stage starts the pipelines watching for failure, not those watching for success', async () => {
    const rev = 'c0ffee0000000000000000000000000000000003';
    const before = (await runsOf(server, { cause: 'upstream' })).length;
    const trigger = await api.post(`/api/v1/pipelines/${ids.build}/trigger`, { git_ref: rev });
    await driveRun(server, trigger.body.run_id, (name) => (name === 'unit' ? 'failed' : 'success'));
    expect((await runsFor('triage')).map((r) => r.revision)).toEqual([rev]);
    expect((await runsFor('deploy')).map((r) => r.revision)).not.toContain(rev);
    expect((await runsOf(server, { cause: 'upstream' })).length).toBe(before + 1);
  });
});
