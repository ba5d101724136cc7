// Browser tests of the pipeline page and the project settings around it: from the project page a pipeline
// opens its own page with its definition (stages, jobs, triggers, parameters, concurrency), its run history
// (newest first, paged, only its runs), a Trigger button and its public badge with a Markdown snippet that
// copies; the commit-status tab turns reporting on (token write-only: "set", never shown), refuses a bad
// repository in words and turns it off; a push whose repository definition did not apply starts runs whose
// page says so with the error. Effects are checked through the API. Screenshots go to test-artifacts/ci-web/.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../e2e/harness.js';
import { fixture, sendWebhook } from '../triggers/helpers.js';
import { ADMIN_PASSWORD, adminPage, apiSession, shot, startUi, type UiEnv, type UiPage } from './harness.js';

const BUNDLE = `project: {slug: pp, name: Pipeline pages}
pipelines:
  - name: build
    when: {event: [push, pull_request], branches: [main]}
    concurrency: {group: builds, mode: cancel-superseded}
    parameters: {TARGET: staging}
    stages: [compile, test]
    jobs:
      make: {stage: compile, image: "node:22", script: [make]}
      unit:
        stage: test
        needs: [make]
        script: [make test]
        matrix: {NODE: ["20", "22"]}
  - name: deploy
    stages: [ship]
    jobs:
      go: {stage: ship, approval: {description: "Ship?"}}
`;

let env: UiEnv;
let admin: Awaited<ReturnType<typeof apiSession>>;
let ui: UiPage;
let build: string;
let deploy: string;

beforeAll(async () => {
  env = await startUi();
  admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
  expect((await admin.post('/api/v1/projects/apply', { yaml: BUNDLE })).status).toBe(200);
  const ids = (await admin.get('/api/v1/projects/pp')).body.pipelines as { name: string; id: string }[];
  build = ids.find((p) => p.name === 'build')!.id;
  deploy = ids.find((p) => p.name === 'deploy')!.id;
  ui = await adminPage(env, { width: 1280, height: 900 });
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.base });
});

afterAll(async () => {
  expect(ui?.problems ?? []).toEqual([]);
  await env?.close();
});

