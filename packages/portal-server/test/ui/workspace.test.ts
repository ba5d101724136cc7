// The workspace in a real browser, signed in as the `user` account: sign-in with a wrong then the right
// password, the managed datasource's object tree and a table's description, a query and its rows, the
// engine's message for a syntax error, a CSV export download, no admin link for a user, and sign-out.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellTexts, setSql, startUi, type UiHarness, USER, visible } from './harness.js';

describe('portal web UI: workspace', () => {
  let ui: UiHarness;
  let page: Page;

  beforeAll(async () => {
    ui = await startUi();
    ({ page } = await ui.newPage());
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('sends an anonymous visitor to /login, refuses a wrong password, then signs in', async () => {
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visible(page.getByRole('alert').filter({ hasText: 'Invalid email or password' }));
    expect(new URL(page.url()).pathname).toBe('/login');
    await ui.screenshot(page, 'login-error');

    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visible(page.getByTestId('username').filter({ hasText: USER.email }));
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('shows no admin link to a user, and /admin sends a user back to the workspace', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await visible(nav.getByRole('link', { name: 'Workspace' }));
    await visible(nav.getByRole('link', { name: 'Approvals' }));
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    await page.goto('/admin');
    await page.waitForURL((url) => url.pathname === '/');
    await visible(page.getByTestId('username'));
  });

  it('browses the managed datasource: tree, a table description, then its rows', async () => {
    await page.getByRole('button', { name: /^Sales/ }).click();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
    const tree = page.getByRole('region', { name: 'Objects' });
    const schema = tree.getByRole('button', { name: 'main', exact: true });
    await visible(schema);
    await schema.click();
    await tree.getByRole('button', { name: 'customers', exact: true }).click();

    const detail = page.getByRole('region', { name: 'Object customers' });
    const columns = detail.getByRole('table', { name: 'Columns' });
    await visible(columns.getByRole('cell', { name: 'city', exact: true }));
    expect(await cellTexts(columns.locator('tbody tr'))).toEqual([
      ['id', 'INTEGER', 'yes', 'PK', ''],
      ['name', 'TEXT', 'no', '', ''],
      ['city', 'TEXT', 'yes', '', ''],
    ]);
    await visible(
      detail.getByRole('table', { name: 'Indexes' }).getByRole('cell', { name: 'customers_city' }),
    );

    // The orders table's foreign key is part of its description.
    await tree.getByRole('button', { name: 'orders', exact: true }).click();
    const fks = page
      .getByRole('region', { name: 'Object orders' })
      .getByRole('table', { name: 'Foreign keys' });
    await visible(fks.getByRole('cell', { name: 'main.customers(id)' }));

    await setSql(page, 'select * from customers order by id');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const grid = page.getByRole('table', { name: 'Results' });
    await visible(grid.getByRole('cell', { name: 'Grace Hopper' }));
    expect(await cellTexts(grid.locator('thead tr'))).toEqual([['#', 'id', 'name', 'city']]);
    expect(await cellTexts(grid.locator('tbody tr'))).toEqual([
      ['1', '1', 'Ada Lovelace', 'London'],
      ['2', '2', 'Grace Hopper', 'New York'],
      ['3', '3', 'Katherine Johnson', 'NULL'],
    ]);
    await visible(page.getByTestId('row-count').filter({ hasText: '3' }));
    await ui.screenshot(page, 'workspace');
  });

  it('explains the statement as a plan tree (SQLite offers estimate only)', async () => {
    const modes = page.getByLabel('Explain mode').locator('option');
    expect(await modes.allTextContents()).toEqual(['estimate']);
    await page.getByRole('button', { name: 'Explain' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'Plan (estimate, sqlite-query-plan)' }));
    const plan = await visible(page.getByRole('list', { name: 'Plan' }));
    expect(await plan.getByTestId('plan-node').first().textContent()).toMatch(/SCAN|SEARCH/);
    await page.getByRole('button', { name: 'Show raw rows' }).click();
    await visible(page.getByRole('table', { name: 'Plan rows' }).getByRole('cell', { name: /SCAN|SEARCH/ }));
    await ui.screenshot(page, 'plan');
  });

  it('pages a long result with "Load more" (options.offset)', async () => {
    await setSql(page, 'select n from events order by n');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await visible(page.getByTestId('row-count').filter({ hasText: /^500$/ }));
    await page.getByRole('button', { name: 'Load more' }).click();
    await visible(page.getByTestId('row-count').filter({ hasText: /^620$/ }));
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    // The grid is virtual: scrolled to the end, its last row is the 620th.
    await page.getByTestId('grid-scroll').evaluate((el) => {
      (el as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = (
        el as unknown as { scrollHeight: number }
      ).scrollHeight;
    });
    const grid = page.getByRole('table', { name: 'Results' });
    await visible(grid.locator('tbody tr').filter({ hasText: /^620620$/ }));
  });

  it('runs with Ctrl+Enter and shows the engine message of an error', async () => {
    // A statement the classifier reads (a typo it cannot parse is held as unverifiable, not run): the engine
    // itself refuses it, and its words reach the page.
    await setSql(page, 'select nosuch from customers');
    await page.keyboard.press('Control+Enter');
    const alert = await visible(
      page.getByRole('alert').filter({ hasText: 'The database reported an error' }),
    );
    expect(await alert.textContent()).toMatch(/QUERY_ERROR/);
    expect(await alert.textContent()).toMatch(/no such column: nosuch/);
    await ui.screenshot(page, 'query-error');
  });

  it('exports the statement as CSV through a download', async () => {
    await setSql(page, 'select id, name, city from customers order by id');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('customers.csv');
    const path = await download.path();
    expect(readFileSync(path, 'utf8')).toBe(
      'id,name,city\r\n1,Ada Lovelace,London\r\n2,Grace Hopper,New York\r\n3,Katherine Johnson,\r\n',
    );
    await visible(page.getByRole('status').filter({ hasText: 'Downloaded customers.csv (3 rows)' }));
  });

  it('adds an own connection (tested, saved on the server), queries it, keeps it over a reload, deletes it', async () => {
    await page.getByRole('button', { name: '+ New' }).click();
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Name').fill('Notes');
    // Engines are offered by the names people know them by (provider-meta `label`), valued by id.
    const mssql = form.getByLabel('Engine').locator('option[value="mssql"]');
    await expect.poll(() => mssql.textContent()).toBe('SQL Server');
    await form.getByLabel('Engine').selectOption('sqlite');
    await form.getByLabel('Database file').fill('notes.db');
    await form.getByLabel('Environment').selectOption('development');
    // The file does not exist yet: testing says so and creates nothing (the first statement creates it).
    await form.getByRole('button', { name: 'Test connection' }).click();
    await visible(form.getByRole('status').filter({ hasText: /does not exist/ }));
    await ui.screenshot(page, 'connection-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('heading', { name: 'Notes', level: 1 }));

    const run = page.getByRole('button', { name: 'Run', exact: true });
    await setSql(page, 'create table notes (id integer primary key, body text)');
    await run.click();
    await visible(page.getByRole('status').filter({ hasText: 'Statement executed' }));
    await setSql(page, "insert into notes (body) values ('hello'), ('world')");
    await run.click();
    await visible(page.getByRole('status').filter({ hasText: /2 rows affected/ }));

    // Saved on the server (STORAGE_PROVIDER=sqlite): still there, and still chosen, after a reload.
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Notes', level: 1 }));
    await setSql(page, 'select body from notes order by id');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const grid = page.getByRole('table', { name: 'Results' });
    await visible(grid.getByRole('cell', { name: 'world' }));
    expect(await cellTexts(grid.locator('tbody tr'))).toEqual([
      ['1', 'hello'],
      ['2', 'world'],
    ]);

    await page.getByRole('button', { name: 'Delete Notes' }).click();
    await page.getByRole('button', { name: 'Confirm delete Notes' }).click();
    await visible(page.getByRole('heading', { name: 'Pick a connection' }));
    expect(await page.getByRole('button', { name: /^Notes/ }).count()).toBe(0);
  });

  it('signs out to /login, and the workspace is closed afterwards', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/login');
    await visible(page.getByRole('button', { name: 'Sign in', exact: true }));
    await page.goto('/');
    await page.waitForURL('**/login');
  });
});
