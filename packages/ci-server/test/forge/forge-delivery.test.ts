// Commit-status delivery against the GitHub double: a 500 is retried through the outbox (same row, next
// attempt after its backoff), a bad token is a 401 kept in the history and not retried, the SCM credential of
// the repository is the token when the project has none, `repository` overrides the material's, reruns of a
// reported run report and manual runs do not, an older status that lands after a newer one queues the newer
// again, a fork's pull request held for approval says so, and the configuration route answers 400/404 in
// the service's shape.

import { createSecretBox } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { ForgeStatusSender } from '../../src/notifications/forge-status/sender.js';
import { ScmCredentials } from '../../src/triggers/credentials.js';
import { bundle, type Client, client } from '../api-helpers.js';
import { finishJob, jobsOf, startJob } from '../core/agent-sim.js';
import { sendWebhook } from '../triggers/helpers.js';
import { type ForgeDouble, startForgeDouble } from './forge-doubles.js';
import {
  dueNow,
  HOOK_SECRET,
  newSha,
  pullRequestBody,
  pushBody,
  startForgeServer,
  statusRows,
} from './helpers.js';

const TOKEN = 'ghp_forgeDeliveryToken0123456789abcdef';

describe('commit-status delivery (GitHub double, SQLite)', () => {
  let server: CiServer;
  let api: Client;
  let forge: ForgeDouble;
  let logs: string[];
  let pipelineId: string;

  beforeAll(async () => {
    ({ server, logs } = await startForgeServer(`sqlite:${tempDir('ci-forge-')}/ci.db`));
    api = client(server);
    forge = await startForgeDouble('github', TOKEN);
    const applied = await api.apply(
      bundle('shop', [
        `name: build
materials:
  - git: { url: "https://github.com/acme/shop.git", branch: main, on: [push, pull_request] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
      ]),
    );
    expect(applied.status).toBe(200);
    pipelineId = (await api.get('/api/v1/projects/shop')).body.pipelines[0].id;
  });
  afterAll(async () => {
    await forge?.close();
    await server?.close();
  });

  const configure = (body: Record<string, unknown>) =>
    api.call('PUT', '/api/v1/projects/shop/commit-status', {
      host: 'github',
      api_url: forge.apiUrl,
      ...body,
    });
  const push = async (sha: string) => {
    const res = await sendWebhook(server, 'github', 'push', pushBody('github', sha), HOOK_SECRET);
    expect(res.body.runs).toHaveLength(1);
    return res.body.runs![0];
  };
  const deliver = () => server.notifications.deliverDue();
  const sentFor = (sha: string) => forge.statuses.filter((s) => s.sha === sha);

  it('retries a 500 through the outbox, then delivers the same status', async () => {
    expect((await configure({ token: TOKEN })).status).toBe(200);
    forge.failNext(1);
    const sha = newSha();
    const runId = await push(sha);
    await deliver();
    let [row] = await statusRows(server, runId);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
    expect(row.last_error).toBe('GitHub answered 500: Server Error');
    expect(sentFor(sha)).toEqual([]);
    await dueNow(server);
    await deliver();
    [row] = await statusRows(server, runId);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, response_status: 201 });
    expect(sentFor(sha).map((s) => s.state)).toEqual(['pending']);
  });

  it('a bad token is a 401 in the history, not retried, and never logged', async () => {
    expect((await configure({ token: 'ghp_wrongWrongWrong' })).status).toBe(200);
    const runId = await push(newSha());
    await deliver();
    const [row] = await statusRows(server, runId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, response_status: 401 });
    expect(row.last_error).toBe('GitHub answered 401: Bad credentials');
    await dueNow(server);
    await deliver();
    expect((await statusRows(server, runId))[0].attempts).toBe(1);
    expect(logs.join('\n')).not.toContain('ghp_wrongWrongWrong');
    expect(logs.join('\n')).toContain('GitHub answered 401');
  });

  it("uses the repository's SCM credential when the project has no token", async () => {
    expect((await api.delete('/api/v1/projects/shop/commit-status')).status).toBe(204);
    const after = await api.get('/api/v1/projects/shop/commit-status');
    expect(after.body).toMatchObject({ host: null, has_token: false, updated_at: null });
    expect((await configure({})).body.has_token).toBe(false);
    const cred = await api.post('/api/v1/admin/scm-credentials', {
      url: 'https://github.com/acme',
      secret: TOKEN,
    });
    expect(cred.status).toBe(201);
    const sha = newSha();
    await push(sha);
    await deliver();
    expect(sentFor(sha).map((s) => [s.repository, s.state])).toEqual([['acme/shop', 'pending']]);
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it('`repository` overrides the material; reruns of a reported run report, manual runs do not', async () => {
    expect((await configure({ token: TOKEN, repository: 'acme/shop-mirror' })).status).toBe(200);
    const sha = newSha();
    const runId = await push(sha);
    const job = (await jobsOf(server, runId))[0].id;
    await startJob(server, job);
    await finishJob(server, job, 'failed', 1);
    await deliver();
    expect(sentFor(sha).map((s) => [s.repository, s.state])).toEqual([['acme/shop-mirror', 'failure']]);
    const rerun = await api.post(`/api/v1/runs/${runId}/rerun`);
    expect(rerun.status).toBe(201);
    await deliver();
    expect(sentFor(sha).map((s) => s.state)).toEqual(['failure', 'pending']);
    expect((await statusRows(server, rerun.body.run_id)).map((r) => r.event)).toEqual([
      'commit_status.pending',
    ]);
    const manual = await api.post(`/api/v1/pipelines/${pipelineId}/trigger`, { git_ref: sha });
    expect(manual.status).toBe(201);
    expect(await statusRows(server, manual.body.run_id)).toEqual([]);
  });

  it('an older status that lands after a newer one queues the newer again', async () => {
    const sha = newSha();
    const runId = await push(sha);
    const job = (await jobsOf(server, runId))[0].id;
    await startJob(server, job);
    const [pending, running] = await statusRows(server, runId);
    // The newer one was delivered first (another replica); the older one is sent late, bypassing the check.
    await server.database.db
      .updateTable('notification_outbox')
      .set({ status: 'delivered', delivered_at: new Date().toISOString() })
      .where('id', '=', running.id)
      .execute();
    const box = createSecretBox('0'.repeat(64));
    const sender = new ForgeStatusSender(
      server.database.db,
      box,
      new ScmCredentials(server.database.db, box),
    );
    const payload = JSON.parse(pending.payload);
    payload.run.url = `http://ci.example.test/runs/${runId}`;
    expect((await sender.send(pending, payload)).outcome).toBe('delivered');
    const again = (await statusRows(server, runId)).find((r) => r.id === running.id)!;
    expect(again.status).toBe('pending');
    expect(await sender.supersede(pending)).toBe(true);
  });

  it("a fork's pull request held for approval says so, then reports its run", async () => {
    const head = newSha();
    const p = JSON.parse(pullRequestBody('github', head));
    p.pull_request.head.repo.full_name = 'mallory/shop';
    const res = await sendWebhook(server, 'github', 'pull_request', JSON.stringify(p), HOOK_SECRET);
    expect(res.body.runs).toHaveLength(1);
    await deliver();
    const sent = sentFor(head);
    expect(sent).toHaveLength(1);
    expect(sent[0].state).toBe('pending');
    expect(sent[0].description).toMatch(/^Run #\d+ waits for a maintainer's approval$/);
  });

  it('answers 400 and 404 in the error shape for a bad configuration', async () => {
    const bad = [
      { host: 'sourcehut' },
      { host: 'github', repository: 'just-a-name' },
      { host: 'bitbucket', repository: 'a/b/c' },
      { host: 'github', api_url: 'ftp://api.example.test' },
      { host: 'github', api_url: 'https://user:pw@api.example.test' },
      { host: 'github', api_url: 'not a url' },
      { host: 'github', context_prefix: '-dash' },
      { host: 'github', token: '   ' },
      { host: 'github', extra: true },
    ];
    for (const body of bad) {
      const res = await api.call('PUT', '/api/v1/projects/shop/commit-status', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
    const missing = await api.call('PUT', '/api/v1/projects/nope/commit-status', { host: 'github' });
    expect(missing.status).toBe(404);
    expect((await api.get('/api/v1/projects/nope/commit-status')).status).toBe(404);
    const gitlab = await api.call('PUT', '/api/v1/projects/shop/commit-status', {
      host: 'gitlab',
      repository: 'group/sub/project',
      context_prefix: 'ci/acme',
    });
    expect(gitlab.body).toMatchObject({
      host: 'gitlab',
      api_url: 'https://gitlab.com/api/v4',
      repository: 'group/sub/project',
      context_prefix: 'ci/acme',
      has_token: true,
    });
  });
});
