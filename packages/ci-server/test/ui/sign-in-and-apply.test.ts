// Browser tests of the main flows of the CI web UI against a real server (SQLite, authentication on): sign
// in (wrong password, then right), apply an invalid and a valid bundle, see the project, trigger a run and
// find it in the runs list (filtered, paged) and its detail page, create an API token whose secret is shown
// once, and sign out. None of it needs a job to execute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  apiSession,
  BUNDLE,
  fillEditor,
  nav,
  openPage,
  startUi,
  type UiEnv,
  type UiPage,
} from './harness.js';

let env: UiEnv;
let ui: UiPage;

beforeAll(async () => {
  env = await startUi();
  ui = await openPage(env);
});

afterAll(async () => {
  await env?.close();
});

const INVALID = `project:
  slug: broken
  name: Broken
pipelines:
  - name: build
    stages: [build]
    jobz: {}
    jobs:
      compile:
        stage: nope
        script: [make]
`;

describe('the CI web UI', () => {
  it('serves the app for page addresses and keeps API 404s as JSON', async () => {
    const page = await fetch(`${env.base}/runs/anything`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const asset = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${env.base}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
    const api = await fetch(`${env.base}/api/v1/nothing-here`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect(await api.json()).toHaveProperty('error');
    const authPath = await fetch(`${env.base}/auth/nothing`, { headers: { accept: 'text/html' } });
    expect(authPath.headers.get('content-type')).toContain('application/json');
    const missingAsset = await fetch(`${env.base}/assets/missing.js`, { headers: { accept: 'text/html' } });
    expect(missingAsset.status).toBe(404);
  });

  it('refuses a wrong password, then signs in and returns to the page asked for', async () => {
    const { page } = ui;
    await page.goto('/runs?status=failed');
    await page.waitForURL(/\/login\?next=/);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Runs' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/runs?status=failed');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('shows the line and column of each problem of an invalid bundle', async () => {
    const { page } = ui;
    await nav(page, 'Apply bundle').click();
    await fillEditor(page, INVALID);
    // While typing, the schema already marks the unknown key — as an error, since apply refuses it.
    await page.getByTestId('schema-problems').filter({ hasNotText: 'No schema problems' }).waitFor();
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    expect(await page.locator('.monaco-editor .squiggly-warning').count()).toBe(0);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    const problems = page.getByRole('alert', { name: 'Bundle problems' });
    await problems.waitFor();
    const text = await problems.textContent();
    expect(text).toContain('2 problems');
    expect(text).toContain('line 7, column 5');
    expect(text).toContain('pipelines[0].jobz');
    expect(text).toContain('unknown key "jobz"');
    expect(text).toContain('line 10, column 16');
    expect(text).toContain('stage "nope" is not declared');
    // Jumping to a problem puts the caret on it.
    await problems.getByRole('button', { name: 'line 10, column 16' }).click();
    await page.getByTestId('caret').filter({ hasText: 'Line 10, column 16' }).waitFor();
    // The server's problems are also marked at their lines in the editor.
    expect(await page.locator('.monaco-editor .squiggly-error').count()).toBeGreaterThan(0);
    // Nothing was created.
    await nav(page, 'Projects').click();
    await page.getByText('No projects yet.').waitFor();
  });

  it('applies a bundle and shows the project, its pipelines and value stream', async () => {
    const { page } = ui;
    await nav(page, 'Apply bundle').click();
    await fillEditor(page, BUNDLE);
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Applied 2 pipelines to webshop' }).waitFor();
    await page.getByRole('link', { name: 'webshop' }).click();
    await page.getByRole('heading', { name: 'Web Shop' }).waitFor();
    const pipelines = page.getByRole('table', { name: 'Pipelines' });
    await pipelines.getByRole('link', { name: 'build', exact: true }).waitFor();
    await pipelines.getByRole('link', { name: 'deploy', exact: true }).waitFor();
    expect(await pipelines.textContent()).toContain('build → test');
    expect(await pipelines.textContent()).toContain('after build/test');
    const vsm = page.getByRole('figure', { name: 'Value-stream map' });
    await vsm.getByText('deploy', { exact: true }).waitFor();
    await vsm.getByText('build', { exact: true }).waitFor();
    expect(await vsm.textContent()).toContain('test success');
    await nav(page, 'Projects').click();
    await page.getByRole('link', { name: 'Web Shop' }).waitFor();
  });

  it('triggers a run with a parameter and shows it in its detail page and the runs list', async () => {
    const { page } = ui;
    await page.getByRole('link', { name: 'Web Shop' }).click();
    await page.getByRole('button', { name: 'Trigger build' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trigger build' });
    await dialog.getByRole('button', { name: 'Add parameter' }).click();
    await dialog.getByLabel('Parameter 1 name').fill('TARGET');
    await dialog.getByLabel('Parameter 1 value').fill('production');
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const runId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'build #1' }).waitFor();
    await page.getByText('TARGET=production').waitFor();
    // Jobs are queued for an agent (or already running or done when one is connected).
    const build = page.getByRole('table', { name: 'Jobs of build' });
    const compile = build.getByRole('row').filter({ hasText: 'compile' });
    await compile.waitFor();
    expect(await compile.textContent()).toMatch(/queued|running|success/);
    const test = page.getByRole('table', { name: 'Jobs of test' });
    expect(await test.getByRole('row').filter({ hasText: 'NODE=20' }).count()).toBe(1);
    expect(await test.getByRole('row').filter({ hasText: 'NODE=22' }).count()).toBe(1);

    await nav(page, 'Runs').click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await runs.getByRole('link', { name: 'build #1' }).waitFor();
    expect(await runs.getByRole('link', { name: 'build #1' }).getAttribute('href')).toBe(`/runs/${runId}`);
    // Filtering by a status no run has empties the list; clearing it brings the run back.
    await page.getByLabel('Status').selectOption('canceled');
    await page.getByText('No runs match these filters.').waitFor();
    expect(new URL(page.url()).search).toBe('?status=canceled');
    await page.getByLabel('Status').selectOption('');
    await runs.getByRole('link', { name: 'build #1' }).waitFor();
  });

  it('pages through the runs list', async () => {
    const { page } = ui;
    const admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
    const project = await admin.get('/api/v1/projects/webshop');
    const build = project.body.pipelines.find((p: { name: string }) => p.name === 'build');
    for (let i = 0; i < 26; i++)
      expect((await admin.post(`/api/v1/pipelines/${build.id}/trigger`)).status).toBe(201);
    await page.goto('/runs');
    await page.getByText('1–25 of 27').waitFor();
    await page.getByRole('link', { name: 'build #27' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('26–27 of 27').waitFor();
    await page.getByRole('link', { name: 'build #1', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'build #27' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('link', { name: 'build #27' }).waitFor();
  });

  it('creates an API token, shows its secret once, and revokes it', async () => {
    const { page } = ui;
    await nav(page, 'Account').click();
    await page.getByLabel('Token name').fill('deploy-bot');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByTestId('token-secret');
    await shown.waitFor();
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^ci_[A-Za-z0-9_-]{40,}$/);
    const row = page
      .getByRole('table', { name: 'API tokens' })
      .getByRole('row')
      .filter({ hasText: 'deploy-bot' });
    await row.waitFor();
    expect(await row.textContent()).toContain(secret.slice(0, 8));
    // The token works, as its owner.
    const me = await fetch(`${env.base}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(((await me.json()) as { username: string }).username).toBe('admin');
    // Once the page is left, the secret is gone for good; the token is still listed.
    await page.reload();
    await row.waitFor();
    expect(await page.getByTestId('token-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Revoke token deploy-bot' }).click();
    await page.getByText('No tokens.').waitFor();
    const after = await fetch(`${env.base}/api/v1/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status).toBe(401);
  });

  it('signs out back to the sign-in page, and the session is gone', async () => {
    const { page, problems } = ui;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.goto('/projects');
    await page.waitForURL(/\/login\?next=%2Fprojects$/);
    await page.getByLabel('Username').waitFor();
    // No script error and no content-security-policy violation happened along the way.
    expect(problems).toEqual([]);
  });
});
