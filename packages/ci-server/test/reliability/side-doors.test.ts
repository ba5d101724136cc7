// Secrets leave through no side door: an agent speaking the real protocol (it masks nothing itself) puts a
// job's secret into test-report names, suites, messages and stack traces and unreadable-file notes, an
// artifact path and its failure error; a trigger ref and a decision comment carry a project and a global
// secret into notification payloads and audit details. None of the values comes back in any answer that
// shows those (tests, artifacts, run detail, audit, notification history) nor in a notification body sent
// to a local receiver; the masked forms (`***`) do.
import { createHash } from 'node:crypto';
import { waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CiServer, createCiServer, loadCiSettings } from '../../src/index.js';
import { jobsOf, SimAgent, TOKEN } from '../dispatch/helpers.js';
import { type HttpReceiver, startHttpReceiver } from '../ops/receivers.js';

const SECRET = 'sideDoor-s3cret-7781';
const GLOBAL = 'global-s3cret-xq52';

describe('secrets in side doors', () => {
  let server: CiServer;
  let grpcPort: number;
  let receiver: HttpReceiver;
  let agent: SimAgent;

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      ...(body === undefined
        ? {}
        : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: res.statusCode, body: res.body ? res.json() : undefined, text: res.body };
  };

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    const settings = loadCiSettings({
      CI_DATA_DIR: tempDir('side-doors-'),
      CI_DATABASE_URL: `sqlite:${tempDir('side-doors-db-')}/ci.db`,
      CI_HTTP_PORT: '0',
      CI_GRPC_PORT: '0',
      CI_AGENT_TOKEN: TOKEN,
      CI_SECRET_KEY: '3'.repeat(64),
      CI_AUTH_ENABLED: 'false',
    });
    server = await createCiServer(settings, {
      logger: false,
      notificationPollMs: 50,
      notifications: { signingSecret: 'receiver-signing-key' },
    });
    ({ grpcPort } = await server.listen());
    agent = new SimAgent(grpcPort, 'side-agent').start();
    await agent.ready();
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    await receiver?.close();
  });

  it('masks test reports, artifact metadata, job errors, notification payloads and audit details', async () => {
    const yaml = `project: { slug: doors, name: Doors }
pipelines:
  - name: p
    materials:
      - git: { url: "https://git.example.test/doors.git", branch: main }
    stages: [build]
    jobs:
      build: { stage: build, script: [make], secrets: [SIDE_TOKEN] }`;
    expect((await call('POST', '/api/v1/projects/apply', { yaml })).status).toBe(200);
    expect(
      (await call('POST', '/api/v1/projects/doors/secrets', { name: 'SIDE_TOKEN', value: SECRET })).status,
    ).toBe(201);
    expect(
      (await call('POST', '/api/v1/admin/secrets', { name: 'GLOBAL_TOKEN', value: GLOBAL })).status,
    ).toBe(201);
    const notifications = await call('PUT', '/api/v1/projects/doors/notifications', {
      channels: [{ kind: 'webhook', target: `${receiver.url}/hook`, events: ['run.started', 'run.failed'] }],
    });
    expect(notifications.status).toBe(200);
    const pipelineId = (await call('GET', '/api/v1/projects/doors')).body.pipelines[0].id;

    // A ref spelled with the secret reaches the run.started payload and the trigger's audit entry.
    const trigger = await call('POST', `/api/v1/pipelines/${pipelineId}/trigger`, {
      git_ref: `fix-${SECRET}`,
    });
    expect(trigger.status).toBe(201);
    const runId = trigger.body.run_id;
    await waitFor(async () => agent.assignments.length > 0, { what: 'the assignment', timeoutMs: 10_000 });
    const job = agent.assignments[0];
    expect(job.secrets.SIDE_TOKEN).toBe(SECRET);
    await agent.started(job.jobRunId);

    const client = agent.conn.client;
    await agent.conn.call((o) =>
      client.reportTests(
        {
          jobRunId: job.jobRunId,
          cases: [
            {
              suite: `suite ${SECRET}`,
              classname: `Class${SECRET}`,
              name: `logs in with ${SECRET}`,
              status: 'failed',
              durationS: 0.1,
              message: `expected token ${SECRET}\n    at login (src/auth.ts:12) token=${Buffer.from(SECRET).toString('base64')}`,
            },
          ],
          unreadableFiles: [`reports/${SECRET}.xml: not XML`],
        },
        o,
      ),
    );
    const content = Buffer.from('artifact body\n');
    await agent.conn.call((o) =>
      client.uploadArtifact(
        (async function* () {
          yield {
            kind: {
              case: 'header' as const,
              value: {
                jobRunId: job.jobRunId,
                path: `dist/${SECRET}.txt`,
                sizeBytes: BigInt(content.length),
                contentSha256: createHash('sha256').update(content).digest('hex'),
              },
            },
          };
          yield { kind: { case: 'data' as const, value: content } };
        })(),
        o,
      ),
    );
    agent.held.delete(job.jobRunId);
    await agent.conn.call((o) =>
      client.reportJob(
        {
          jobRunId: job.jobRunId,
          kind: {
            case: 'finished',
            value: { status: 'failed', hasExitCode: true, exitCode: 1, error: `login failed for ${SECRET}` },
          },
        },
        o,
      ),
    );
    await waitFor(async () => (await call('GET', `/api/v1/runs/${runId}?logs=0`)).body.status === 'failed', {
      what: 'the run to fail',
      timeoutMs: 10_000,
    });
    // A comment (on a job that is no gate: 409, audited all the same) with both secrets.
    expect(
      (await call('POST', `/api/v1/job_runs/${job.jobRunId}/approve`, { comment: `${SECRET} ${GLOBAL}` }))
        .status,
    ).toBe(409);

    await waitFor(async () => receiver.requests.length >= 2, {
      what: 'two notifications',
      timeoutMs: 15_000,
    });

    const tests = await call('GET', `/api/v1/runs/${runId}/tests`);
    const artifacts = await call('GET', `/api/v1/runs/${runId}/artifacts`);
    const detail = await call('GET', `/api/v1/runs/${runId}?logs=100`);
    const audit = await call('GET', '/api/v1/admin/audit?limit=200');
    const history = await call('GET', '/api/v1/projects/doors/notifications/deliveries');
    expect(tests.text).toContain('***');
    expect(artifacts.body.artifacts[0].path).toBe('dist/***.txt');
    expect(jobsOf(detail.body)[0].failure_reason).toBe('login failed for ***');
    expect(audit.text).toContain(`fix-***`);
    expect(receiver.requests.some((r) => r.body.includes('fix-***'))).toBe(true);
    // The run's own ref is the caller's input and is shown as given; every side door masks it.
    const { git_ref: _ref, ...rest } = detail.body;
    for (const [where, text] of [
      ['tests', tests.text],
      ['artifacts', artifacts.text],
      ['run detail', JSON.stringify(rest)],
      ['audit', audit.text],
      ['notification history', history.text],
      ...receiver.requests.map((r, i) => [`notification ${i}`, JSON.stringify(r)]),
    ])
      for (const value of [SECRET, GLOBAL, Buffer.from(SECRET).toString('base64')])
        expect(text, `${where} shows a secret`).not.toContain(value);
  });
});
