// Pull requests from forks through the real webhook routes with signed payloads of the three hosts
// (GitHub head.repo vs base.repo, GitLab source_project_id vs target_project_id, Bitbucket source vs
// destination repository): the run waits `queued` with its jobs `awaiting_approval` and a reason, gets no
// secrets, is started by POST /runs/{id}/approve (audited); the project's fork policy (skip, run, trusted
// authors, allow_secrets) changes that. Pull requests from the repository itself run as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client } from '../api-helpers.js';
import { FakeClock, fixture, sendWebhook, startTriggerServer, storeUrl } from './helpers.js';

const GITHUB = `name: lint
materials:
  - git: { url: "https://github.com/acme/shop", branch: main, on: [pull_request] }
stages: [check, ship]
jobs:
  lint: { stage: check, script: [make lint], secrets: [NPM_TOKEN] }
  style: { stage: check, script: [make style] }
  release: { stage: ship, approval: { description: Ship? } }`;
const GITLAB = `name: api
materials:
  - git: { url: "https://gitlab.example.com/acme/api.git", branch: main, on: [pull_request] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`;
const BITBUCKET = `name: web
materials:
  - git: { url: "git@bitbucket.org:acme/web.git", branch: main, on: [pull_request] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`;

let n = 0;
const sha = () => (++n).toString(16).padStart(40, 'f');

/** GitHub's pull_request payload, from a fork (head.repo.full_name) or not, by `author`. */
function githubPr(fork: string | null, author = 'Codertocat'): string {
  const p = JSON.parse(fixture('github-pull-request.json'));
  p.pull_request.head.sha = sha();
  p.pull_request.user.login = author;
  if (fork) {
    p.pull_request.head.repo.full_name = fork;
    p.pull_request.head.repo.clone_url = `https://github.com/${fork}.git`;
  }
  return JSON.stringify(p);
}

function gitlabMr(fromFork: boolean): string {
  const p = JSON.parse(fixture('gitlab-merge-request.json'));
  p.object_attributes.last_commit.id = sha();
  if (fromFork) {
    p.object_attributes.source_project_id = 99;
    p.object_attributes.source.path_with_namespace = 'mallory/api';
  }
  return JSON.stringify(p);
}

function bitbucketPr(fork: string | null): string {
  const p = JSON.parse(fixture('bitbucket-pullrequest-created.json'));
  p.pullrequest.source.commit.hash = sha().slice(-12);
  if (fork) p.pullrequest.source.repository.full_name = fork;
  return JSON.stringify(p);
}

