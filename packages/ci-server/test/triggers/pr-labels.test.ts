// gocdnext's approval.quorum_by_label through the real webhook routes with signed payloads: the labels of a
// GitHub pull request and of a GitLab merge request are kept on the run (lower case) and set the quorum of
// its gate (the largest override among them); a Bitbucket pull request has no labels, and a push none
// either, so their gates need `required`. A rerun keeps the labels; one approval opens a gate lowered to 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client } from '../api-helpers.js';
import { FakeClock, fixture, sendWebhook, startTriggerServer, storeUrl } from './helpers.js';

const GATE = `stages: [ship]
jobs:
  prod:
    stage: ship
    approval: {required: 2, quorum_by_label: {HotFix: 1, destructive: 3}}`;
const PIPELINES: [string, string][] = [
  [
    'shop',
    `name: shop\nmaterials:\n  - git: {url: "https://github.com/acme/shop", branch: main, on: [push, pull_request]}\n${GATE}`,
  ],
  [
    'api',
    `name: api\nmaterials:\n  - git: {url: "https://gitlab.example.com/acme/api.git", branch: main, on: [pull_request]}\n${GATE}`,
  ],
  [
    'web',
    `name: web\nmaterials:\n  - git: {url: "git@bitbucket.org:acme/web.git", branch: main, on: [pull_request]}\n${GATE}`,
  ],
];

let n = 0;
const sha = () => (++n).toString(16).padStart(40, 'e');

function githubPr(labels: string[]): string {
  const p = JSON.parse(fixture('github-pull-request.json'));
  p.pull_request.head.sha = sha();
  p.pull_request.labels = labels.map((name, id) => ({ id, name, color: 'ff0000' }));
  return JSON.stringify(p);
}

function gitlabMr(labels: string[]): string {
  const p = JSON.parse(fixture('gitlab-merge-request.json'));
  p.object_attributes.last_commit.id = sha();
  p.labels = labels.map((title, id) => ({ id, title, color: '#ff0000' }));
  return JSON.stringify(p);
}

function bitbucketPr(): string {
  const p = JSON.parse(fixture('bitbucket-pullrequest-created.json'));
  p.pullrequest.source.commit.hash = sha().slice(-12);
  return JSON.stringify(p);
}

describe('pull-request labels and approval.quorum_by_label', () => {
  let server: CiServer;
  let api: Client;

  beforeAll(async () => {
    server = await startTriggerServer(await storeUrl('sqlite'), new FakeClock(Date.now()), {
      CI_WEBHOOK_SECRET: 'hook-secret',
    });
    api = client(server);
    for (const [slug, doc] of PIPELINES) {
      const res = await api.apply(bundle(slug, [doc]));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });
  afterAll(async () => server?.close());

  const gateOf = async (runId: string) => {
    const run = (await api.get(`/api/v1/runs/${runId}`)).body;
    const gate = run.stages[0].jobs[0];
    return { run, gate, required: gate.gate.required as number };
  };
  const deliver = async (host: 'github' | 'gitlab' | 'bitbucket', event: string, body: string) => {
    const res = await sendWebhook(server, host, event, body, 'hook-secret');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.runs).toHaveLength(1);
    return res.body.runs![0] as string;
  };

  it.each<[string, string[], number]>([
    ['a label lowering the quorum (any case)', ['HOTFIX', 'docs'], 1],
    ['a label raising it; the largest of several wins', ['hotfix', 'Destructive', ' hotfix '], 3],
    ['labels the gate does not name', ['docs'], 2],
    ['no labels', [], 2],
  ])('GitHub: %s', async (_, labels, required) => {
    const runId = await deliver('github', 'pull_request', githubPr(labels));
    const { run, gate } = await gateOf(runId);
    expect(gate.status).toBe('awaiting_approval');
    expect(gate.gate.required).toBe(required);
    expect(run.pr_labels).toEqual([...new Set(labels.map((l) => l.trim().toLowerCase()))]);
  });

  it('GitLab: the merge request labels (by title) set the quorum', async () => {
    const { run, required } = await gateOf(
      await deliver('gitlab', 'Merge Request Hook', gitlabMr(['Destructive'])),
    );
    expect([required, run.pr_labels]).toEqual([3, ['destructive']]);
  });

  it('Bitbucket: pull requests carry no labels, so the gate needs required', async () => {
    const { run, required } = await gateOf(await deliver('bitbucket', 'pullrequest:created', bitbucketPr()));
    expect([required, run.pr_labels]).toEqual([2, []]);
  });

  it('a push has no labels: required applies', async () => {
    const push = fixture('github-push.json').replace(/"after":\s*"[0-9a-f]{40}"/, `"after": "${sha()}"`);
    const { run, required } = await gateOf(await deliver('github', 'push', push));
    expect([required, run.pr_labels]).toEqual([2, []]);
  });

  it('a rerun keeps the labels and the quorum; one approval opens a gate lowered to 1', async () => {
    const first = await deliver('github', 'pull_request', githubPr(['hotfix']));
    const rerun = await api.post(`/api/v1/runs/${first}/rerun`);
    expect(rerun.status).toBe(201);
    const { run, gate, required } = await gateOf(rerun.body.run_id);
    expect([required, run.pr_labels]).toEqual([1, ['hotfix']]);
    expect((await api.post(`/api/v1/job_runs/${gate.id}/approve`)).status).toBe(200);
    const after = await gateOf(rerun.body.run_id);
    expect([after.gate.status, after.run.status]).toEqual(['success', 'success']);
  });
});
