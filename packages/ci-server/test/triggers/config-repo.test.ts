// Pipelines as code through a signed webhook (issue 29): a push to the branch a project keeps its
// `.gocdnext/` folder on is read and applied before runs start, so the delivery runs the pipelines that
// commit defines (a pipeline added by the push included); a push with a broken definition still answers,
// records the error with its revision and keeps the pipelines, and the runs it starts (from the last good
// definition) carry that error; bad bindings are 400.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { type Client, client } from '../api-helpers.js';
import { dbOf } from '../core/agent-sim.js';
import { FakeClock, fixture, runsOf, sendWebhook, startTriggerServer, storeUrl } from './helpers.js';

const PUSH_SHA = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';

function repository() {
  const dir = tempDir('config-repo-');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.test',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.test',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env }).toString().trim();
  git('init', '-q', '-b', 'main');
  return {
    url: `file://${dir}`,
    commit(files: Record<string, string>): string {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
      git('add', '-A');
      git('commit', '-q', '-m', 'change');
      return git('rev-parse', 'HEAD');
    },
  };
}

const job = (stage: string) => `stages: [${stage}]\njobs:\n  j:\n    stage: ${stage}\n    script: [make]\n`;

let server: CiServer;
let api: Client;
beforeAll(async () => {
  server = await startTriggerServer(await storeUrl('sqlite'), new FakeClock(Date.now()));
  api = client(server);
});
afterAll(async () => server?.close());

