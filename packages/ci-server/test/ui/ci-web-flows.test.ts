import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishJob, jobsOf, startJob } from '../core/agent-sim.js';
import {
  ADMIN_PASSWORD,
  adminPage,
  apiSession,
  BUNDLE,
  fillEditor,
  nav,
  shot,
  shotOnFailure,
  startUi,
  type UiEnv,
  type UiPage,
} from './harness.js';

// 50,000 lines: ten times the 5,000-line window the viewer used to keep, so the far-up search hit, the
// folded section and the line link below all fail without the whole log in memory, and 250 times the
// ~200 rows the DOM may hold. 200,000 lines took the page ~45 s to receive twice (live, then after the
// reload) on the CI machine without asserting anything more.
const LINES = 50_000;

let env: UiEnv;
let admin: Awaited<ReturnType<typeof apiSession>>;
let ui: UiPage;

beforeAll(async () => {
  env = await startUi();
  admin = await apiSession(env, 'admin', ADMIN_PASSWORD);
  ui = await adminPage(env);
});

afterAll(async () => {
  expect(ui?.problems ?? []).toEqual([]);
  await env?.close();
});

shotOnFailure(() => ui);

async function pipelineIds(): Promise<Record<string, string>> {
  const project = await admin.get('/api/v1/projects/webshop');
  return Object.fromEntries(project.body.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
}

async function trigger(pipeline: string): Promise<string> {
  const res = await admin.post(`/api/v1/pipelines/${(await pipelineIds())[pipeline]}/trigger`);
  expect(res.status).toBe(201);
  return res.body.run_id;
}

async function jobId(runId: string, name: string, attempt = 1): Promise<string> {
  const job = (await jobsOf(env.server, runId)).find((j) => j.name === name && j.attempt === attempt);
  if (!job) throw new Error(`no job ${name} (attempt ${attempt}) in run ${runId}`);
  return job.id;
}

/** Line i of the big log: ANSI colours, a section every 10,000 lines, every 50th line on stderr. */
function bigLine(i: number): { seq: number; stream: string; atMs: number; text: string } {
  let text = `step ${i}: \u001b[32mok\u001b[0m compiled module-${i % 977}`;
  if (i % 10_000 === 1) text = `::group::Chunk ${Math.floor(i / 10_000) + 1}`;
  else if (i % 10_000 === 0) text = '::endgroup::';
  else if (i === 23_457) text = 'the \u001b[1;31mneedle\u001b[0m line';
  return { seq: i, stream: i % 50 === 0 ? 'stderr' : 'stdout', atMs: Date.UTC(2026, 0, 1) + i, text };
}

describe('the CI web UI', () => {
  it('applies a bundle in the editor after previewing what changes, then triggers a run', async () => {
    const { page } = ui;
    await nav(page, 'Apply bundle').click();
    await fillEditor(page, BUNDLE);
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const preview = page.getByRole('dialog', { name: 'What apply will change' });
    await preview.getByText('new project').waitFor();
    expect((await preview.textContent())?.match(/added/g)?.length).toBe(2);
    await shot(page, 'apply-preview.png');
    await preview.getByRole('button', { name: 'Apply these changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Applied 2 pipelines to webshop' }).waitFor();

    // Previewing again: nothing changes; a changed job shows as a diff.
    await fillEditor(page, BUNDLE.replace('echo compiling', 'echo compiling fast'));
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await preview.getByText('1 change').waitFor();
    expect((await preview.locator('.diff-add').allTextContents()).join('\n')).toContain(
      'echo compiling fast',
    );
    expect((await preview.locator('.diff-del').allTextContents()).join('\n')).toContain('echo compiling');
    await preview.getByRole('button', { name: 'Close' }).first().click();

    await page.getByRole('link', { name: 'webshop' }).click();
    await page.getByRole('heading', { name: 'Web Shop' }).waitFor();
    await page.getByRole('button', { name: 'Trigger build' }).click();
    const dialog = page.getByRole('dialog', { name: 'Trigger build' });
    await dialog.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: /build #1/ }).waitFor();
    await page.getByTestId('graph-node-compile').waitFor();
    await page.getByTestId('graph-node-unit').getByText('NODE=22').waitFor();
    await shot(page, 'run-graph.png');
  });

  it('follows a live log of 50,000 lines, searches it, folds its sections and links to a line', async () => {
    const { page } = ui;
    const runId = await trigger('build');
    const compile = await jobId(runId, 'compile');
    await startJob(env.server, compile, 'agent-ui');
    await page.goto(`/runs/${runId}`);
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor();
    // The lines arrive while the page is open, in agent-sized batches.
    for (let from = 1; from <= LINES; from += 5000)
      await env.server.execution.logs.appendLogBatch(
        compile,
        Array.from({ length: Math.min(5000, LINES - from + 1) }, (_, i) => bigLine(from + i)),
      );
    const tab = page.getByRole('tab', { name: /compile/ });
    await tab.getByText('50,000', { exact: true }).waitFor({ timeout: 200_000 });
    const log = page.getByRole('log');
    // Following: the tail is on screen, and only a screenful of rows is in the page.
    await log.getByText('step 49999:').waitFor();
    const rows = await log.locator('.log-line').count();
    expect(rows).toBeGreaterThan(10);
    expect(rows).toBeLessThan(200);
    // Colours are rendered, not shown as escape text.
    expect(await log.textContent()).not.toContain('\u001b');
    expect(await log.locator('.ansi-green-fg').first().textContent()).toBe('ok');
    expect(await log.locator('.stderr').count()).toBeGreaterThan(0);
    await shot(page, 'log-50k-tail.png');

    // Search: one hit, far up; next scrolls it into view and stops following.
    await page.getByLabel('Search the log').fill('needle');
    await page.getByText('0 of 1').waitFor();
    await page.getByRole('button', { name: 'Next match' }).click();
    await page.getByText('1 of 1').waitFor();
    const hit = log.locator('.log-hit');
    await hit.waitFor();
    expect(await hit.textContent()).toBe('23457the needle line');
    expect(await hit.locator('mark').textContent()).toBe('needle');
    await page.getByRole('button', { name: 'Follow' }).waitFor();
    await shot(page, 'log-search.png');

    // Sections fold: found by search, the chunk holding the hit collapses to its header.
    await page.getByLabel('Search the log').fill('chunk 3');
    await page.getByRole('button', { name: 'Next match' }).click();
    const header = log.getByRole('button', { name: /Chunk 3/ });
    await header.click();
    await log.getByRole('button', { name: /Chunk 3 \(9998 lines\)/ }).waitFor();
    expect(await log.getByText('step 20002:').count()).toBe(0);
    await shot(page, 'log-section-folded.png');

    // A line link: clicking a line number puts it in the address; opening it shows that line.
    await page.getByLabel('Search the log').fill('');
    await log.getByRole('link', { name: '30001' }).waitFor();
    await log.getByRole('link', { name: '30005' }).click();
    await page.waitForURL(new RegExp(`/runs/${runId}\\?job=${compile}#L30005$`));
    await page.reload();
    const target = page.getByRole('log').locator('.log-target');
    await target.waitFor({ timeout: 200_000 });
    expect(await target.textContent()).toContain('step 30005:');

    // Following again jumps back to the tail; timestamps can be shown.
    await page.getByRole('button', { name: 'Follow' }).click();
    await page.getByRole('log').getByText('step 49999:').waitFor();
    await page.getByLabel('Timestamps').check();
    await page.getByRole('log').getByText('00:00:49.999').waitFor();
    await finishJob(env.server, compile, 'success');
  }, 420_000);

  it('approves a gate that shows its description, approvals and who approved with what comment', async () => {
    const { page } = ui;
    const runId = await trigger('deploy');
    await page.goto(`/runs/${runId}`);
    const gate = page.getByLabel('Gate approve');
    await gate.getByText('Ship it?').waitFor();
    expect((await gate.textContent())?.replace(/\s+/g, ' ')).toContain('0 of 1 approval received');
    const controls = page.getByLabel('Approval for approve');
    await controls.getByLabel('Comment').fill('ship it, tests are green');
    await shot(page, 'gate-waiting.png');
    await controls.getByRole('button', { name: 'Approve' }).click();
    const decisions = page.getByRole('list', { name: 'Decisions on approve' });
    await decisions.getByText('ship it, tests are green').waitFor();
    expect(await decisions.textContent()).toContain('Approved by admin');
    expect((await gate.textContent())?.replace(/\s+/g, ' ')).toContain('1 of 1 approval received');
    await shot(page, 'gate-approved.png');
  });

  it('re-runs only the failed jobs of a failed run', async () => {
    const { page } = ui;
    const runId = await trigger('build');
    const compile = await jobId(runId, 'compile');
    await startJob(env.server, compile);
    await finishJob(env.server, compile, 'failed', 2);
    await page.goto(`/runs/${runId}`);
    await page.getByRole('heading', { name: /build #\d+ failed/ }).waitFor();
    const button = page.getByRole('button', { name: 'Re-run failed jobs (1)' });
    await button.waitFor();
    await shot(page, 'run-failed.png');
    await button.click();
    await page.getByRole('heading', { name: /build #\d+ (queued|running)/ }).waitFor();
    await page.getByRole('tab', { name: /compile \(attempt 2\)/ }).waitFor({ state: 'attached' });
    const again = await jobId(runId, 'compile', 2);
    expect((await jobsOf(env.server, runId)).find((j) => j.id === again)?.status).toBe('queued');
    // Only the failed job was re-queued: the unit jobs of the next stage wait for it.
    await startJob(env.server, again);
    await finishJob(env.server, again, 'success');
    await page.getByTestId('graph-node-compile').locator('.dot-success').waitFor();
  });

  it('reads a test report: failures first, durations, history with a flaky test marked', async () => {
    const { page } = ui;
    const store = async (runId: string, failing: boolean) => {
      const compile = await jobId(runId, 'compile');
      await startJob(env.server, compile);
      await env.server.execution.reports.storeTestReport({
        jobRunId: compile,
        cases: [
          { suite: 'cart', classname: 'cart.Cart', name: 'adds items', status: 'passed', durationS: 1.5 },
          {
            suite: 'cart',
            classname: 'cart.Cart',
            name: 'applies discounts',
            status: failing ? 'failed' : 'passed',
            durationS: 0.25,
            message: failing
              ? 'expected 90 but got 100\nAssertionError: expected 90 but got 100\n    at applyDiscount (cart.js:57)'
              : undefined,
          },
          { suite: 'cart', classname: 'cart.Cart', name: 'is stable', status: 'passed', durationS: 0.01 },
        ],
      });
      await finishJob(env.server, compile, failing ? 'failed' : 'success');
    };
    await store(await trigger('build'), false);
    const latest = await trigger('build');
    await store(latest, true);
    await page.goto(`/runs/${latest}`);
    const failing = page.getByRole('table', { name: 'Failing tests' });
    await failing.getByText('expected 90 but got 100', { exact: true }).waitFor();
    // The stack trace is there, folded: opening it shows the frames.
    await failing.getByText('Stack trace').click();
    await failing.getByText('at applyDiscount (cart.js:57)').waitFor();
    const flaky = failing.getByRole('row').filter({ hasText: 'applies discounts' });
    await flaky.getByText('flaky').waitFor();
    const totals = page.getByRole('list', { name: 'Test totals' });
    expect((await totals.textContent())?.replace(/\s+/g, ' ')).toContain('1 flaky');
    const others = page.getByRole('table', { name: 'Other tests' });
    await page.getByText('2 other tests, slowest first').click();
    const names = await others.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(names).toEqual(['cart.Cart.adds items', 'cart.Cart.is stable']);
    expect(await others.textContent()).toContain('2s');
    expect(await others.textContent()).toContain('10 ms');
    await page.getByRole('heading', { name: 'Tests' }).scrollIntoViewIfNeeded();
    await shot(page, 'test-report.png');
  });

  it('switches to the dark theme and lists the keyboard shortcuts', async () => {
    const { page } = ui;
    await page.goto('/runs');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Go to runs').waitFor();
    await shot(page, 'shortcuts-dark.png');
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('p');
    await page.waitForURL(/\/projects$/);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });
});
