// Browser tests of how runs wait and start: the trigger dialog lists the pipeline's declared parameters with
// their defaults (editable, sent with the trigger); a serial pipeline's second run reads "waiting (serial)"
// with the run it waits for, in the runs list and on its page; a run stopped at a manual gate reads "awaiting
// approval" instead of "running". Screenshots go to test-artifacts/ci-web/ (gitignored) to be looked at.
// Jobs are moved by the store functions the agents' job reports use.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishJob, jobsOf, startJob } from '../core/agent-sim.js';
import { makeRepo } from '../e2e/harness.js';
import {
  ADMIN_PASSWORD,
  adminPage,
  apiSession,
  nav,
  shot,
  startUi,
  type UiEnv,
  type UiPage,
} from './harness.js';

const BUNDLE = `project: {slug: flow, name: Flow}
pipelines:
  - name: ship
    concurrency: serial
    parameters: {TARGET: staging, REGION: eu}
    stages: [build, release]
    jobs:
      compile: {stage: build, script: [make]}
      go-live:
        stage: release
        approval: {description: "Ship \${{ TARGET }} to \${{ params.REGION }}?"}
`;

let env: UiEnv;
let admin: Awaited<ReturnType<typeof apiSession>>;
let ui: UiPage;

beforeAll(async () => {
  env = await startUi();
  admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
  expect((await admin.post('/api/v1/projects/apply', { yaml: BUNDLE })).status).toBe(200);
  ui = await adminPage(env);
});

afterAll(async () => {
  expect(ui?.problems ?? []).toEqual([]);
  await env?.close();
});

/** Commits `files` to the repository in `dir`; the new commit's id. */
function commit(dir: string, files: Record<string, string>, message: string): string {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GIT_AUTHOR_NAME: 'ui',
    GIT_AUTHOR_EMAIL: 'ui@example.test',
    GIT_COMMITTER_NAME: 'ui',
    GIT_COMMITTER_EMAIL: 'ui@example.test',
  };
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: dir, env });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, env }).toString().trim();
}

describe('runs that wait', () => {
  let first: string;

  it('the trigger dialog lists the declared parameters with their defaults and sends them', async () => {
    const { page } = ui;
    await page.goto('/projects/flow');
    await page.getByRole('button', { name: 'Trigger ship' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trigger ship' });
    expect(await dialog.getByLabel('Parameter TARGET').inputValue()).toBe('staging');
    expect(await dialog.getByLabel('Parameter REGION').inputValue()).toBe('eu');
    await dialog.getByText('default: eu').waitFor();
    await dialog.getByLabel('Parameter REGION').fill('us');
    await shot(page, 'trigger-dialog-parameters.png');
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    first = page.url().split('/').pop()!;
    await page.getByText('REGION=us').waitFor();
    await page.getByText('TARGET=staging').waitFor();
    const run = await admin.get(`/api/v1/runs/${first}?logs=0`);
    expect(run.body.parameters).toEqual({ TARGET: 'staging', REGION: 'us' });
  });

  it('a serial run waiting for the one before it says so in the list and on its page', async () => {
    const { page } = ui;
    const ship = (await admin.get('/api/v1/projects/flow')).body.pipelines[0].id;
    const second = (await admin.post(`/api/v1/pipelines/${ship}/trigger`)).body.run_id;
    await nav(page, 'Runs').click();
    const table = page.getByRole('table', { name: 'Runs' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: 'ship #2' }) });
    await row.getByText('waiting (serial)').waitFor();
    expect(await row.textContent()).toContain('waits for run #1 to finish');
    expect(await row.getByRole('link', { name: /run #1/ }).getAttribute('href')).toBe(`/runs/${first}`);
    await shot(page, 'runs-waiting-serial.png');
    await page.goto(`/runs/${second}`);
    await page
      .getByRole('heading', { name: /ship #2/ })
      .getByText('waiting (serial)')
      .waitFor();
    await page
      .getByTestId('run-waiting')
      .getByText(/waits for/)
      .waitFor();
    await shot(page, 'run-waiting-serial.png');
  });

  it('a run stopped at a manual gate reads "awaiting approval", not "running"', async () => {
    const { page } = ui;
    const compile = (await jobsOf(env.server, first)).find((j) => j.name === 'compile')!;
    await startJob(env.server, compile.id, 'agent-ui');
    await finishJob(env.server, compile.id, 'success');
    await page.goto(`/runs/${first}`);
    await page
      .getByRole('heading', { name: /ship #1/ })
      .getByText('awaiting approval')
      .waitFor();
    expect(await page.getByTestId('run-waiting').textContent()).toBe('waits for approval at gate "go-live"');
    // The gate's description reads the run's parameters.
    await page.getByText('Ship staging to us?').waitFor();
    await nav(page, 'Runs').click();
    const row = page
      .getByRole('table', { name: 'Runs' })
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'ship #1' }) });
    await row.getByText('awaiting approval').waitFor();
    expect(await row.textContent()).not.toContain('running');
    await shot(page, 'runs-awaiting-approval.png');
  });
});

describe('pipelines as code and badges', () => {
  it('shows a repository definition that did not apply on the project page, with the error', async () => {
    const repo = makeRepo({
      '.gocdnext/build.yaml': 'stages: [build]\njobs:\n  b: {stage: build, script: [make]}\n',
    });
    const bound = await admin.put('/api/v1/projects/as-code/config-repo', {
      url: repo.url,
      poll_interval: '',
    });
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    const broken = commit(repo.dir, { '.gocdnext/build.yaml': 'stages: [build]\njobs: [oops\n' }, 'broken');
    expect((await admin.post('/api/v1/projects/as-code/sync')).status).toBe(202);
    await waitFor(
      async () => {
        const state = await admin.get('/api/v1/projects/as-code/config-repo');
        return state.body.checked_revision === broken && state.body.status === 'failed' ? true : undefined;
      },
      { what: 'the broken commit to be read', timeoutMs: 60_000, intervalMs: 200 },
    );
    const { page } = ui;
    await page.goto('/projects/as-code');
    const alert = page.getByRole('alert', { name: 'Pipelines as code' });
    await alert.getByText(`The pipeline definition at ${broken.slice(0, 10)}`).waitFor();
    expect(await alert.textContent()).toContain('build.yaml');
    expect(await alert.textContent()).toContain(`the pipelines of ${repo.head.slice(0, 10)} stay in force`);
    await shot(page, 'project-config-repo-failed.png');
  }, 120_000);

  it('serves the status badge without signing in', async () => {
    const res = await fetch(`${env.base}/api/v1/projects/flow/pipelines/ship/badge.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    // The latest run, ship #2, waits (serial) for ship #1: queued.
    expect(await res.text()).toContain('<title>ship: queued</title>');
    const other = await fetch(`${env.base}/api/v1/projects/flow/pipelines/none/badge.svg`);
    expect(await other.text()).toContain('<title>none: unknown</title>');
  });
});