describe('pull requests from forks', () => {
  let server: CiServer;
  let api: Client;

  beforeAll(async () => {
    server = await startTriggerServer(await storeUrl('sqlite'), new FakeClock(Date.now()), {
      CI_WEBHOOK_SECRET: 'hook-secret',
    });
    api = client(server);
    for (const [slug, doc] of [
      ['shop', GITHUB],
      ['api', GITLAB],
      ['web', BITBUCKET],
    ])
      expect((await api.apply(bundle(slug, [doc]))).status).toBe(200);
    expect(
      (await api.post('/api/v1/projects/shop/secrets', { name: 'NPM_TOKEN', value: 'npm-s3cret-value' }))
        .status,
    ).toBe(201);
  });
  afterAll(async () => server?.close());

  const detail = async (runId: string) => (await api.get(`/api/v1/runs/${runId}`)).body;
  const jobsOf = (run: any) => run.stages.flatMap((s: any) => s.jobs);
  const setPolicy = (slug: string, body: unknown) =>
    api.call('PUT', `/api/v1/projects/${slug}/fork-policy`, body);

  it('a GitHub pull request from a fork waits queued, its first jobs awaiting approval, with the reason', async () => {
    const res = await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop'), 'hook-secret');
    expect(res.status).toBe(200);
    expect(res.body.runs).toHaveLength(1);
    const run = await detail(res.body.runs![0]);
    expect(run.status).toBe('queued');
    expect(run.stages[0].jobs.map((j: any) => [j.name, j.status])).toEqual([
      ['lint', 'awaiting_approval'],
      ['style', 'awaiting_approval'],
    ]);
    expect(run.stages[1].jobs[0].status).toBe('created');
    expect(run.fork).toMatchObject({
      head_repository: 'mallory/shop',
      author: 'Codertocat',
      awaiting_approval: true,
      secrets_withheld: true,
      approved_by: null,
    });
    expect(run.fork.reason).toMatch(
      /pull request from fork mallory\/shop by Codertocat: waits for a maintainer/,
    );
    // It stays in the runs list as queued.
    const queued = await api.get('/api/v1/runs?status=queued&project=shop');
    expect(queued.body.runs.map((r: any) => r.id)).toContain(run.id);
  });

  it('a pull request from the repository itself runs at once and is no fork run', async () => {
    const res = await sendWebhook(server, 'github', 'pull_request', githubPr(null), 'hook-secret');
    const run = await detail(res.body.runs![0]);
    expect(run.fork).toBeNull();
    expect(run.stages[0].jobs.map((j: any) => j.status)).toEqual(['queued', 'queued']);
  });

  it('a held job is not a gate: approving it is 409; approving the run queues its jobs, once, audited', async () => {
    const res = await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop'), 'hook-secret');
    const runId = res.body.runs![0];
    const held = jobsOf(await detail(runId))[0];
    const asGate = await api.post(`/api/v1/job_runs/${held.id}/approve`);
    expect(asGate.status).toBe(409);
    expect(asGate.body.error).toMatch(/waits for a maintainer to approve it .*\/runs\/.*\/approve/);

    const ok = await api.post(`/api/v1/runs/${runId}/approve`, { comment: 'read the diff' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      run_id: runId,
      status: 'queued',
      approved_by: 'anonymous',
      secrets_withheld: true,
    });
    const run = await detail(runId);
    expect(run.stages[0].jobs.map((j: any) => j.status)).toEqual(['queued', 'queued']);
    expect(run.fork).toMatchObject({
      awaiting_approval: false,
      approved_by: 'anonymous',
      comment: 'read the diff',
    });
    expect(run.fork.approved_at).toEqual(expect.any(String));

    const again = await api.post(`/api/v1/runs/${runId}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/not waiting for approval/);
    const notFork = await api.post(
      `/api/v1/runs/${(await sendWebhook(server, 'github', 'pull_request', githubPr(null), 'hook-secret')).body.runs![0]}/approve`,
    );
    expect(notFork.status).toBe(409);

    const audit = await api.get('/api/v1/admin/audit?action=run.approve');
    expect(audit.status).toBe(200);
    const entry = audit.body.entries.find(
      (e: any) => e.target === `run:${runId}` && e.details.status === 200,
    );
    expect(entry).toMatchObject({
      actor: 'anonymous',
      action: 'run.approve',
      details: { outcome: 'success', secrets_withheld: true },
    });
  });

  it('a canceled held run no longer waits; its approval is 409', async () => {
    const res = await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop'), 'hook-secret');
    const runId = res.body.runs![0];
    expect((await api.post(`/api/v1/runs/${runId}/cancel`)).status).toBe(202);
    const run = await detail(runId);
    expect(run.status).toBe('canceled');
    expect(run.fork.awaiting_approval).toBe(false);
    expect((await api.post(`/api/v1/runs/${runId}/approve`)).status).toBe(409);
  });

  it('GitLab merge requests and Bitbucket pull requests from forks are held the same way', async () => {
    const mr = await sendWebhook(server, 'gitlab', 'Merge Request Hook', gitlabMr(true), 'hook-secret');
    expect(mr.status).toBe(200);
    const mrRun = await detail(mr.body.runs![0]);
    expect(mrRun.status).toBe('queued');
    expect(jobsOf(mrRun)[0].status).toBe('awaiting_approval');
    expect(mrRun.fork).toMatchObject({
      head_repository: 'mallory/api',
      author: 'root',
      awaiting_approval: true,
    });
    const own = await sendWebhook(server, 'gitlab', 'Merge Request Hook', gitlabMr(false), 'hook-secret');
    expect((await detail(own.body.runs![0])).fork).toBeNull();

    const pr = await sendWebhook(
      server,
      'bitbucket',
      'pullrequest:created',
      bitbucketPr('mallory/web'),
      'hook-secret',
    );
    expect(pr.status).toBe(200);
    const prRun = await detail(pr.body.runs![0]);
    expect(jobsOf(prRun)[0].status).toBe('awaiting_approval');
    expect(prRun.fork).toMatchObject({
      head_repository: 'mallory/web',
      author: 'emma',
      awaiting_approval: true,
    });
    const same = await sendWebhook(
      server,
      'bitbucket',
      'pullrequest:created',
      bitbucketPr(null),
      'hook-secret',
    );
    expect((await detail(same.body.runs![0])).fork).toBeNull();
  });

  it('the fork policy: default, skip, run, trusted authors and allow_secrets; bad input is 400', async () => {
    expect((await api.get('/api/v1/projects/shop/fork-policy')).body).toEqual({
      on_fork: 'approve',
      trusted_authors: [],
      allow_secrets: false,
      updated_at: null,
    });
    expect((await setPolicy('shop', { on_fork: 'maybe' })).status).toBe(400);
    expect((await setPolicy('shop', { on_fork: 'run', extra: 1 })).status).toBe(400);
    expect((await setPolicy('nope', { on_fork: 'run' })).status).toBe(404);

    expect((await setPolicy('shop', { on_fork: 'skip' })).status).toBe(200);
    const skipped = await sendWebhook(
      server,
      'github',
      'pull_request',
      githubPr('mallory/shop'),
      'hook-secret',
    );
    expect(skipped).toMatchObject({ status: 200, body: { runs: [] } });
    const deliveries = await api.get('/api/v1/admin/webhooks?scm=github&limit=1');
    expect(deliveries.body.deliveries[0].reason).toMatch(/does not build forks \(on_fork: skip\)/);

    expect((await setPolicy('shop', { on_fork: 'run' })).status).toBe(200);
    const ran = await detail(
      (await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop'), 'hook-secret')).body
        .runs![0],
    );
    expect(jobsOf(ran)[0].status).toBe('queued');
    expect(ran.fork).toMatchObject({ awaiting_approval: false, secrets_withheld: true });
    expect(ran.fork.reason).toMatch(/on_fork: run/);

    const trusted = await setPolicy('shop', { trusted_authors: ['CODERTOCAT'], allow_secrets: true });
    expect(trusted.body).toMatchObject({
      on_fork: 'approve',
      trusted_authors: ['CODERTOCAT'],
      allow_secrets: true,
    });
    const byTrusted = await detail(
      (await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop'), 'hook-secret')).body
        .runs![0],
    );
    expect(byTrusted.fork).toMatchObject({ awaiting_approval: false, secrets_withheld: false });
    expect(byTrusted.fork.reason).toMatch(/trusted author/);
    const byOther = await detail(
      (await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop', 'eve'), 'hook-secret'))
        .body.runs![0],
    );
    expect(byOther.fork).toMatchObject({ awaiting_approval: true, secrets_withheld: false, author: 'eve' });
    expect((await setPolicy('shop', {})).body).toMatchObject({ on_fork: 'approve', allow_secrets: false });
  });

  it('a rerun of a fork run does not wait again but keeps its secrets withheld', async () => {
    const res = await sendWebhook(server, 'github', 'pull_request', githubPr('mallory/shop'), 'hook-secret');
    const rerun = await api.post(`/api/v1/runs/${res.body.runs![0]}/rerun`);
    expect(rerun.status).toBe(201);
    const run = await detail(rerun.body.run_id);
    expect(jobsOf(run)[0].status).toBe('queued');
    expect(run.fork).toMatchObject({
      awaiting_approval: false,
      secrets_withheld: true,
      approved_by: 'anonymous',
    });
  });
});
