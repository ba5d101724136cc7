import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/store/ids.js';
import { jobsOf, startJob } from '../core/agent-sim.js';
import { makeRepo, type Repo } from '../e2e/harness.js';
import {
  ADMIN_PASSWORD,
  adminPage,
  apiSession,
  BUNDLE,
  nav,
  shot,
  shotOnFailure,
  startUi,
  type UiEnv,
  type UiPage,
  WAIT,
} from './harness.js';

const docsBundle = (repo: Repo) => `project:
  slug: docs
  name: Docs site
pipelines:
  - name: publish
    materials:
      - git: { url: "${repo.url}", branch: main }
    stages: [build]
    jobs:
      render:
        stage: build
        script: ["echo render"]
`;

let env: UiEnv;
let admin: Awaited<ReturnType<typeof apiSession>>;
let ui: UiPage;
let repo: Repo;
const pipelines: Record<string, string> = {};

beforeAll(async () => {
  env = await startUi();
  admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
  repo = makeRepo({ 'index.md': '# docs\n' });
  for (const yaml of [BUNDLE, docsBundle(repo)])
    expect((await admin.post('/api/v1/projects/apply', { yaml })).status).toBe(200);
  for (const slug of ['webshop', 'docs']) {
    const project = await admin.get(`/api/v1/projects/${slug}`);
    for (const p of project.body.pipelines as { name: string; id: string }[]) pipelines[p.name] = p.id;
  }
  // An email channel with no SMTP server configured: its deliveries fail with that reason (nothing is sent
  // anywhere), which gives the notification history a deterministic row.
  const channels = [{ kind: 'email', target: 'ops@example.test', events: ['run.started'] }];
  expect((await admin.put('/api/v1/projects/docs/notifications', { channels })).status).toBe(200);
  ui = await adminPage(env);
});

afterAll(async () => {
  expect(ui?.problems ?? []).toEqual([]);
  await env?.close();
});

shotOnFailure(() => ui);

