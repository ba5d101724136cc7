// Inbound webhooks on SQLite and PostgreSQL with recorded payload shapes of the three hosts: signed pushes
// start runs only in matching pipelines at the pushed revision; per-project and global secrets; bad or
// missing signatures are 401 and recorded; duplicates, unwatched branches, [skip ci] and oversized bodies;
// tags and pull requests; the delivery history with secrets redacted.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { globalWebhookSecrets } from '../../src/triggers/index.js';
import { bundle, type Client, client, STORES } from '../api-helpers.js';
import {
  FakeClock,
  fixture,
  hubSignature,
  runsOf,
  sendWebhook,
  startTriggerServer,
  storeUrl,
} from './helpers.js';

const SHOP = [
  `name: build
materials:
  - git: { url: "git@github.com:acme/shop.git", branch: main, on: [push, tag] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
  `name: lint
materials:
  - git: { url: "https://github.com/acme/shop", branch: main, on: [push, pull_request] }
stages: [check]
jobs: { lint: { stage: check, script: [make lint] } }`,
  `name: pages
materials:
  - git: { url: "https://github.com/acme/shop.git", branch: gh-pages }
stages: [publish]
jobs: { publish: { stage: publish, script: [make pages] } }`,
  `name: other
materials:
  - git: { url: "https://github.com/acme/other.git", branch: main }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
];
const MIRROR = [
  `name: mirror
materials:
  - git: { url: "https://GitHub.com/acme/shop.git/", branch: main }
stages: [copy]
jobs: { copy: { stage: copy, script: [./mirror.sh] } }`,
];
const API = [
  `name: api
materials:
  - git: { url: "https://gitlab.example.com/acme/api.git", branch: main, on: [push, tag, pull_request] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
];
const WEB = [
  `name: web
materials:
  - git: { url: "git@bitbucket.org:acme/web.git", branch: main, on: [push, tag, pull_request] }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
];

const PUSH_SHA = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';

/** A push payload for another commit (each test pushes its own revision). */
function push(sha: string, extra: Record<string, string> = {}): string {
  return fixture('github-push.json', { [PUSH_SHA]: sha, ...extra });
}

let n = 0;
const sha = () => (++n).toString(16).padStart(40, 'a');

