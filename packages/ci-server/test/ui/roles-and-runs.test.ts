// Browser tests of roles and of a run's page: a viewer sees no actions; the live log viewer follows lines as
// they are stored and stops when the run ends; gates are approved and rejected with a comment; a run is
// rerun (only once finished) and canceled, a passed gate is not offered for rerun, a line link opens with
// its line on screen; artifacts and test results show; secrets are set and deleted without their values;
// an administrator manages users and reads the audit log. Jobs are moved by the same store functions the
// agents' job reports use (test/core/agent-sim.ts), so nothing here waits for a real agent.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishJob, jobsOf, startJob } from '../core/agent-sim.js';
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

let env: UiEnv;
let admin: Awaited<ReturnType<typeof apiSession>>;
let pipelines: Record<string, string>;
let adminUi: UiPage;

beforeAll(async () => {
  env = await startUi();
  admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
  expect((await admin.post('/api/v1/projects/apply', { yaml: BUNDLE })).status).toBe(200);
  const project = await admin.get('/api/v1/projects/webshop');
  pipelines = Object.fromEntries(
    project.body.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]),
  );
  for (const [username, role] of [
    ['vera', 'viewer'],
    ['max', 'maintainer'],
  ])
    expect(
      (await admin.post('/api/v1/admin/users', { username, password: `${username}-password-123`, role }))
        .status,
    ).toBe(201);
  adminUi = await openPage(env);
  await signIn(adminUi.page, 'admin', ADMIN_PASSWORD);
});

