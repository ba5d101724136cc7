// The AI features in a real browser (system Chromium), against the scripted model: the editor's AI explain
// button shows the model's text with the server's verdict, and the agent panel streams a run (its statement,
// its rows, a refused DELETE, the answer), hands the answer statement over and puts it in the editor.
// Without a model the panel says AI is not configured.
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastToolResult, type ScriptedModel, startScriptedModel } from '../ai/scripted-model.js';
import { editorText, setSql, startUi, type UiHarness, USER, visible } from './harness.js';

async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel('Password').fill(USER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await visible(page.getByTestId('username'));
}

describe('portal web UI: AI buttons and the agent panel', () => {
  let model: ScriptedModel;
  let ui: UiHarness;
  let page: Page;

  beforeAll(async () => {
    model = await startScriptedModel();
    ui = await startUi({ AI_PROVIDER: 'openai', AI_BASE_URL: model.url, AI_MODEL: 'scripted-ui' });
    ({ page } = await ui.newPage());
    await signIn(page);
    await page.getByRole('button', { name: /^Sales/ }).click();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
  });
  afterAll(async () => {
    await ui?.close();
    await model?.close();
  });

  it('explains the editor statement with the server verdict', async () => {
    await setSql(page, 'DELETE FROM orders');
    model.script.push({ text: 'This removes every order.' });
    await page.getByRole('button', { name: 'AI summary' }).click();
    const answer = page.getByRole('region', { name: 'AI assistance' });
    await visible(answer.getByText('This removes every order.'));
    await visible(answer.getByText('server verdict: write'));
  });

  it('streams an agent run, shows a refused write, hands over and opens the statement in the editor', async () => {
    model.script.push({ toolCalls: [{ name: 'run_query', args: { sql: 'DELETE FROM orders' } }] });
    model.script.push({
      toolCalls: [{ name: 'run_query', args: { sql: 'SELECT name, city FROM customers ORDER BY id' } }],
    });
    model.script.push((req) => ({
      text: `Found ${(lastToolResult(req) as { rowCount: number }).rowCount} customers.`,
    }));
    const panel = page.getByRole('complementary', { name: 'Investigation agent' });
    await panel.getByLabel('Agent objective').fill('Who are our customers?');
    await panel.getByRole('button', { name: 'Start' }).click();
    const progress = panel.getByRole('list', { name: 'Agent progress' });
    await visible(progress.getByText('agent_write_refused'));
    await visible(progress.getByRole('cell', { name: 'Grace Hopper' }));
    await visible(progress.getByText('Found 3 customers.'));
    await visible(progress.getByText('Run completed'));

    await panel.getByRole('button', { name: 'Hand over' }).click();
    const handed = panel.getByRole('region', { name: 'Handed over' });
    await visible(handed.getByRole('cell', { name: 'Katherine Johnson' }));
    await handed.getByRole('button', { name: 'Open in editor' }).click();
    await expect
      .poll(() => editorText(page), { timeout: 15_000 })
      .toBe('SELECT name, city FROM customers ORDER BY id');
    // Nothing was deleted: the refused DELETE never reached the database.
    const db = new Database(ui.files.sales, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM orders').get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
    await ui.screenshot(page, 'agent-panel');
  });
});

describe('portal web UI: AI not configured', () => {
  it('says so in the agent panel', async () => {
    const ui = await startUi();
    try {
      const { page } = await ui.newPage();
      await signIn(page);
      await page.getByRole('button', { name: /^Sales/ }).click();
      const panel = page.getByRole('complementary', { name: 'Investigation agent' });
      await visible(panel.getByText('AI is not configured'));
      // Without a model the editor offers no AI buttons.
      expect(await page.getByRole('button', { name: 'AI summary' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'AI safety' }).count()).toBe(0);
    } finally {
      await ui.close();
    }
  });
});