describe('pipelines kept in the repository, on a webhook push', () => {
  it('applies the pushed definition before starting the runs it triggers', async () => {
    const repo = repository();
    const first = repo.commit({ '.gocdnext/build.yaml': job('build') });
    const bind = await api.call('PUT', '/api/v1/projects/hooked/config-repo', {
      url: repo.url,
      poll_interval: '',
    });
    expect(bind.status, JSON.stringify(bind.body)).toBe(200);
    expect(bind.body).toMatchObject({ status: 'applied', applied_revision: first, branch: 'main' });
    expect(
      (await api.post('/api/v1/projects/hooked/secrets', { name: 'WEBHOOK_SECRET', value: 'hook-secret' }))
        .status,
    ).toBe(201);

    const second = repo.commit({ '.gocdnext/test.yml': job('test') });
    const payload = fixture('github-push.json', {
      [PUSH_SHA]: second,
      'https://github.com/acme/shop.git': repo.url,
    });
    const res = await sendWebhook(server, 'github', 'push', payload, 'hook-secret');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const runs = (await runsOf(server)).filter((r) => res.body.runs!.includes(r.id));
    expect(runs.map((r) => r.pipeline).sort()).toEqual(['build', 'test']);
    expect(runs.every((r) => r.revision === second)).toBe(true);

    const broken = repo.commit({ '.gocdnext/test.yml': 'jobs: [' });
    const again = await sendWebhook(
      server,
      'github',
      'push',
      fixture('github-push.json', { [PUSH_SHA]: broken, 'https://github.com/acme/shop.git': repo.url }),
      'hook-secret',
    );
    expect(again.status).toBe(200);
    const state = (await api.get('/api/v1/projects/hooked/config-repo')).body;
    expect(state).toMatchObject({ status: 'failed', applied_revision: second, checked_revision: broken });
    expect(state.error).toMatch(/^the definition does not apply: .*test\.yml/);
    // The push still runs the last good pipelines, and each of those runs says why its definition is older.
    expect(again.body.runs).toHaveLength(2);
    for (const id of again.body.runs!) {
      const run = (await api.get(`/api/v1/runs/${id}?logs=0`)).body;
      expect(run).toMatchObject({ revision: broken, cause: 'webhook', definition_error: state.error });
    }
    // Runs of a commit whose definition applied carry no such note.
    for (const id of res.body.runs!)
      expect((await api.get(`/api/v1/runs/${id}?logs=0`)).body.definition_error).toBeNull();
    const names = (await api.get('/api/v1/projects/hooked')).body.pipelines.map(
      (p: { name: string }) => p.name,
    );
    expect(names.sort()).toEqual(['build', 'test']);
  });

  it('notes the error on the runs a poll starts at a broken commit', async () => {
    const repo = repository();
    repo.commit({ '.gocdnext/build.yaml': job('build') });
    expect(
      (await api.call('PUT', '/api/v1/projects/polled/config-repo', { url: repo.url, poll_interval: '' }))
        .status,
    ).toBe(200);
    // The first poll records the head (a baseline starts nothing).
    expect((await server.triggers.pollProject('polled')).every((o) => o.run_ids.length === 0)).toBe(true);
    const broken = repo.commit({ '.gocdnext/build.yaml': 'stages: [build]\njobs: {j: {stage: gone}}\n' });
    // As the scheduler does: the definition is read first, then the materials are polled.
    const project = await dbOf(server)
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', 'polled')
      .executeTakeFirstOrThrow();
    expect((await server.triggers.configRepos.sync(project.id, broken)).status).toBe('failed');
    const [polled] = await server.triggers.pollProject('polled');
    expect(polled.run_ids).toHaveLength(1);
    const run = (await api.get(`/api/v1/runs/${polled.run_ids[0]}?logs=0`)).body;
    expect(run).toMatchObject({ cause: 'poll', revision: broken });
    expect(run.definition_error).toMatch(/^the definition does not apply: .*build\.yaml/);
  });

  it('reads our bundle file (ci-bundle.yaml) at the root beside the folder, and refuses one of another project', async () => {
    const repo = repository();
    const bundle = (slug: string, ...names: string[]) =>
      `project: {slug: ${slug}, name: Bundled}\npipelines:\n${names
        .map((n) => `  - name: ${n}\n    stages: [s]\n    jobs:\n      j: {stage: s, script: [echo ${n}]}\n`)
        .join('')}`;
    const first = repo.commit({ 'ci-bundle.yaml': bundle('bundled', 'deploy') });
    const bind = await api.call('PUT', '/api/v1/projects/bundled/config-repo', {
      url: repo.url,
      poll_interval: '',
    });
    expect(bind.status, JSON.stringify(bind.body)).toBe(200);
    expect(bind.body).toMatchObject({ status: 'applied', applied_revision: first });
    const pipelines = async () =>
      (await api.get('/api/v1/projects/bundled')).body.pipelines.map((p: { name: string }) => p.name).sort();
    expect(await pipelines()).toEqual(['deploy']);

    const project = await dbOf(server)
      .selectFrom('projects')
      .select('id')
      .where('slug', '=', 'bundled')
      .executeTakeFirstOrThrow();
    // The folder and the bundle file side by side make one definition.
    const both = repo.commit({
      '.gocdnext/build.yaml': job('build'),
      'ci-bundle.yaml': bundle('bundled', 'deploy', 'nightly'),
    });
    expect((await server.triggers.configRepos.sync(project.id, both)).status).toBe('applied');
    expect(await pipelines()).toEqual(['build', 'deploy', 'nightly']);

    // A bundle copied from another project does not replace this one's pipelines.
    const foreign = repo.commit({ 'ci-bundle.yaml': bundle('elsewhere', 'deploy') });
    const outcome = await server.triggers.configRepos.sync(project.id, foreign);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/ci-bundle\.yaml declares project "elsewhere".*"bundled"/);
    expect(await pipelines()).toEqual(['build', 'deploy', 'nightly']);
  });

  it('refuses a bad binding with 400 naming the field, and 404 for a project without one', async () => {
    const bad = await api.call('PUT', '/api/v1/projects/hooked2/config-repo', {
      url: 'file:///x',
      path: '../up',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/path "\.\.\/up" must be a repository-relative folder/);
    const interval = await api.call('PUT', '/api/v1/projects/hooked2/config-repo', {
      url: 'file:///x',
      poll_interval: 'often',
    });
    expect(interval.body.error).toMatch(/poll_interval "often" is not a duration/);
    expect((await api.get('/api/v1/projects/hooked2/config-repo')).status).toBe(404);
  });
});
