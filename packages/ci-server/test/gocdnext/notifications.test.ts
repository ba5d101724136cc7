// gocdnext's `notifications` through the API and the agent protocol (in-process agents): refused at apply
// naming the key, then, once a run reached its outcome, the matching entries go to a container agent as
// plugin jobs (image, PLUGIN_* settings with ${{ NAME }} resolved, the run's outcome as
// CI_PIPELINE_STATUS, secrets masked) in a `_notifications` stage the run view shows; the others are
// skipped, and a failing notifier leaves the run's status as it was. On SQLite and PostgreSQL.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { waitFor } from '@app/kit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  databaseUrl,
  jobsOf,
  SimAgent,
  STORES,
  type Started,
  startServer,
  trigger,
  waitRun,
} from '../dispatch/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A server on `kind`; with `withAgent`, one in-process container agent connected to it. */
async function setup(kind: (typeof STORES)[number], withAgent = true) {
  const s = await startServer(await databaseUrl(kind));
  if (!withAgent) {
    cleanups.push(() => s.server.close());
    return { s, agent: undefined as never };
  }
  const agent = new SimAgent(s.grpcPort, `notifier-${kind}`, { engines: ['podman', 'sandbox'], capacity: 4 });
  agent.start();
  cleanups.push(async () => {
    await agent.stop();
    await s.server.close();
  });
  await agent.ready();
  await waitFor(async () => s.server.agents.connected().length === 1, {
    what: 'the agent',
    timeoutMs: 60_000,
  });
  return { s, agent };
}

const PIPELINE = `name: ship
stages: [build]
variables: {CHANNEL: "#ci"}
jobs:
  compile: {stage: build, script: [make]}
notifications:
  - on: failure
    uses: ghcr.io/klinux/gocdnext-plugin-slack@v1
    secrets: [SLACK_WEBHOOK]
    with:
      webhook: \${{ SLACK_WEBHOOK }}
      channel: \${{ CHANNEL }}
      template: "\${CI_PIPELINE} failed"
  - {on: success, uses: gocdnext/discord@v1}
  - {on: always, uses: localhost/notify@2, with: {retries: 3}}
`;

async function applyFiles(s: Started, slug: string, content: string) {
  return s.inject('POST', '/api/v1/projects/apply', { slug, files: [{ name: 'ship.yaml', content }] });
}

describe("gocdnext's notifications", () => {
  it('are refused at apply with the key and the reason', async () => {
    const { s } = await setup('sqlite', false);
    const bad = await applyFiles(s, 'bad', PIPELINE.replace('on: failure', 'on: broken'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(
      /notifications\[0\]\.on: "broken" must be one of failure, success, always, canceled/,
    );
    const noUses = await applyFiles(s, 'bad', 'jobs: {a: {script: [x]}}\nnotifications: [{on: failure}]\n');
    expect(noUses.body.error).toMatch(/notifications\[0\]\.uses: missing required key "uses"/);
  }, 60_000);

  it.each(STORES)(
    'run after the outcome as plugin jobs that never change it (%s)',
    async (kind) => {
      const { s, agent } = await setup(kind);
      const applied = await applyFiles(s, 'notify', PIPELINE);
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      const secret = await s.inject('POST', '/api/v1/projects/notify/secrets', {
        name: 'SLACK_WEBHOOK',
        value: 'https://hooks.example.test/T000/secret-part',
      });
      expect(secret.status).toBe(201);
      const pipelineId = (await s.inject('GET', '/api/v1/projects/notify')).body.pipelines[0].id;
      const runId = await trigger(s, pipelineId);

      // Only the build job is handed out while the run is going on.
      await waitFor(async () => agent.assignments.length === 1, { what: 'the build job', timeoutMs: 60_000 });
      expect(agent.assignments[0].jobName).toBe('compile');
      let run = (await s.inject('GET', `/api/v1/runs/${runId}`)).body;
      expect(run.stages.map((x: any) => [x.name, x.status])).toEqual([
        ['build', 'running'],
        ['_notifications', 'created'],
      ]);
      await agent.started(agent.assignments[0].jobRunId);
      await agent.finish(agent.assignments[0].jobRunId, 'failed', 2);

      // The run is failed at once; the failure and always entries are queued, the success one skipped.
      run = await waitRun(s, runId);
      expect(run.status).toBe('failed');
      await waitFor(async () => agent.assignments.length === 3, {
        what: 'the two notification jobs',
        timeoutMs: 60_000,
      });
      const [slack, always] = agent.assignments.slice(1).sort((a, b) => a.jobName.localeCompare(b.jobName));
      expect([slack.jobName, slack.image, slack.script]).toEqual([
        '_notify_0',
        'ghcr.io/klinux/gocdnext-plugin-slack:v1',
        [],
      ]);
      expect(slack.env).toMatchObject({
        PLUGIN_WEBHOOK: 'https://hooks.example.test/T000/secret-part',
        PLUGIN_CHANNEL: '#ci',
        PLUGIN_TEMPLATE: '${CI_PIPELINE} failed',
        CI_PIPELINE_STATUS: 'failed',
        CI_PIPELINE_NAME: 'ship',
      });
      expect(slack.secrets).toEqual({ SLACK_WEBHOOK: 'https://hooks.example.test/T000/secret-part' });
      expect([always.jobName, always.image, always.env.PLUGIN_RETRIES]).toEqual([
        '_notify_2',
        'localhost/notify:2',
        '3',
      ]);
      run = (await s.inject('GET', `/api/v1/runs/${runId}`)).body;
      const byName = Object.fromEntries(jobsOf(run).map((j: any) => [j.name, j.status]));
      expect(byName).toEqual({
        compile: 'failed',
        _notify_0: 'queued',
        _notify_1: 'skipped',
        _notify_2: 'queued',
      });

      // A notifier that fails and one that succeeds: the run stays failed, the stage shows what they did.
      await agent.started(slack.jobRunId);
      await agent.finish(slack.jobRunId, 'failed', 1);
      await agent.started(always.jobRunId);
      await agent.finish(always.jobRunId, 'success');
      run = await waitFor(
        async () => {
          const r = (await s.inject('GET', `/api/v1/runs/${runId}`)).body;
          return r.stages[1].status === 'failed' ? r : undefined;
        },
        { what: 'the notification stage to finish', timeoutMs: 60_000 },
      );
      expect(run.status).toBe('failed');
      expect(jobsOf(run).map((j: any) => [j.name, j.status])).toEqual([
        ['compile', 'failed'],
        ['_notify_0', 'failed'],
        ['_notify_1', 'skipped'],
        ['_notify_2', 'success'],
      ]);
    },
    180_000,
  );
});
