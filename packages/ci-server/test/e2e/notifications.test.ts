// gocdnext's `notifications` end to end (issue 29): a real control plane and a real agent with podman run
// the matching entry as a plugin container once the run has failed — the image's own command, its PLUGIN_*
// settings with ${{ NAME }} resolved (the run's outcome and a secret, masked in the log) — show it in the
// run's `_notifications` stage, skip the entry whose `on` does not match, and leave the run failed.
// The plugin image is built locally from busybox (no registry here), as the agent's container tests do.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { waitFor } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testImage } from '../../../ci-agent/test/executor/engines.js';
import {
  type AgentProcess,
  type Api,
  api,
  type E2eServer,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;
let image: string;

beforeAll(async () => {
  image = await testImage();
  ci = await startServer();
  client = api(ci.base);
  agent = startAgent(ci.grpcPort, 'notifier', { capacity: 2 });
  await waitForAgents(ci.server, ['notifier']);
}, 120_000);
afterAll(async () => {
  await agent?.stop();
  await ci?.server.close();
});

const logOf = (run: any, job: string) =>
  client
    .jobs(run)
    .filter((j: any) => j.name === job)
    .flatMap((j: any) => j.logs.map((l: any) => l.text))
    .join('\n');

describe("gocdnext's notifications with a real agent", () => {
  it('run the matching plugin in a container after the run failed, which stays failed', async () => {
    const [name, tag] = image.split(':');
    const res = await client.post('/api/v1/projects/apply', {
      slug: 'notify-e2e',
      files: [
        {
          name: 'build.yaml',
          content: `stages: [build]
jobs:
  compile:
    stage: build
    script: [echo compiling, exit 3]
notifications:
  - on: success
    uses: ${name}@${tag}
    with: {message: "should not run"}
  - on: failure
    uses: ${name}@${tag}
    secrets: [HOOK]
    with:
      message: "run \${{ CI_PIPELINE_STATUS }} via \${{ HOOK }}"
`,
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const secret = await client.post('/api/v1/projects/notify-e2e/secrets', {
      name: 'HOOK',
      value: 'hook-secret-value',
    });
    expect(secret.status).toBe(201);
    const pipelineId = (await client.get('/api/v1/projects/notify-e2e')).pipelines[0].id;
    const runId = await client.trigger(pipelineId);

    const failed = await client.waitRun(runId);
    expect(failed.status, logOf(failed, 'compile')).toBe('failed');
    const done = await waitFor(
      async () => {
        const run = await client.run(runId);
        const stage = run.stages.find((s: any) => s.name === '_notifications');
        return ['success', 'failed', 'canceled', 'skipped'].includes(stage.status) ? run : undefined;
      },
      { what: 'the notification stage to finish', timeoutMs: 120_000, intervalMs: 200 },
    );
    expect(done.status).toBe('failed');
    expect(client.jobs(done).map((j: any) => [j.name, j.status, j.engine ?? null])).toEqual([
      ['compile', 'failed', 'sandbox'],
      ['_notify_0', 'skipped', null],
      ['_notify_1', 'success', 'podman'],
    ]);
    const note = logOf(done, '_notify_1');
    expect(note).toContain('image cmd says run failed via ***');
    expect(note).not.toContain('hook-secret-value');
  }, 180_000);
});