afterAll(async () => {
  await env?.close();
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

const lines = (from: number, count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => ({
    seq: from + i,
    stream: i === 1 ? 'stderr' : 'stdout',
    atMs: Date.now(),
    text: `${prefix} ${from + i}`,
  }));

describe('roles', () => {
  it('shows a viewer the projects and runs but no action it may not take', async () => {
    const runId = await trigger('build');
    const { page, context } = await openPage(env);
    try {
      await signIn(page, 'vera', 'vera-password-123');
      const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
      expect(links).toEqual(['Projects', 'Runs', 'Account']);
      expect(await page.getByRole('link', { name: 'Apply bundle' }).count()).toBe(0);

      await page.getByRole('link', { name: 'Web Shop' }).click();
      const table = page.getByRole('table', { name: 'Pipelines' });
      await table.getByRole('link', { name: 'deploy', exact: true }).waitFor();
      await page
        .getByRole('table', { name: 'Runs' })
        .getByRole('link', { name: 'build #' })
        .first()
        .waitFor();
      expect(await page.getByRole('button', { name: /Trigger/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Run all' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Apply bundle' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Secrets' }).count()).toBe(0);

      await page.goto(`/runs/${runId}`);
      await page.getByRole('table', { name: 'Jobs of build' }).getByText('compile').waitFor();
      expect(await page.getByRole('button', { name: /Cancel run|Rerun/ }).count()).toBe(0);

      await page.goto('/apply');
      await page.getByText('This page needs the maintainer role.').waitFor();
      expect(await page.getByLabel('Bundle YAML').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('a run page', () => {
  it('follows the log live, per job, and stops when the run is over', async () => {
    const { page } = adminUi;
    const runId = await trigger('build');
    const compile = await jobId(runId, 'compile');
    await page.goto(`/runs/${runId}`);
    await page.getByText('No log lines yet').waitFor();
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor();

    await startJob(env.server, compile, 'agent-ui');
    await env.server.execution.logs.appendLogBatch(compile, lines(1, 3, 'compiling step'));
    const log = page.getByRole('log');
    await log.getByText('compiling step 3').waitFor();
    expect(await log.locator('.stderr').allTextContents()).toEqual(['2compiling step 2']);
    await env.server.execution.logs.appendLogBatch(compile, lines(4, 2, 'linking'));
    await log.getByText('linking 5').waitFor();
    await page
      .getByRole('tab', { name: /compile/ })
      .getByText('5', { exact: true })
      .waitFor();

    // The run ends: every job finishes (the unit jobs write their own lines), the stream closes for good.
    await finishJob(env.server, compile, 'success');
    for (const job of await jobsOf(env.server, runId)) {
      if (job.name !== 'unit') continue;
      await startJob(env.server, job.id);
      await env.server.execution.logs.appendLogBatch(
        job.id,
        lines(1, 1, `node ${JSON.parse(job.matrix).NODE}`),
      );
      await finishJob(env.server, job.id, 'success');
    }
    await page.getByRole('status').filter({ hasText: 'complete' }).waitFor();
    await page.getByRole('heading', { name: /build #\d+ success/ }).waitFor();
    await page.getByRole('tab', { name: 'unit [NODE=22]' }).click();
    await log.getByText('node 22 1').waitFor();
    expect(await log.textContent()).not.toContain('compiling');
    // Agent and exit code are shown per job.
    const row = page
      .getByRole('table', { name: 'Jobs of build' })
      .getByRole('row')
      .filter({ hasText: 'compile' });
    expect(await row.textContent()).toContain('agent-ui');
    expect(await row.textContent()).toContain('success');
  });

  it('approves one gate and rejects another, with comments', async () => {
    const { page } = adminUi;
    const approved = await trigger('deploy');
    await page.goto(`/runs/${approved}`);
    const gate = page.getByLabel('Approval for approve');
    await gate.waitFor();
    await gate.getByLabel('Comment').fill('ship it');
    await gate.getByRole('button', { name: 'Approve' }).click();
    const ship = page
      .getByRole('table', { name: 'Jobs of ship' })
      .getByRole('row')
      .filter({ hasText: 'ship' });
    await ship.getByText(/queued|running|success/).waitFor();
    expect(await page.getByLabel('Approval for approve').count()).toBe(0);
    const audit = await admin.get(
      `/api/v1/admin/audit?action=${encodeURIComponent('POST /api/v1/job_runs/{id}/approve')}`,
    );
    expect(audit.body.entries[0]).toMatchObject({ actor: 'admin' });

    const rejected = await trigger('deploy');
    await page.goto(`/runs/${rejected}`);
    await page.getByLabel('Approval for approve').getByLabel('Comment').fill('not today');
    await page.getByLabel('Approval for approve').getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('heading', { name: /deploy #\d+ failed/ }).waitFor();
  });

  it("approves a fork's pull request run from its page; the gate says who may approve", async () => {
    const { page } = adminUi;
    const yaml = `project: { slug: forks, name: Forks }
pipelines:
  - name: pr
    materials:
      - git: { url: "https://github.com/acme/shop", branch: main, on: [pull_request] }
    stages: [check]
    jobs:
      lint: { stage: check, script: [make lint] }`;
    expect((await admin.post('/api/v1/projects/apply', { yaml })).status).toBe(200);
    expect(
      (await admin.post('/api/v1/projects/forks/secrets', { name: 'WEBHOOK_SECRET', value: 'ui-hook' }))
        .status,
    ).toBe(201);
    const fixture = join(import.meta.dirname, '../triggers/fixtures/github-pull-request.json');
    const payload = JSON.parse(readFileSync(fixture, 'utf8'));
    payload.pull_request.head.repo.full_name = 'mallory/shop';
    const body = JSON.stringify(payload);
    const res = await fetch(`${env.base}/api/webhooks/github`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'pull_request',
        'x-github-delivery': 'ui-fork-delivery-1',
        'x-hub-signature-256': `sha256=${createHmac('sha256', 'ui-hook').update(body).digest('hex')}`,
      },
      body,
    });
    const runId = ((await res.json()) as { runs: string[] }).runs[0];
    await page.goto(`/runs/${runId}`);
    const fork = page.getByLabel('Pull request from a fork');
    await fork.getByText('mallory/shop').first().waitFor(WAIT);
    expect(await fork.textContent()).toContain('Its jobs get no secrets.');
    await fork.getByLabel('Approval for this run').getByLabel('Comment').fill('diff read');
    await fork.getByRole('button', { name: 'Approve run' }).click();
    await fork.getByText(/Approved by admin/).waitFor(WAIT);
    expect(await page.getByLabel('Approval for this run').count()).toBe(0);
    const run = await admin.get(`/api/v1/runs/${runId}`);
    expect(run.body.fork).toMatchObject({
      approved_by: 'admin',
      comment: 'diff read',
      awaiting_approval: false,
    });
    expect(run.body.stages[0].jobs[0].status).toBe('queued');
    const audit = await admin.get('/api/v1/admin/audit?action=run.approve');
    expect(audit.body.entries[0]).toMatchObject({ actor: 'admin', target: `run:${runId}` });

    // The deploy gate allows self-approval (harness BUNDLE) and names no approvers.
    const gated = await trigger('deploy');
    await page.goto(`/runs/${gated}`);
    await page.getByText('May approve: any maintainer or admin').waitFor(WAIT);
  });

  it('offers Rerun only on a finished run, and cancels the rerun', async () => {
    const { page } = adminUi;
    const first = await trigger('build');
    await page.goto(`/runs/${first}`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.getByText(/build #(\d+)/).waitFor();
    const counter = Number((await heading.textContent())!.match(/#(\d+)/)![1]);
    // Queued: the run can be canceled, not rerun (a second run of the same revision while this one waits).
    await page.getByRole('button', { name: 'Cancel run' }).waitFor();
    expect(await page.getByRole('button', { name: 'Rerun', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('heading', { name: `build #${counter} canceled` }).waitFor();

    await page.getByRole('button', { name: 'Rerun', exact: true }).click();
    await page.getByRole('heading', { name: `build #${counter + 1}` }).waitFor();
    expect(page.url()).not.toContain(first);
    await page.getByText('rerun by admin').waitFor();
    await page.getByRole('button', { name: 'Cancel run' }).waitFor();
    expect(await page.getByRole('button', { name: 'Rerun', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel run' }).click();
    await page.getByRole('heading', { name: `build #${counter + 1} canceled` }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel run' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Rerun', exact: true }).waitFor();
  });

  it('offers no job rerun on a passed gate, nor while a later stage is active', async () => {
    const { page } = adminUi;
    const runId = await trigger('deploy');
    expect((await admin.post(`/api/v1/job_runs/${await jobId(runId, 'approve')}/approve`)).status).toBe(200);
    const ship = await jobId(runId, 'ship');
    await startJob(env.server, ship);
    await page.goto(`/runs/${runId}`);
    const shipRow = page
      .getByRole('table', { name: 'Jobs of ship' })
      .getByRole('row')
      .filter({ hasText: 'ship' });
    await shipRow.getByText('running').waitFor();
    // The gate passed, and the stage after it is running: nothing here may be rerun.
    expect(await page.getByRole('button', { name: /^Rerun job/ }).count()).toBe(0);
    await finishJob(env.server, ship, 'success');
    await page.getByRole('heading', { name: /deploy #\d+ success/ }).waitFor();
    await page.getByRole('button', { name: 'Rerun job ship' }).waitFor();
    expect(await page.getByRole('button', { name: 'Rerun job approve' }).count()).toBe(0);
  });

  it('opens a line link with the marked line on screen while a long log is still streaming in', async () => {
    const { page, context } = await openPage(env, { width: 1280, height: 720 });
    try {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      const runId = await trigger('build');
      const compile = await jobId(runId, 'compile');
      await startJob(env.server, compile, 'agent-ui');
      await env.server.execution.logs.appendLogBatch(compile, lines(1, 500, 'early'));
      await page.goto(`/runs/${runId}?job=${compile}#L3210`);
      await page
        .getByRole('tab', { name: /compile/ })
        .getByText('500', { exact: true })
        .waitFor();
      // The rest arrives while the page is open, the linked line among it, more after it.
      for (let from = 501; from <= 5000; from += 500)
        await env.server.execution.logs.appendLogBatch(compile, lines(from, 500, 'later'));
      const target = page.getByRole('log').locator('.log-target');
      await target.waitFor();
      expect(await target.textContent()).toBe('3210later 3210');
      await page
        .getByRole('tab', { name: /compile/ })
        .getByText('5,000', { exact: true })
        .waitFor();
      // On screen: inside the window's viewport and inside the log's own scrolled box.
      const onScreen = () =>
        target.evaluate((el) => {
          const w = globalThis as any;
          const line = el.getBoundingClientRect();
          const box = el.closest('[role="log"]').getBoundingClientRect();
          return (
            line.top >= 0 && line.bottom <= w.innerHeight && line.top >= box.top && line.bottom <= box.bottom
          );
        });
      await expect.poll(onScreen, WAIT).toBe(true);
      // Lines arriving after it do not move it away (following the tail stays off).
      await env.server.execution.logs.appendLogBatch(compile, lines(5001, 500, 'tail'));
      await page
        .getByRole('tab', { name: /compile/ })
        .getByText('5,500', { exact: true })
        .waitFor();
      expect(await onScreen()).toBe(true);
      await page.getByRole('button', { name: 'Follow', exact: true }).waitFor();
      await finishJob(env.server, compile, 'success');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('lists artifacts with working download links and summarises test results', async () => {
    const { page } = adminUi;
    const runId = await trigger('build');
    const compile = await jobId(runId, 'compile');
    const data = Buffer.from('artifact bytes for the UI test\n');
    const { createHash } = await import('node:crypto');
    await env.server.execution.artifacts.storeArtifact(
      {
        jobRunId: compile,
        path: 'dist/app.txt',
        sizeBytes: data.length,
        contentSha256: createHash('sha256').update(data).digest('hex'),
      },
      (async function* () {
        yield data;
      })(),
    );
    await env.server.execution.reports.storeTestReport({
      jobRunId: compile,
      cases: [
        { suite: 'core', classname: 'core.Cart', name: 'adds items', status: 'passed', durationS: 0.5 },
        {
          suite: 'core',
          classname: 'core.Cart',
          name: 'applies discounts',
          status: 'failed',
          durationS: 0.25,
          message: 'expected 90 but got 100',
        },
      ],
    });
    await page.goto(`/runs/${runId}`);
    const link = page.getByRole('table', { name: 'Artifacts' }).getByRole('link', { name: 'dist/app.txt' });
    await link.waitFor();
    const download = await fetch((await link.getAttribute('href'))!);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(data)).toBe(true);

    const totals = page.getByRole('list', { name: 'Test totals' });
    await totals.waitFor();
    expect((await totals.textContent())?.replace(/\s+/g, ' ')).toContain('2 tests1 passed1 failed');
    const failing = page.getByRole('table', { name: 'Failing tests' });
    await failing.getByText('expected 90 but got 100').waitFor();
    expect(await failing.textContent()).toContain('core.Cart.applies discounts');
  });
});

describe('project administration', () => {
  it('sets and deletes a secret without ever showing its value', async () => {
    const { page } = adminUi;
    await page.goto('/projects/webshop');
    await page.getByLabel('Secret name').fill('NPM_TOKEN');
    await page.getByLabel('Secret value').fill('s3cr3t-value-never-shown');
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByText('Secret NPM_TOKEN saved.').waitFor();
    const table = page.getByRole('table', { name: 'Secrets' });
    await table.getByText('NPM_TOKEN').waitFor();
    expect(await page.getByLabel('Secret value').inputValue()).toBe('');
    expect(await page.content()).not.toContain('s3cr3t-value-never-shown');
    await page.getByRole('button', { name: 'Delete secret NPM_TOKEN' }).click();
    await page.getByRole('button', { name: 'Confirm delete' }).click();
    await page.getByText('No project secrets.').waitFor();
    expect((await admin.get('/api/v1/projects/webshop/secrets')).body.secrets).toEqual([]);
  });

  it('lets an administrator create a user, change its role and find both in the audit log', async () => {
    const { page } = adminUi;
    await nav(page, 'Users').click();
    const form = page.getByRole('region', { name: 'New local user' });
    await form.getByLabel('Username').fill('carol');
    await form.getByLabel('Initial password').fill('carol-password-123');
    await form.getByLabel('Role').selectOption('maintainer');
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User carol created.').waitFor();
    const role = page.getByLabel('Role of carol');
    await role.waitFor();
    expect(await role.inputValue()).toBe('maintainer');
    await role.selectOption('viewer');
    // The select shows the stored role again once the change was saved and the list reloaded.
    await page
      .locator('select[aria-label="Role of carol"]:enabled option:checked')
      .filter({ hasText: 'viewer' })
      .waitFor({ state: 'attached' });
    const users = (await admin.get('/api/v1/admin/users?limit=200')).body.users;
    expect(users.find((u: { username: string }) => u.username === 'carol').role).toBe('viewer');

    await nav(page, 'Audit log').click();
    await page.getByLabel('Action').fill('PUT /api/v1/admin/users/{id}/role');
    await page.getByRole('button', { name: 'Filter' }).click();
    const entries = page.getByRole('table', { name: 'Audit entries' });
    // The unfiltered page (which also holds the entry) stays on screen until the filtered answer replaces it.
    await expect.poll(() => entries.getByRole('row').count(), WAIT).toBe(2);
    await entries.getByText('to=viewer').waitFor();
  });

  it('shows the agents page to administrators', async () => {
    const { page, problems } = adminUi;
    await nav(page, 'Agents').click();
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    await page
      .getByText(/No agent has registered yet|online|busy|offline/)
      .first()
      .waitFor();
    expect(problems).toEqual([]);
  });
});
