// Browser tests of the CI web UI's overview pages: the runs list (filters kept in the address, a pipeline
// chosen within a project, live updates while the page is open, durations ticking, empty and error states),
// the project page (pipelines with their latest runs, triggers, settings with the notification history) and
// the value-stream map laid out by elkjs with the revision that flowed, and the agents page. One server and
// one browser for the file; jobs are moved by the store functions the agent intake uses
// (test/core/agent-sim.ts). Screenshots go to test-artifacts/ci-web/ (gitignored), light and dark.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobsOf, startJob } from '../core/agent-sim.js';
import {
  ADMIN_PASSWORD,
  apiSession,
  BUNDLE,
  nav,
  openPage,
  signIn,
  startUi,
  type UiEnv,
  type UiPage,
  WAIT,
} from './harness.js';

const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts/ci-web');

const DOCS_BUNDLE = `project:
  slug: docs
  name: Docs site
pipelines:
  - name: publish
    stages: [build]
    jobs:
      render:
        stage: build
        script: ["echo render"]
`;

let env: UiEnv;
let admin: Awaited<ReturnType<typeof apiSession>>;
let ui: UiPage;
const pipelines: Record<string, string> = {};

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  env = await startUi();
  admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
  for (const yaml of [BUNDLE, DOCS_BUNDLE])
    expect((await admin.post('/api/v1/projects/apply', { yaml })).status).toBe(200);
  for (const slug of ['webshop', 'docs']) {
    const project = await admin.get(`/api/v1/projects/${slug}`);
    for (const p of project.body.pipelines as { name: string; id: string }[]) pipelines[p.name] = p.id;
  }
  ui = await openPage(env, { width: 1280, height: 720 });
  await signIn(ui.page, 'admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  expect(ui?.problems ?? []).toEqual([]);
  await env?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, name) });

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && ui)
    await ui.page
      .screenshot({
        path: join(SHOTS, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`),
        fullPage: true,
      })
      .catch(() => {});
});

async function trigger(pipeline: string): Promise<string> {
  const res = await admin.post(`/api/v1/pipelines/${pipelines[pipeline]}/trigger`);
  expect(res.status).toBe(201);
  return res.body.run_id;
}

async function jobId(runId: string, name: string): Promise<string> {
  const job = (await jobsOf(env.server, runId)).find((j) => j.name === name);
  if (!job) throw new Error(`no job ${name} in run ${runId}`);
  return job.id;
}

const search = (page: Page) => new URL(page.url()).searchParams;

describe('the runs list', () => {
  it('keeps its filters in the address, narrows to a pipeline of a project and clears them', async () => {
    const { page } = ui;
    await trigger('build');
    await trigger('publish');
    await nav(page, 'Runs').click();
    const table = page.getByRole('table', { name: 'Runs' });
    await table.getByRole('link', { name: 'publish #1' }).waitFor();
    await table.getByRole('link', { name: 'build #1' }).waitFor();
    // Without a project there is nothing to choose a pipeline from.
    expect(await page.getByLabel('Pipeline', { exact: true }).isDisabled()).toBe(true);

    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Web Shop' });
    await page.waitForURL(/project=webshop/);
    await table.getByRole('link', { name: 'publish #1' }).waitFor({ state: 'detached', ...WAIT });
    await page.getByLabel('Pipeline', { exact: true }).selectOption({ label: 'build' });
    await page.waitForURL(/pipeline=/);
    expect(search(page).get('pipeline')).toBe(pipelines.build);
    expect(search(page).get('project')).toBe('webshop');

    // A reload keeps the view: the address is the state.
    await page.reload();
    await table.getByRole('link', { name: 'build #1' }).waitFor();
    expect(await page.getByLabel('Pipeline', { exact: true }).inputValue()).toBe(pipelines.build);

    await page.getByLabel('Status', { exact: true }).selectOption('failed');
    await page.waitForURL(/status=failed/);
    await page.getByText('No runs match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.waitForURL((url) => url.pathname === '/runs' && url.search === '');
    await table.getByRole('link', { name: 'publish #1' }).waitFor();
  });

  it('shows new runs while open and ticks the duration of a running one', async () => {
    const { page } = ui;
    await page.goto('/runs?project=docs');
    const table = page.getByRole('table', { name: 'Runs' });
    await table.getByRole('link', { name: 'publish #1' }).waitFor();
    await page.getByText('live', { exact: true }).waitFor();
    // A run started elsewhere appears without a reload (the list refreshes itself).
    const runId = await trigger('publish');
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'publish #2' }) });
    await row.waitFor();
    await row.getByText('queued').waitFor();
    await startJob(env.server, await jobId(runId, 'render'));
    await row.getByText('running').waitFor();
    // The duration counts up between refreshes: two different readings, whatever the machine's speed.
    const cell = row.getByTestId('run-duration');
    await expect.poll(() => cell.textContent(), WAIT).toMatch(/^\d+s$/);
    const first = await cell.textContent();
    await expect.poll(() => cell.textContent(), WAIT).not.toBe(first);
    await shot(page, 'runs-live.png');
  });

  it('explains a refused filter and recovers from it', async () => {
    const { page } = ui;
    await page.goto('/runs?status=bogus');
    const alert = page.getByRole('alert').filter({ hasText: 'The runs could not be listed' });
    await alert.waitFor();
    await alert.getByRole('button', { name: 'Try again' }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('table', { name: 'Runs' }).getByRole('link', { name: 'build #1' }).waitFor();
    expect(await alert.count()).toBe(0);
  });
});