async function trigger(pipeline: string): Promise<string> {
  // The docs pipeline runs the repository's head commit by id (no branch lookup needed).
  const body = pipeline === 'publish' ? { git_ref: repo.head } : undefined;
  const res = await admin.post(`/api/v1/pipelines/${pipelines[pipeline]}/trigger`, body);
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

describe('the project page', () => {
  it('shows pipelines with their latest runs, the triggers, settings and notification history', async () => {
    const { page } = ui;
    await page.goto('/projects/docs');
    await page.getByRole('heading', { name: 'Docs site' }).waitFor();
    const pipelinesTable = page.getByRole('table', { name: 'Pipelines' });
    const publish = pipelinesTable.getByRole('row').filter({ hasText: 'publish' });
    await publish.getByRole('link', { name: '#2' }).waitFor();
    await publish.getByText('running').waitFor();
    expect(await publish.textContent()).toContain(`git ${repo.url} @ main`);

    const tabs = page.getByRole('tablist', { name: 'Project settings' });
    await tabs.getByRole('tab', { name: 'Triggers' }).click();
    const hooks = page.getByRole('list', { name: 'Webhook addresses' });
    expect(await hooks.textContent()).toContain(`${env.base}/api/webhooks/github`);
    expect(await page.getByRole('list', { name: 'Materials' }).textContent()).toContain(repo.url);

    await tabs.getByRole('tab', { name: 'Settings' }).click();
    const facts = page.getByRole('definition').first();
    await facts.waitFor();
    expect(await page.getByLabel('Project settings', { exact: true }).last().textContent()).toMatch(
      /Poll interval.*Log archive/,
    );
    // A maintainer overrides polling and the log archive in the forms; the facts and the API follow.
    const pollForm = page.getByRole('form', { name: 'Poll interval' });
    await pollForm.getByRole('combobox', { name: /^Polling/ }).selectOption('every');
    await pollForm.getByLabel('Interval').fill('10m');
    await pollForm.getByRole('button', { name: 'Save polling' }).click();
    await page.getByText('every 10m').waitFor();
    expect((await admin.get('/api/v1/projects/docs/poll-interval')).body).toEqual({ interval: '10m' });
    const archiveForm = page.getByRole('form', { name: 'Log archive' });
    await archiveForm.getByRole('combobox', { name: /^Log archive/ }).selectOption('after');
    await archiveForm.getByLabel('Delay').fill('soon');
    await archiveForm.getByRole('button', { name: 'Save log archive' }).click();
    await page.getByText('after must be a duration', { exact: false }).waitFor();
    await archiveForm.getByLabel('Delay').fill('12h');
    await archiveForm.getByRole('button', { name: 'Save log archive' }).click();
    await page.getByText('after 12h').waitFor();
    expect((await admin.get('/api/v1/projects/docs/log-archive')).body.override).toMatchObject({
      enabled: true,
      after: '12h',
    });
    await shot(page, 'project-settings-overrides.png');
    await archiveForm.getByRole('combobox', { name: /^Log archive/ }).selectOption('default');
    await archiveForm.getByRole('button', { name: 'Save log archive' }).click();
    await page.getByText('(server default)', { exact: false }).waitFor();
    await pollForm.getByRole('combobox', { name: /^Polling/ }).selectOption('materials');
    await pollForm.getByRole('button', { name: 'Save polling' }).click();
    await page.getByText("each material's own").waitFor();

    await tabs.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('list', { name: 'Notification channels' }).getByText('ops@example.test').waitFor();
    const deliveries = page.getByRole('table', { name: 'Notification deliveries' });
    const started = deliveries.getByRole('row').filter({ hasText: 'run.started' }).first();
    await started.waitFor();
    // The deliverer polls the outbox every 2 s; the row ends failed with the reason.
    await started.getByText('email needs CI_CONFIG notifications.smtp', { exact: false }).waitFor();
    await started.getByText('failed', { exact: true }).waitFor();
    await deliveries.scrollIntoViewIfNeeded();
    await shot(page, 'project-notifications.png');
    await page.getByLabel('Outcome', { exact: true }).selectOption('delivered');
    await page.getByText('No delivered deliveries.').waitFor();
    await page.getByLabel('Outcome', { exact: true }).selectOption('failed');
    await started.waitFor();

    // A maintainer adds a channel in the form and removes it again; the API holds what the page shows.
    const add = page.getByRole('form', { name: 'Add a notification channel' });
    const channels = page.getByRole('list', { name: 'Notification channels' });
    await add.getByRole('combobox', { name: /^Channel/ }).selectOption('email');
    await add.getByLabel('Address').fill('team@example.com');
    await add.getByLabel('gate waiting').check();
    await add.getByRole('button', { name: 'Add channel' }).click();
    await channels.getByText('team@example.com').waitFor();
    expect((await admin.get('/api/v1/projects/docs/notifications')).body.channels).toContainEqual({
      kind: 'email',
      target: 'team@example.com',
      events: ['run.failed', 'run.fixed', 'gate.waiting'],
    });
    // A target the server refuses is explained in its words, and nothing is saved.
    await add.getByRole('combobox', { name: /^Channel/ }).selectOption('webhook');
    await add.getByLabel('URL', { exact: true }).fill('ftp://example.com/x');
    await add.getByRole('button', { name: 'Add channel' }).click();
    await page.getByText('The channels were not saved').waitFor();
    await shot(page, 'project-notification-channels.png');
    expect((await admin.get('/api/v1/projects/docs/notifications')).body.channels).toHaveLength(2);
    await channels.getByRole('button', { name: 'Remove email channel team@example.com' }).click();
    await channels.getByText('team@example.com').waitFor({ state: 'detached' });
    expect((await admin.get('/api/v1/projects/docs/notifications')).body.channels).toHaveLength(1);
  });

  it('lays out the value-stream map with upstream and downstream and the revision that flowed', async () => {
    const { page } = ui;
    await page.goto('/projects/webshop');
    const map = page.getByRole('figure', { name: 'Value-stream map' });
    const build = map.getByTestId('vsm-pipeline-build');
    const deploy = map.getByTestId('vsm-pipeline-deploy');
    await build.waitFor();
    await deploy.waitFor();
    await map.getByTestId('vsm-edge-upstream').getByText('test success').waitFor();
    // Upstream sits left of downstream (elkjs layers the map left to right).
    const [b, d] = [await build.boundingBox(), await deploy.boundingBox()];
    expect(b && d && b.x + b.width <= d.x).toBe(true);
    expect(await build.textContent()).toMatch(/#\d+ (queued|running|success|failed)/);
    expect(await deploy.textContent()).toContain('never run');
    await map.scrollIntoViewIfNeeded();
    await shot(page, 'vsm-upstream.png');

    await page.goto('/projects/docs');
    const docsMap = page.getByRole('figure', { name: 'Value-stream map' });
    const material = docsMap.locator('.vsm-material');
    const pipeline = docsMap.getByTestId('vsm-pipeline-publish');
    await pipeline.waitFor();
    await docsMap.getByTestId('vsm-edge-material').waitFor({ state: 'attached' });
    const [m, p] = [await material.boundingBox(), await pipeline.boundingBox()];
    expect(m && p && m.x + m.width <= p.x).toBe(true);
    expect(await pipeline.textContent()).toContain(`rev ${repo.head.slice(0, 10)}`);
    await shot(page, 'vsm-light.png');
    // The pipeline box opens its latest run.
    await docsMap.getByRole('link', { name: 'publish run #2' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: /publish #2/ }).waitFor();
  });
});

describe('the agents page', () => {
  it('lists each agent with its state, labels, current job, when it registered and was last seen; revokes one', async () => {
    const { page } = ui;
    const db = env.server.database.db;
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const row = (name: string, status: 'online' | 'busy' | 'offline', seenMsAgo: number, tags: string[]) => ({
      id: newId(),
      name,
      tags: JSON.stringify(tags),
      capacity: 2,
      version: '0.3.0',
      hostname: `${name}.local`,
      status,
      last_heartbeat_at: ago(seenMsAgo),
      registered_at: ago(3_600_000),
    });
    const busy = row('builder-1', 'busy', 1_000, ['linux', 'docker']);
    const idle = row('builder-2', 'offline', 7_200_000, ['arm64']);
    await db.insertInto('agents').values([busy, idle]).execute();
    // The running docs job is held by builder-1.
    const runs = await admin.get('/api/v1/runs?project=docs&status=running');
    const runId = runs.body.runs[0].id as string;
    const render = await jobId(runId, 'render');
    await db.updateTable('job_runs').set({ lease_agent_id: busy.id }).where('id', '=', render).execute();

    await nav(page, 'Agents').click();
    const one = page.getByTestId('agent-builder-1');
    await one.getByText('busy', { exact: true }).waitFor();
    expect(await one.textContent()).toMatch(/linux.*docker/);
    await one.getByText('1/2 slots').waitFor();
    expect(await one.getByRole('link', { name: 'render' }).getAttribute('href')).toBe(
      `/runs/${runId}?job=${render}`,
    );
    const two = page.getByTestId('agent-builder-2');
    await two.getByText('offline', { exact: true }).waitFor();
    await two.getByText('2h ago').waitFor();
    await page.getByText('0 online · 1 busy · 1 offline').waitFor();
    await two.getByText('1h ago').waitFor();
    await shot(page, 'agents.png');

    // Revoking takes a confirmation; the row then shows the agent revoked, without the button.
    await two.getByRole('button', { name: 'Revoke agent builder-2' }).click();
    await two.getByRole('button', { name: 'Keep' }).click();
    await two.getByRole('button', { name: 'Revoke agent builder-2' }).click();
    await two.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByText('Agent builder-2 was revoked').waitFor();
    await two.getByText('revoked', { exact: true }).waitFor();
    expect(await two.getByRole('button').count()).toBe(0);
    const stored = await db
      .selectFrom('agents')
      .select('revoked_at')
      .where('id', '=', idle.id)
      .executeTakeFirst();
    expect(stored?.revoked_at).toEqual(expect.any(String));
    await one.getByRole('button', { name: 'Revoke agent builder-1' }).waitFor();

    // Rotating the registration token takes a confirmation and shows the new token once.
    await page.getByRole('button', { name: 'Rotate registration token' }).click();
    await page.getByRole('button', { name: 'Rotate: new agents need the new token' }).click();
    const once = page.getByRole('status').filter({ hasText: 'New registration token (shown once' });
    const token = (await once.locator('code').last().textContent()) ?? '';
    expect(token.length).toBeGreaterThan(20);
    const audit = await admin.get('/api/v1/admin/audit?limit=5');
    expect(JSON.stringify(audit.body)).toContain('agent.registration_token.rotate');
    expect(JSON.stringify(audit.body)).not.toContain(token);

    // Dark theme: the same pages with the kit's dark tokens.
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.goto('/projects/docs');
    await page
      .getByRole('figure', { name: 'Value-stream map' })
      .getByTestId('vsm-pipeline-publish')
      .waitFor();
    await shot(page, 'vsm-dark.png');
    await page.goto('/runs');
    await page.getByRole('table', { name: 'Runs' }).waitFor();
    await shot(page, 'runs-dark.png');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
  });
});

describe('the administrators’ settings and webhook pages', () => {
  it('sets and deletes a global secret and creates a service account with a token shown once', async () => {
    const { page } = ui;
    await nav(page, 'Settings').click();
    await page.getByRole('tab', { name: 'Retention' }).waitFor();
    await page.getByRole('definition').first().waitFor();
    await page.getByRole('tab', { name: 'Global secrets' }).click();
    await page.getByText('No global secrets.').waitFor();
    await page.getByLabel('Secret name').fill('DEPLOY_KEY');
    await page.getByLabel('Secret value').fill('global-value-never-shown');
    await page.getByRole('button', { name: 'Save secret' }).click();
    const table = page.getByRole('table', { name: 'Global secrets' });
    await table.getByText('DEPLOY_KEY').waitFor();
    expect(await page.getByLabel('Secret value').inputValue()).toBe('');
    expect(await page.content()).not.toContain('global-value-never-shown');
    await table.getByRole('button', { name: 'Delete secret DEPLOY_KEY' }).click();
    await page.getByText('No global secrets.').waitFor();

    await page.getByRole('tab', { name: 'Service accounts' }).click();
    const form = page.getByRole('form', { name: 'Create a service account' });
    await form.getByLabel('Name').fill('deploy-bot');
    await form.getByLabel('Role').selectOption('maintainer');
    await form.getByRole('button', { name: 'Create service account' }).click();
    const accounts = page.getByRole('table', { name: 'Service accounts' });
    const bot = accounts.getByRole('row').filter({ hasText: 'deploy-bot' });
    await bot.getByText('maintainer').waitFor();
    await bot.getByRole('button', { name: 'New token' }).click();
    const once = page.getByRole('status').filter({ hasText: 'Token for deploy-bot (shown once)' });
    expect((await once.locator('code').textContent())?.length).toBeGreaterThan(20);
  });

  it('chooses an S3-compatible bucket for storage (applied at restart, secret write-only) and resets it', async () => {
    const { page } = ui;
    await nav(page, 'Settings').click();
    await page.getByRole('tab', { name: 'Storage' }).click();
    const storage = page.getByLabel('Artifact storage');
    await storage.getByText('default', { exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'Change storage' });
    await form.getByRole('combobox', { name: /^Backend/ }).selectOption('s3');
    await form.getByLabel('Bucket', { exact: true }).fill('ci-artifacts');
    await form.getByLabel('Endpoint (empty for AWS)').fill('http://127.0.0.1:9000');
    await form.getByLabel('Region', { exact: true }).fill('eu-west-1');
    await form.getByLabel('Access key id').fill('ui-access-key');
    await form.getByLabel('Secret access key').fill('ui-secret-never-shown');
    await form.getByLabel(/Path-style addressing/).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'restart required' }).waitFor();
    await storage.getByText('ci-artifacts (http://127.0.0.1:9000)').waitFor();
    await storage.getByText('stored', { exact: true }).waitFor();
    expect(await form.getByLabel('Secret access key').inputValue()).toBe('');
    expect(await form.getByLabel('Secret access key').getAttribute('placeholder')).toBe(
      'stored; leave empty to keep',
    );
    expect(await page.content()).not.toContain('ui-secret-never-shown');
    await shot(page, 'settings-storage-s3.png');
    const stored = await admin.get('/api/v1/admin/storage');
    expect(stored.body).toMatchObject({
      backend: 's3',
      source: 'stored',
      restart_required: true,
      s3: {
        bucket: 'ci-artifacts',
        region: 'eu-west-1',
        force_path_style: true,
        access_key_id: 'ui-access-key',
        secret_access_key_set: true,
      },
    });

    await form.getByRole('button', { name: 'Reset to the configured default' }).click();
    await storage.getByText('default', { exact: true }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'restart required' }).count()).toBe(0);
    expect((await admin.get('/api/v1/admin/storage')).body).toMatchObject({
      backend: 'local',
      source: 'default',
    });
  });

  it('adds an OpenID Connect provider with a write-only secret and deletes it', async () => {
    const { page } = ui;
    await nav(page, 'Settings').click();
    await page.getByRole('tab', { name: 'Identity providers' }).click();
    await page.getByText('No identity providers.').waitFor();
    const form = page.getByRole('form', { name: 'Add an identity provider' });
    await form.getByLabel('Name (in the callback URL)').fill('corp-sso');
    await form.getByLabel('Button text').fill('Corporate SSO');
    await form.getByLabel('Issuer URL').fill('http://example.com/realm');
    await form.getByLabel('Client id').fill('ci-portal');
    await form.getByLabel('Client secret').fill('idp-secret-never-shown');
    await form.getByRole('button', { name: 'Add provider' }).click();
    // Plain http is refused for an issuer that is not loopback, in the server's words.
    await page.getByText('issuer must be an https URL', { exact: false }).waitFor();
    await form.getByLabel('Issuer URL').fill('https://login.example.com/realms/ci');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const table = page.getByRole('table', { name: 'Identity providers' });
    const row = table.getByRole('row').filter({ hasText: 'Corporate SSO' });
    await row.getByText('secret set').waitFor();
    expect(await page.content()).not.toContain('idp-secret-never-shown');
    const listed = await admin.get('/api/v1/admin/auth/providers');
    expect(listed.body.providers).toMatchObject([
      { name: 'corp-sso', issuer: 'https://login.example.com/realms/ci', has_client_secret: true },
    ]);
    await row.getByRole('button', { name: 'Delete provider corp-sso' }).click();
    await page.getByText('No identity providers.').waitFor();
    expect((await admin.get('/api/v1/admin/auth/providers')).body.providers).toEqual([]);
  });

  it('lists an inbound webhook delivery and opens it with its payload', async () => {
    const { page } = ui;
    const res = await fetch(`${env.base}/api/webhooks/github`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
      body: JSON.stringify({ ref: 'refs/heads/main', marker: 'ui-webhook-marker' }),
    });
    expect(res.status).toBeGreaterThanOrEqual(200);
    const listed = await admin.get('/api/v1/admin/webhooks');
    const outcome = listed.body.deliveries[0].status as string;
    await nav(page, 'Webhook deliveries').click();
    const table = page.getByRole('table', { name: 'Webhook deliveries' });
    const row = table.getByRole('row').filter({ hasText: 'push' });
    await row.getByText(outcome).waitFor();
    await page.getByLabel('Host', { exact: true }).selectOption('gitlab');
    await page.getByText('No deliveries yet.').waitFor();
    await page.getByLabel('Host', { exact: true }).selectOption('github');
    await page.getByLabel('Outcome', { exact: true }).selectOption(outcome);
    await row.getByRole('button').first().click();
    const dialog = page.getByRole('dialog', { name: 'Webhook delivery' });
    await dialog.getByTestId('webhook-payload').getByText('ui-webhook-marker', { exact: false }).waitFor();
  });
});
