// Git polling, sync and run-all against real repositories: one served as file://, one over loopback HTTP by
// `git http-backend` behind Basic authentication (so the stored SCM credential is what lets the server in).
// The trigger clock is fake and ticks are driven by the test, so nothing depends on timing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { bundle, type Client, client, STORES } from '../api-helpers.js';
import { dbOf } from '../core/agent-sim.js';
import { createRepo, type GitHttpServer, type Repo, repoRoot, startGitHttp } from './git-fixtures.js';
import { FakeClock, fixture, runsOf, sendWebhook, startTriggerServer, storeUrl } from './helpers.js';

const TOKEN = 'tok-4f9a1c2e7b';

describe.each(STORES)('git polling on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let clock: FakeClock;
  let app: Repo;
  let svc: Repo;
  let http: GitHttpServer;
  let credentialId: string;

  const tick = async () => {
    await server.triggers.tick();
    await server.triggers.idle();
  };
  const pollRuns = async (cause = 'poll') =>
    (await runsOf(server, { cause })).map((r) => [r.pipeline, r.revision]).sort();

  beforeAll(async () => {
    const root = repoRoot();
    app = createRepo(root, 'app');
    svc = createRepo(root, 'svc');
    http = await startGitHttp(root, 'ci-bot', TOKEN);
    clock = new FakeClock(Date.parse('2030-01-01T00:00:00Z'));
    server = await startTriggerServer(await storeUrl(store), clock);
    api = client(server);
    const docs = [
      `name: app-build
materials:
  - git: { url: "${app.fileUrl}", branch: main, poll_interval: 1m }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
      `name: svc-build
materials:
  - git: { url: "${http.url}/svc.git", branch: main, poll_interval: 1m }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
      // The same repository spelled as a plain path, and not polled on its own.
      `name: app-manual
materials:
  - git: { url: "${app.bare}", branch: main }
stages: [build]
jobs: { compile: { stage: build, script: [make] } }`,
    ];
    expect((await api.apply(bundle('poll', docs))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await http?.close();
  });

  it('stores SCM credentials sealed and never shows the secret', async () => {
    const res = await api.post('/api/v1/admin/scm-credentials', {
      url: `${http.url}/`,
      username: 'ci-bot',
      secret: TOKEN,
      description: 'loopback git',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      prefix: http.url.replace('http://', ''),
      username: 'ci-bot',
      has_secret: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN);
    credentialId = res.body.id;
    const again = await api.post('/api/v1/admin/scm-credentials', {
      url: http.url,
      username: 'ci-bot',
      secret: TOKEN,
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(credentialId);
    const list = await api.get('/api/v1/admin/scm-credentials');
    expect(list.body.credentials).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(TOKEN);
    const rows = await dbOf(server)
      .selectFrom('scm_credentials' as never)
      .selectAll()
      .execute();
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(await server.triggers.credentialsFor(`${http.url}/svc.git`)).toEqual({
      username: 'ci-bot',
      password: TOKEN,
    });
    expect(await server.triggers.credentialsFor('https://elsewhere.example.com/x.git')).toBeNull();
    for (const url of ['https://user:pw@git.example.com/', 'ftp://git.example.com/', 'not a url at all'])
      expect((await api.post('/api/v1/admin/scm-credentials', { url, secret: 'x' })).status).toBe(400);
  });

  it('the first poll records each material head as a baseline and starts nothing', async () => {
    await tick();
    expect(await pollRuns()).toEqual([]);
    const vsm = await api.get('/api/v1/projects/poll/vsm');
    const materials = vsm.body.nodes.filter((n: { kind: string }) => n.kind === 'git');
    expect(materials).toHaveLength(2);
    const svcNode = materials.find((m: { url: string }) => m.url.endsWith('/svc.git'));
    expect(svcNode.latest_modification).toMatchObject({
      revision: svc.head(),
      author: 'Ada Lovelace <ada@example.com>',
      message: 'initial commit',
    });
  });

  it('notices a new commit at the next poll and starts one run per polling pipeline at that revision', async () => {
    const a1 = app.commit('feat: a1');
    const s1 = svc.commit('feat: s1');
    await tick();
    expect(await pollRuns()).toEqual([]); // the interval has not elapsed
    clock.advance(61_000);
    await tick();
    expect(await pollRuns()).toEqual([
      ['app-build', a1],
      ['svc-build', s1],
    ]);
    const runs = await runsOf(server, { cause: 'poll' });
    expect(runs.every((r) => r.git_ref === 'main' && r.triggered_by === 'poll')).toBe(true);
    clock.advance(61_000);
    await tick();
    expect(await pollRuns()).toHaveLength(2);
    const mods = await dbOf(server)
      .selectFrom('material_modifications' as never)
      .select(['revision', 'message', 'source'] as never[])
      .execute();
    expect(mods).toEqual(expect.arrayContaining([{ revision: a1, message: 'feat: a1', source: 'poll' }]));
  });

  it('sync re-polls every material of the project now, also for pipelines that do not poll', async () => {
    const a2 = app.commit('feat: a2');
    const res = await api.post('/api/v1/projects/poll/sync');
    expect(res).toMatchObject({ status: 202, body: { materials: 2 } });
    await server.triggers.idle();
    const runs = await pollRuns();
    expect(runs).toEqual(
      expect.arrayContaining([
        ['app-build', a2],
        ['app-manual', a2],
      ]),
    );
    expect(runs).toHaveLength(4);
    expect((await api.post('/api/v1/projects/nope/sync')).status).toBe(404);
  });

  it('a webhook push of a real commit runs at that revision, and the next poll does not run it again', async () => {
    await api.post('/api/v1/projects/poll/secrets', { name: 'WEBHOOK_SECRET', value: 'poll-hook-secret' });
    const rev = svc.commit('feat: pushed');
    const body = fixture('github-push.json', {
      '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c': rev,
      'https://github.com/acme/shop': `${http.url}/svc`,
    });
    const res = await sendWebhook(server, 'github', 'push', body, 'poll-hook-secret');
    expect(res.status).toBe(200);
    const [run] = (await runsOf(server, { cause: 'webhook' })).filter((r) => res.body.runs!.includes(r.id));
    expect(run).toMatchObject({ pipeline: 'svc-build', revision: rev, git_ref: 'main' });
    const before = await pollRuns();
    clock.advance(61_000);
    await tick();
    expect(await pollRuns()).toEqual(before);
  });

  it('the project poll-interval override disables polling, or sets one interval for every material', async () => {
    expect(await api.get('/api/v1/projects/poll/poll-interval')).toMatchObject({ body: { interval: null } });
    const put = (interval: unknown) =>
      server.app.inject({
        method: 'PUT',
        url: '/api/v1/projects/poll/poll-interval',
        payload: interval === undefined ? {} : { interval },
      });
    expect((await put('')).json()).toEqual({ interval: '' });
    const a3 = app.commit('feat: a3');
    clock.advance(61_000);
    await tick();
    expect(await pollRuns()).toHaveLength(4);
    for (const bad of ['soon', 5, '500ms', '30d', undefined]) expect((await put(bad)).statusCode).toBe(400);
    expect((await put('2h')).json()).toEqual({ interval: '2h' });
    clock.advance(61_000);
    await tick();
    expect(await pollRuns()).toHaveLength(4);
    clock.advance(2 * 3_600_000);
    await tick();
    // The override applies to every git material, also the one without a poll_interval of its own.
    expect(await pollRuns()).toEqual(
      expect.arrayContaining([
        ['app-build', a3],
        ['app-manual', a3],
      ]),
    );
    expect(await pollRuns()).toHaveLength(6);
    expect((await put(null)).json()).toEqual({ interval: null });
    expect((await api.get('/api/v1/projects/poll/poll-interval')).body).toEqual({ interval: null });
  });

  it('run-all runs every pipeline at the head of its default branch (file:// and HTTP)', async () => {
    const s2 = svc.commit('feat: s2');
    const res = await api.post('/api/v1/projects/poll/run-all');
    expect(res.status).toBe(202);
    expect(res.body.run_ids).toHaveLength(3);
    const runs = (await runsOf(server, { cause: 'run_all' }))
      .map((r) => [r.pipeline, r.git_ref, r.revision])
      .sort();
    expect(runs).toEqual([
      ['app-build', 'main', app.head()],
      ['app-manual', 'main', app.head()],
      ['svc-build', 'main', s2],
    ]);
  });

  it('without the credential the private repository cannot be polled; the error is kept, free of secrets', async () => {
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/v1/admin/scm-credentials/${credentialId}` }))
        .statusCode,
    ).toBe(204);
    svc.commit('feat: s3');
    const before = await pollRuns();
    await api.post('/api/v1/projects/poll/sync');
    await server.triggers.idle();
    expect((await pollRuns()).filter((r) => r[0] === 'svc-build')).toEqual(
      before.filter((r) => r[0] === 'svc-build'),
    );
    const state = await dbOf(server)
      .selectFrom('material_poll_state' as never)
      .select(['url', 'last_error'] as never[])
      .execute();
    const svcState = (state as { url: string; last_error: string | null }[]).find((s) =>
      s.url.endsWith('/svc.git'),
    );
    expect(svcState?.last_error).toMatch(/git ls-remote failed/);
    expect(JSON.stringify(state)).not.toContain(TOKEN);
    const runAll = await api.post('/api/v1/projects/poll/run-all');
    const svcRun = (await runsOf(server, { cause: 'run_all' })).find(
      (r) => runAll.body.run_ids.includes(r.id) && r.pipeline === 'svc-build',
    );
    expect(svcRun?.revision).toBeNull();
  });

  it('housekeeping forgets trigger history older than 90 days but keeps each material’s latest modification', async () => {
    const db = dbOf(server);
    const fingerprints = async () =>
      (
        await db
          .selectFrom('material_modifications' as never)
          .select('fingerprint' as never)
          .execute()
      ).map((r) => (r as { fingerprint: string }).fingerprint);
    expect((await fingerprints()).length).toBeGreaterThan(2);
    clock.advance(91 * 86_400_000);
    await tick();
    expect((await fingerprints()).sort()).toEqual([...new Set(await fingerprints())].sort());
    expect(new Set(await fingerprints()).size).toBe(2);
    expect(
      await db
        .selectFrom('trigger_claims' as never)
        .selectAll()
        .execute(),
    ).toEqual([]);
  });
});
