// Commit statuses end to end, per host, against in-process doubles of the GitHub, GitLab and Bitbucket Cloud
// APIs that check authentication and payloads: a signed push webhook starts a run whose statuses arrive at
// the double through the notification outbox — pending when created, running when its job starts, then the
// result, each linking to the run page under `ci/gocdnext/<project>/<pipeline>`; a pull request reports on its head
// commit; a later status supersedes one not yet sent. SQLite and PostgreSQL both carry a host.
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client, type StoreKind } from '../api-helpers.js';
import { finishJob, jobsOf, startJob } from '../core/agent-sim.js';
import { sendWebhook } from '../triggers/helpers.js';
import { type ForgeDouble, type ForgeKind, startForgeDouble } from './forge-doubles.js';
import {
  EVENTS,
  HOOK_SECRET,
  newSha,
  PUBLIC_URL,
  pullRequestBody,
  pushBody,
  REPOSITORY,
  startForgeServer,
  statusRows,
} from './helpers.js';

const WORDS: Record<ForgeKind, { pending: string; running: string; success: string; failure: string }> = {
  github: { pending: 'pending', running: 'pending', success: 'success', failure: 'failure' },
  gitlab: { pending: 'pending', running: 'running', success: 'success', failure: 'failed' },
  bitbucket: { pending: 'INPROGRESS', running: 'INPROGRESS', success: 'SUCCESSFUL', failure: 'FAILED' },
};

const CASES: [ForgeKind, StoreKind][] = [
  ['github', 'sqlite'],
  ['github', 'postgres'],
  ['gitlab', 'sqlite'],
  ['bitbucket', 'postgres'],
];

describe.each(CASES)('commit statuses to %s (%s)', (kind, store) => {
  const token = `tok-${kind}-5d41402abc4b2a76b9719d911017c592`;
  // Bitbucket: an app password with its account (Basic auth), as most Bitbucket CI integrations use.
  const credentials = kind === 'bitbucket' ? `ci-bot:${token}` : token;
  let server: CiServer;
  let api: Client;
  let forge: ForgeDouble;
  let logs: string[];

  beforeAll(async () => {
    const url =
      store === 'sqlite'
        ? `sqlite:${tempDir('ci-forge-')}/ci.db`
        : await createPostgresDatabase(inject('services').postgresUrl, 'ci_forge');
    ({ server, logs } = await startForgeServer(url));
    api = client(server);
    forge = await startForgeDouble(kind, credentials);
    const applied = await api.apply(
      bundle('shop', [
        `name: build
materials:
  - git: { url: "${REPOSITORY[kind].url}", branch: main, on: [push, pull_request] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
      ]),
    );
    expect(applied.status).toBe(200);
    const put = await api.call('PUT', '/api/v1/projects/shop/commit-status', {
      host: kind,
      api_url: forge.apiUrl,
      token,
      ...(kind === 'bitbucket' ? { username: 'ci-bot' } : {}),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ host: kind, api_url: forge.apiUrl, has_token: true });
  });
  afterAll(async () => {
    await forge?.close();
    await server?.close();
  });

  const push = async (sha: string) => {
    const res = await sendWebhook(server, kind, EVENTS[kind].push, pushBody(kind, sha), HOOK_SECRET);
    expect(res.status).toBe(200);
    expect(res.body.runs).toHaveLength(1);
    return res.body.runs![0];
  };
  const onlyJob = async (runId: string) => (await jobsOf(server, runId))[0].id;
  const deliver = () => server.notifications.deliverDue();

  it('a signed push: pending, running, then success arrive at the forge, linking to the run', async () => {
    const sha = newSha();
    const runId = await push(sha);
    await deliver();
    await startJob(server, await onlyJob(runId));
    await deliver();
    await finishJob(server, await onlyJob(runId), 'success');
    await deliver();
    const sent = forge.statuses.filter((s) => s.sha === sha);
    expect(sent.map((s) => s.state)).toEqual([WORDS[kind].pending, WORDS[kind].running, WORDS[kind].success]);
    for (const s of sent) {
      expect(s.repository).toBe(REPOSITORY[kind].path);
      expect(s.context).toBe('ci/gocdnext/shop/build');
      expect(s.targetUrl).toBe(`${PUBLIC_URL}/runs/${runId}`);
    }
    expect(sent.map((s) => s.description)).toEqual([
      'Run #1 is queued',
      'Run #1 is running',
      'Run #1 succeeded',
    ]);
    if (kind === 'bitbucket')
      expect(new Set(sent.map((s) => s.key))).toEqual(new Set(['ci/gocdnext/shop/build']));
    const rows = await statusRows(server, runId);
    expect(rows.map((r) => [r.event, r.status])).toEqual([
      ['commit_status.pending', 'delivered'],
      ['commit_status.running', 'delivered'],
      ['commit_status.success', 'delivered'],
    ]);
    expect(rows[0].target).toBe(`${kind}:${REPOSITORY[kind].path}@${sha}`);
  });

  it('a pull request reports on its head commit, and a failure is a failure', async () => {
    const head = newSha();
    const res = await sendWebhook(server, kind, EVENTS[kind].pr, pullRequestBody(kind, head), HOOK_SECRET);
    expect(res.status).toBe(200);
    const runId = res.body.runs![0];
    const reported = kind === 'bitbucket' ? head.slice(0, 12) : head;
    await deliver();
    await startJob(server, await onlyJob(runId));
    await finishJob(server, await onlyJob(runId), 'failed', 2);
    await deliver();
    const sent = forge.statuses.filter((s) => s.sha === reported);
    // The running status was superseded by the failure before the deliverer got to it: never sent.
    expect(sent.map((s) => s.state)).toEqual([WORDS[kind].pending, WORDS[kind].failure]);
    expect(sent[1]).toMatchObject({ description: 'Run #2 failed', targetUrl: `${PUBLIC_URL}/runs/${runId}` });
    const rows = await statusRows(server, runId);
    expect(rows.map((r) => [r.event, r.status])).toEqual([
      ['commit_status.pending', 'delivered'],
      ['commit_status.running', 'failed'],
      ['commit_status.failure', 'delivered'],
    ]);
    expect(rows[1].last_error).toMatch(/^superseded/);
    expect(rows[1].attempts).toBe(0);
  });

  it('the history lists the statuses; the token is in no answer, row or log line', async () => {
    const history = await api.get('/api/v1/projects/shop/notifications/deliveries?limit=200');
    expect(history.status).toBe(200);
    const kinds = new Set(history.body.deliveries.map((d: any) => d.channel.kind));
    expect(kinds).toEqual(new Set(['commit_status']));
    const answers = [
      history,
      await api.get('/api/v1/projects/shop/commit-status'),
      await api.get('/api/v1/projects/shop/secrets'),
      await api.get('/api/v1/projects/shop'),
      await api.get('/api/v1/runs?project=shop'),
    ];
    for (const a of answers) expect(JSON.stringify(a.body)).not.toContain(token);
    const rows = await server.database.db.selectFrom('notification_outbox').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    const sealed = await server.database.db.selectFrom('project_secrets').selectAll().execute();
    expect(sealed.map((s) => s.name)).toContain('COMMIT_STATUS_TOKEN');
    expect(JSON.stringify(sealed)).not.toContain(token);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(token);
    // Every call the double saw was authenticated with the token, and only there.
    expect(forge.seen.every((r) => r.answered < 300)).toBe(true);
  });
});