describe.each(STORES)('webhooks on %s', (store) => {
  let server: CiServer;
  let api: Client;
  beforeAll(async () => {
    const dir = tempDir('ci-config-');
    const config = join(dir, 'ci.yaml');
    writeFileSync(config, 'webhooks:\n  gitlab:\n    secret: gitlab-global\n');
    server = await startTriggerServer(await storeUrl(store), new FakeClock(Date.now()), {
      CI_CONFIG: config,
    });
    api = client(server);
    for (const [slug, docs] of [
      ['shop', SHOP],
      ['shop-mirror', MIRROR],
      ['api', API],
      ['web', WEB],
    ] as const) {
      expect((await api.apply(bundle(slug, [...docs]))).status).toBe(200);
    }
    for (const [slug, value] of [
      ['shop', 'shop-secret'],
      ['shop-mirror', 'mirror-secret'],
      ['web', 'web-secret'],
    ])
      expect(
        (await api.post(`/api/v1/projects/${slug}/secrets`, { name: 'WEBHOOK_SECRET', value })).status,
      ).toBe(201);
  });
  afterAll(async () => server?.close());

  it('a signed push starts runs only in the pipelines watching that repository and branch, at the pushed revision', async () => {
    const rev = sha();
    const res = await sendWebhook(server, 'github', 'push', push(rev), 'shop-secret');
    expect(res.status).toBe(200);
    expect(res.body.runs).toHaveLength(2);
    const runs = (await runsOf(server, { cause: 'webhook' })).filter((r) => res.body.runs!.includes(r.id));
    expect(runs.map((r) => r.pipeline).sort()).toEqual(['build', 'lint']);
    for (const r of runs) {
      expect(r).toMatchObject({
        cause: 'webhook',
        git_ref: 'main',
        revision: rev,
        triggered_by: 'github:octocat',
      });
    }
    // The API shows them like any run.
    const detail = await api.get(`/api/v1/runs/${runs[0].id}`);
    expect(detail.body).toMatchObject({
      cause: 'webhook',
      revision: rev,
      git_ref: 'main',
      project_slug: 'shop',
    });
  });

  it("a project's own secret only opens its own pipelines; the other project's secret opens the other", async () => {
    const rev = sha();
    const mirror = await sendWebhook(server, 'github', 'push', push(rev), 'mirror-secret');
    expect(mirror.status).toBe(200);
    const runs = (await runsOf(server)).filter((r) => mirror.body.runs!.includes(r.id));
    expect(runs.map((r) => r.pipeline)).toEqual(['mirror']);
    // The shop's own delivery of the same push (its own hook, own secret) still builds the shop.
    const shop = await sendWebhook(server, 'github', 'push', push(rev), 'shop-secret');
    expect(shop.body.runs).toHaveLength(2);
  });

  it('wrong and missing signatures are 401 and recorded with the signature redacted', async () => {
    const before = (await runsOf(server)).length;
    const wrong = await sendWebhook(server, 'github', 'push', push(sha()), 'not-the-secret');
    expect(wrong).toEqual({ status: 401, body: { error: expect.stringMatching(/does not match/) } });
    const missing = await sendWebhook(server, 'github', 'push', push(sha()), null);
    expect(missing).toEqual({
      status: 401,
      body: { error: expect.stringMatching(/X-Hub-Signature-256|x-hub-signature-256/i) },
    });
    // Signed with a secret over a different body.
    const body = push(sha());
    const tampered = await sendWebhook(
      server,
      'github',
      'push',
      body.replace('Update README', 'Update READMX'),
      null,
      {
        'x-hub-signature-256': hubSignature('shop-secret', body),
      },
    );
    expect(tampered.status).toBe(401);
    expect((await runsOf(server)).length).toBe(before);

    const list = await api.get('/api/v1/admin/webhooks?status=rejected&scm=github');
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThanOrEqual(3);
    const [latest] = list.body.deliveries;
    expect(latest).toMatchObject({
      scm: 'github',
      event: 'push',
      status: 'rejected',
      status_code: 401,
      run_ids: [],
    });
    const detail = await api.get(`/api/v1/admin/webhooks/${latest.id}`);
    expect(detail.body.headers['x-hub-signature-256']).toBe('[redacted]');
    expect(detail.body.headers['x-github-event']).toBe('push');
    expect(detail.body.payload).toContain('"full_name": "acme/shop"');
    expect(JSON.stringify(detail.body)).not.toContain('shop-secret');
  });

  it('a redelivered delivery id starts nothing', async () => {
    const body = push(sha());
    const headers = { 'x-github-delivery': 'f2bd1c2e-0000-4000-8000-00000000dup1' };
    const first = await sendWebhook(server, 'github', 'push', body, 'shop-secret', headers);
    expect(first.body.runs).toHaveLength(2);
    const count = (await runsOf(server)).length;
    const again = await sendWebhook(server, 'github', 'push', body, 'shop-secret', headers);
    expect(again).toEqual({ status: 200, body: { runs: [] } });
    expect((await runsOf(server)).length).toBe(count);
    const ignored = await api.get('/api/v1/admin/webhooks?status=ignored&limit=1');
    expect(ignored.body.deliveries[0]).toMatchObject({
      delivery_id: headers['x-github-delivery'],
      reason: expect.stringMatching(/already processed/),
    });
  });

  it('the same revision from a new delivery does not run a pipeline twice', async () => {
    const body = push(sha());
    expect((await sendWebhook(server, 'github', 'push', body, 'shop-secret')).body.runs).toHaveLength(2);
    expect(await sendWebhook(server, 'github', 'push', body, 'shop-secret')).toEqual({
      status: 200,
      body: { runs: [] },
    });
  });

  it('a repository nobody watches is 401 without a global secret, 200 {runs: []} with one', async () => {
    const unknown = push(sha(), { 'acme/shop': 'acme/unknown' });
    const github = await sendWebhook(server, 'github', 'push', unknown, 'shop-secret');
    expect(github.status).toBe(401);
    expect(github.body.error).toMatch(/no project watches this repository and no global webhook secret/);
    const gl = fixture('gitlab-push.json', { 'acme/api': 'acme/nobody' });
    expect(await sendWebhook(server, 'gitlab', 'Push Hook', gl, 'gitlab-global')).toEqual({
      status: 200,
      body: { runs: [] },
    });
    expect((await sendWebhook(server, 'gitlab', 'Push Hook', gl, 'wrong')).status).toBe(401);
  });

  it('a verified push to a branch no pipeline watches is 200 {runs: []}', async () => {
    const body = push(sha(), { 'refs/heads/main': 'refs/heads/feature-x' });
    expect(await sendWebhook(server, 'github', 'push', body, 'shop-secret')).toEqual({
      status: 200,
      body: { runs: [] },
    });
    const pages = await sendWebhook(
      server,
      'github',
      'push',
      push(sha(), { 'refs/heads/main': 'refs/heads/gh-pages' }),
      'shop-secret',
    );
    const runs = (await runsOf(server)).filter((r) => pages.body.runs!.includes(r.id));
    expect(runs.map((r) => r.pipeline)).toEqual(['pages']);
  });

  it('[skip ci] in the head commit message skips a push', async () => {
    const body = push(sha(), { 'Update README.md': 'Update README.md [skip ci]' });
    expect(await sendWebhook(server, 'github', 'push', body, 'shop-secret')).toEqual({
      status: 200,
      body: { runs: [] },
    });
    const list = await api.get('/api/v1/admin/webhooks?limit=1');
    expect(list.body.deliveries[0]).toMatchObject({
      status: 'ignored',
      reason: expect.stringMatching(/skip ci/),
    });
  });

  it('tags run pipelines whose material has `on: tag`; pull requests those with `on: pull_request`', async () => {
    const tag = await sendWebhook(server, 'github', 'push', fixture('github-push-tag.json'), 'shop-secret');
    const tagRuns = (await runsOf(server)).filter((r) => tag.body.runs!.includes(r.id));
    expect(tagRuns.map((r) => [r.pipeline, r.git_ref, r.revision])).toEqual([['build', 'v1.2.0', PUSH_SHA]]);

    const pr = await sendWebhook(
      server,
      'github',
      'pull_request',
      fixture('github-pull-request.json'),
      'shop-secret',
    );
    const prRuns = (await runsOf(server)).filter((r) => pr.body.runs!.includes(r.id));
    expect(prRuns.map((r) => [r.pipeline, r.git_ref, r.revision])).toEqual([
      ['lint', 'refs/pull/2/head', 'ec26c3e57ca3a959ca5aad62de7213c562f8c821'],
    ]);
    expect(await sendWebhook(server, 'github', 'ping', fixture('github-ping.json'), 'shop-secret')).toEqual({
      status: 200,
      body: { runs: [] },
    });
  });

  it('GitLab: X-Gitlab-Token checked against the global secret; push, tag and merge request', async () => {
    const pushed = await sendWebhook(
      server,
      'gitlab',
      'Push Hook',
      fixture('gitlab-push.json'),
      'gitlab-global',
    );
    expect(pushed.status).toBe(200);
    const [run] = (await runsOf(server)).filter((r) => pushed.body.runs!.includes(r.id));
    expect(run).toMatchObject({
      pipeline: 'api',
      git_ref: 'main',
      revision: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
    });
    expect(run.triggered_by).toBe('gitlab:jsmith');
    expect(
      (await sendWebhook(server, 'gitlab', 'Push Hook', fixture('gitlab-push.json'), 'nope')).status,
    ).toBe(401);
    const tag = await sendWebhook(
      server,
      'gitlab',
      'Tag Push Hook',
      fixture('gitlab-tag-push.json'),
      'gitlab-global',
    );
    expect(tag.body.runs).toHaveLength(1);
    const mr = await sendWebhook(
      server,
      'gitlab',
      'Merge Request Hook',
      fixture('gitlab-merge-request.json'),
      'gitlab-global',
    );
    const [mrRun] = (await runsOf(server)).filter((r) => mr.body.runs!.includes(r.id));
    expect(mrRun).toMatchObject({ pipeline: 'api', git_ref: 'refs/merge-requests/1/head' });
  });

  it('Bitbucket: every ref change of a push, and pull requests, signed with X-Hub-Signature', async () => {
    const res = await sendWebhook(
      server,
      'bitbucket',
      'repo:push',
      fixture('bitbucket-push.json'),
      'web-secret',
    );
    expect(res.status).toBe(200);
    const runs = (await runsOf(server)).filter((r) => res.body.runs!.includes(r.id));
    expect(runs.map((r) => r.git_ref).sort()).toEqual(['main', 'release-2024.03']);
    expect(runs.every((r) => r.revision === '709d658dc5b6d6afcd46049c2f332ee3f515a67d')).toBe(true);
    const pr = await sendWebhook(
      server,
      'bitbucket',
      'pullrequest:created',
      fixture('bitbucket-pullrequest-created.json'),
      'web-secret',
    );
    expect(pr.body.runs).toHaveLength(1);
    expect(
      (await sendWebhook(server, 'bitbucket', 'repo:push', fixture('bitbucket-push.json'), 'shop-secret'))
        .status,
    ).toBe(401);
  });

  it('refuses bodies over 1 MiB with 413, a missing event header or a broken body with 400, and records them', async () => {
    const big = JSON.stringify({ ref: 'refs/heads/main', pad: 'x'.repeat(1024 * 1024) });
    const res = await sendWebhook(server, 'github', 'push', big, 'shop-secret');
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/larger than 1048576 bytes/);
    const noEvent = await server.app.inject({
      method: 'POST',
      url: '/api/webhooks/github',
      payload: push(sha()),
      headers: { 'content-type': 'application/json' },
    });
    expect(noEvent.statusCode).toBe(400);
    expect((await sendWebhook(server, 'github', 'push', '{"ref": ', 'shop-secret')).status).toBe(400);
    const list = await api.get('/api/v1/admin/webhooks?status=rejected&limit=3');
    expect(list.body.deliveries.map((d: { status_code: number }) => d.status_code)).toEqual([400, 400, 413]);
    const detail = await api.get(`/api/v1/admin/webhooks/${list.body.deliveries[2].id}`);
    expect(detail.body).toMatchObject({ payload: '', payload_truncated: true });
    expect(detail.body.payload_bytes).toBeGreaterThan(1024 * 1024);
  });

  it('pages the delivery history and validates its query', async () => {
    const page = await api.get('/api/v1/admin/webhooks?limit=2&offset=1');
    expect(page.body).toMatchObject({ limit: 2, offset: 1 });
    expect(page.body.deliveries).toHaveLength(2);
    expect(page.body.total).toBeGreaterThan(10);
    expect((await api.get('/api/v1/admin/webhooks?limit=0')).status).toBe(400);
    expect((await api.get('/api/v1/admin/webhooks?status=odd')).status).toBe(400);
    expect((await api.get('/api/v1/admin/webhooks/not-a-uuid')).status).toBe(400);
    expect((await api.get('/api/v1/admin/webhooks/01900000-0000-7000-8000-000000000000')).status).toBe(404);
  });
});

describe('global webhook secrets', () => {
  const settings = (file: Record<string, unknown>, webhookSecret?: string) =>
    ({ file, webhookSecret }) as unknown as Parameters<typeof globalWebhookSecrets>[0];

  it('take webhooks.<host>.secret, else CI_WEBHOOK_SECRET for every host', () => {
    expect(globalWebhookSecrets(settings({}, 'env'))).toEqual({
      github: 'env',
      gitlab: 'env',
      bitbucket: 'env',
    });
    expect(globalWebhookSecrets(settings({ webhooks: { github: { secret: 'gh' } } }, 'env'))).toEqual({
      github: 'gh',
      gitlab: 'env',
      bitbucket: 'env',
    });
    expect(globalWebhookSecrets(settings({}))).toEqual({ github: null, gitlab: null, bitbucket: null });
  });

  it('refuses a malformed section at start', () => {
    expect(() => globalWebhookSecrets(settings({ webhooks: { gitea: { secret: 'x' } } }))).toThrow(
      /unknown SCM host/,
    );
    expect(() => globalWebhookSecrets(settings({ webhooks: { github: { secret: 42 } } }))).toThrow(
      /non-empty string/,
    );
  });
});