describe('the pipeline page', () => {
  it('opens from the project page and shows the definition', async () => {
    const { page } = ui;
    await page.goto('/projects/pp');
    await page.getByRole('table', { name: 'Pipelines' }).getByRole('link', { name: 'build' }).click();
    await page.waitForURL(/\/projects\/pp\/pipelines\/build$/);
    await page.getByRole('heading', { name: 'build', level: 1 }).waitFor();
    expect(await page.getByTestId('pipeline-stages').textContent()).toBe('compile → test');
    const text = (await page.locator('dl[aria-label="Pipeline definition"]').textContent()) ?? '';
    expect(text).toContain('cancel-superseded');
    expect(text).toContain('group builds');
    expect(text).toContain('Runs only');
    expect(text).toContain('on push, pull_request');
    expect(text).toContain('branches main');
    expect(text).toContain('TARGET=staging');
    const jobs = page.getByRole('table', { name: 'Jobs' });
    const unit = jobs.getByRole('row').filter({ hasText: 'unit' });
    expect(await unit.textContent()).toContain('matrix ×2');
    expect(await unit.textContent()).toContain('make');
    expect(await jobs.getByRole('row').filter({ hasText: 'node:22' }).count()).toBe(1);
    await page.getByText('This pipeline has not run yet.').waitFor();
  });

  it('lists only its runs, newest first, paged, and triggers a new one', async () => {
    const { page } = ui;
    // 21 runs of build (one more than a page) and one of deploy, which must not show.
    for (let i = 0; i < 21; i++)
      expect((await admin.post(`/api/v1/pipelines/${build}/trigger`, { git_ref: `b${i}` })).status).toBe(201);
    expect((await admin.post(`/api/v1/pipelines/${deploy}/trigger`)).status).toBe(201);
    await page.goto('/projects/pp/pipelines/build');
    const table = page.getByRole('table', { name: 'Runs' });
    await table.getByRole('link', { name: 'build #21', exact: true }).waitFor();
    const links = await table.getByRole('link').allTextContents();
    expect(links).toHaveLength(20);
    expect(links[0]).toBe('build #21');
    expect(links[19]).toBe('build #2');
    expect(links.every((l) => l.startsWith('build #'))).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Pages' }).textContent()).toContain('1–20 of 21');
    expect(await table.getByRole('row').nth(1).textContent()).toContain('b20');
    await shot(page, 'pipeline-page.png', true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/\/projects\/pp\/pipelines\/build\?offset=20$/);
    // Exact: until the second page arrives the table still lists #10–#19, which a substring match of 'build #1' finds.
    await table.getByRole('link', { name: 'build #1', exact: true }).waitFor();
    expect(await table.getByRole('link').count()).toBe(1);

    await page.getByRole('button', { name: 'Trigger build' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trigger build' });
    expect(await dialog.getByLabel('Parameter TARGET').inputValue()).toBe('staging');
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const run = (await admin.get(`/api/v1/runs/${id}?logs=0`)).body;
    expect(run).toMatchObject({ pipeline_name: 'build', counter: 22, cause: 'manual' });
    expect((await admin.get(`/api/v1/runs?pipeline=${build}&limit=1`)).body.total).toBe(22);
  });

  it('shows the public badge and copies its Markdown', async () => {
    const { page } = ui;
    await page.goto('/projects/pp/pipelines/build');
    const badge = page.getByTestId('pipeline-badge');
    await badge.waitFor();
    // The image really loaded (an SVG of non-zero width), as an anonymous README reader would get it.
    await page.waitForFunction(
      () =>
        ((globalThis as any).document.querySelector('[data-testid=pipeline-badge]')?.naturalWidth ?? 0) > 0,
    );
    const src = (await badge.getAttribute('src'))!;
    expect(src).toBe(`${env.base}/api/v1/projects/pp/pipelines/build/badge.svg`);
    const anonymous = await fetch(src);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.text()).toContain('<title>build: queued</title>');
    const markdown = `[![build](${src})](${env.base}/projects/pp/pipelines/build)`;
    expect(await page.getByLabel('Markdown').inputValue()).toBe(markdown);
    await page.getByRole('button', { name: 'Copy Markdown' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(markdown);
    await page.getByLabel('Branch').fill('release/1');
    expect(await page.getByLabel('Markdown').inputValue()).toContain('badge.svg?branch=release%2F1');
    await page.getByRole('heading', { name: 'Status badge' }).scrollIntoViewIfNeeded();
    await shot(page, 'pipeline-badge.png', true);
    // A narrow window: looked at in the screenshot (tables scroll inside their panel, nothing overlaps).
    await page.setViewportSize({ width: 760, height: 900 });
    await shot(page, 'pipeline-page-narrow.png', true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('says so when the pipeline does not exist', async () => {
    const { page } = ui;
    await page.goto('/projects/pp/pipelines/nope');
    await page.getByText('Project pp has no active pipeline named "nope".').waitFor();
  });
});

describe('commit status settings', () => {
  it('turns reporting on with a write-only token, refuses a bad repository, and turns it off', async () => {
    const { page } = ui;
    const TOKEN = 'glpat-never-shown-0123456789';
    await page.goto('/projects/pp');
    // The map says what the pipelines table says: deploy #1 waits at its gate, it is not "running".
    await page
      .getByTestId('vsm-pipeline-deploy')
      .getByText(/#1 awaiting approval ·/)
      .waitFor();
    await page.getByRole('tab', { name: 'Commit status' }).click();
    await page.getByTestId('commit-status-state').getByText('Off').waitFor();
    const form = page.getByRole('form', { name: 'Commit status settings' });
    await form.getByLabel('Forge').selectOption('gitlab');
    expect(await form.getByLabel('API root (optional)').getAttribute('placeholder')).toBe(
      'https://gitlab.com/api/v4',
    );
    await form.getByLabel('Repository (optional)').fill('not a path');
    await form.getByLabel(/^Token/).fill(TOKEN);
    await form.getByRole('button', { name: 'Turn on commit status' }).click();
    await form.getByText('is not a GitLab project path').waitFor();
    expect((await admin.get('/api/v1/projects/pp/commit-status')).body.host).toBeNull();

    await form.getByLabel('Repository (optional)').fill('acme/tools/pp');
    await form.getByRole('button', { name: 'Turn on commit status' }).click();
    await page.getByTestId('commit-status-token').getByText('set').waitFor();
    expect(await page.getByTestId('commit-status-state').textContent()).toBe('GitLab');
    const saved = await admin.get('/api/v1/projects/pp/commit-status');
    expect(saved.body).toMatchObject({
      host: 'gitlab',
      api_url: 'https://gitlab.com/api/v4',
      repository: 'acme/tools/pp',
      context_prefix: 'ci/gocdnext',
      has_token: true,
    });
    expect(JSON.stringify(saved.body)).not.toContain(TOKEN);
    // The token field is emptied after saving, and the page never shows the token.
    expect(await form.getByLabel(/^Token/).inputValue()).toBe('');
    expect(await page.content()).not.toContain(TOKEN);
    await shot(page, 'commit-status-settings.png', true);

    // Saving again without a token keeps the stored one; an edit clears the "Saved." of the last save.
    await form.getByText('Saved.').waitFor();
    await form.getByLabel('Status name prefix').fill('ci/ours');
    await form.getByText('Saved.').waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Save commit status' }).click();
    await page.getByText('ci/ours/pp/<pipeline>').waitFor();
    expect((await admin.get('/api/v1/projects/pp/commit-status')).body).toMatchObject({
      context_prefix: 'ci/ours',
      has_token: true,
    });

    await form.getByRole('button', { name: 'Turn off commit status' }).click();
    await form.getByRole('button', { name: 'Turn off and delete the token' }).click();
    await page.getByTestId('commit-status-state').getByText('Off').waitFor();
    expect((await admin.get('/api/v1/projects/pp/commit-status')).body).toMatchObject({
      host: null,
      has_token: false,
    });
  });
});

describe('a pushed definition that did not apply', () => {
  it("shows the error on the runs the push started, in the run's cause", async () => {
    const repo = makeRepo({
      '.gocdnext/ci.yaml': 'stages: [build]\njobs:\n  b: {stage: build, script: [make]}\n',
    });
    expect(
      (await admin.put('/api/v1/projects/coded/config-repo', { url: repo.url, poll_interval: '' })).status,
    ).toBe(200);
    expect(
      (await admin.post('/api/v1/projects/coded/secrets', { name: 'WEBHOOK_SECRET', value: 'hook-secret' }))
        .status,
    ).toBe(201);
    const gitEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: repo.dir,
      GIT_AUTHOR_NAME: 'ui',
      GIT_AUTHOR_EMAIL: 'ui@example.test',
      GIT_COMMITTER_NAME: 'ui',
      GIT_COMMITTER_EMAIL: 'ui@example.test',
    };
    writeFileSync(
      join(repo.dir, '.gocdnext/ci.yaml'),
      'stages: [build]\njobs:\n  b: {stage: nowhere, script: [make]}\n',
    );
    execFileSync('git', ['commit', '-qam', 'broken'], { cwd: repo.dir, env: gitEnv });
    const broken = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, env: gitEnv })
      .toString()
      .trim();
    const push = fixture('github-push.json', {
      '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c': broken,
      'https://github.com/acme/shop.git': repo.url,
    });
    const res = await sendWebhook(env.server, 'github', 'push', push, 'hook-secret');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.runs).toHaveLength(1);
    const id = res.body.runs![0];
    const run = (await admin.get(`/api/v1/runs/${id}?logs=0`)).body;
    expect(run.revision).toBe(broken);
    expect(run.definition_error).toMatch(/^the definition does not apply: .*ci\.yaml/);

    const { page } = ui;
    await page.goto(`/runs/${id}`);
    const note = page.getByRole('region', { name: 'Pipeline definition not applied' });
    await note.getByText(`The pipeline definition at ${broken.slice(0, 10)} did not apply`).waitFor();
    expect(await note.textContent()).toContain(run.definition_error);
    await page.getByText('with the last good definition').waitFor();
    // The header links the run's pipeline page.
    expect(await page.getByRole('link', { name: 'ci', exact: true }).getAttribute('href')).toBe(
      '/projects/coded/pipelines/ci',
    );
    await shot(page, 'run-definition-not-applied.png', true);
  });
});
