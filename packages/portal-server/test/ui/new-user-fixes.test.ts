// What a new user met (issue 30 item 6), each checked in a real browser: the results filter finds values in
// a column whose first value is NULL, the first click on a header sorts ascending, Escape closes the value
// viewer, the results stay on screen at 1280×900 with an object's description, the ER diagram or the table
// browser open, a typed SQLite EXPLAIN QUERY PLAN is drawn as a node tree, an administrator's own request is
// not in "To review" and can be withdrawn by its requester, and the audit log shows datasource names.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, setSql, startUi, type UiHarness, visible } from './harness.js';

describe('portal web UI: fixes a new user met', () => {
  let ui: UiHarness;
  let page: Page;

  beforeAll(async () => {
    ui = await startUi();
    ({ page } = await ui.newPage());
    await page.setViewportSize({ width: 1280, height: 900 });
    await ui.signIn(page, ADMIN);
    await page.getByRole('button', { name: /^Sales/ }).click();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
  });
  afterAll(async () => {
    await ui?.close();
  });

  const results = () => page.getByRole('table', { name: 'Results' });
  const firstCells = () =>
    results()
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map(
          (tr) =>
            (tr as unknown as { children: ArrayLike<{ textContent: string | null }> }).children[1]
              ?.textContent ?? '',
        ),
      );

  it('filters a column whose first value is NULL', async () => {
    // SQLite sorts NULL first: the city column's first value is NULL.
    await setSql(page, 'select city, name from customers order by city');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await visible(results().getByText('Katherine Johnson'));
    await page.getByLabel('Filter rows').fill('London');
    await expect.poll(firstCells).toEqual(['London']);
    await page.getByLabel('Filter rows').fill('');
  });

  it('sorts ascending on the first click of a header, whatever the column type', async () => {
    await setSql(page, 'select n from events order by n desc limit 5');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(firstCells).toEqual(['620', '619', '618', '617', '616']);
    await results().locator('thead th').filter({ hasText: 'n' }).first().click();
    await expect.poll(firstCells).toEqual(['616', '617', '618', '619', '620']);
  });

  it('closes the value viewer with Escape', async () => {
    await results().locator('tbody tr').first().locator('td').nth(1).dblclick();
    await visible(page.getByTestId('value-viewer'));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('value-viewer').count()).toBe(0);
  });

  it('keeps the results on screen at 1280×900 with an object description open', async () => {
    const tree = page.getByRole('region', { name: 'Objects' });
    const main = await visible(tree.getByRole('button', { name: 'main', exact: true }));
    if (!(await tree.getByRole('button', { name: 'customers', exact: true }).count())) await main.click();
    await (await visible(tree.getByRole('button', { name: 'customers', exact: true }))).click();
    await visible(page.getByRole('region', { name: 'Object customers' }));
    await setSql(page, 'select n from events');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await visible(
      results()
        .getByText('620')
        .or(results().getByText('1', { exact: true })),
    );
    await ui.screenshot(page, 'layout-900');
    // At least eight result rows are inside the window without scrolling the page (before the fix: four).
    const bottoms = await results()
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map(
          (tr) =>
            (tr as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect().bottom,
        ),
      );
    expect(bottoms.filter((b) => b <= 900).length).toBeGreaterThanOrEqual(8);
  });

  it('keeps the editor and the results grid inside the window with the ER diagram or the table browser open', async () => {
    const rect = (selector: string) =>
      page.evaluate((sel) => {
        type El = { getBoundingClientRect(): { top: number; bottom: number } };
        const g = globalThis as unknown as { document: { querySelector(s: string): El | null } };
        const r = g.document.querySelector(sel)?.getBoundingClientRect();
        return r ? { top: r.top, bottom: r.bottom } : null;
      }, selector);
    await page.getByRole('button', { name: 'ER diagram of main' }).click();
    await visible(page.getByRole('region', { name: 'ER diagram main' }));
    await visible(page.getByRole('region', { name: 'Object customers' }));
    // Before the fix the diagram alone took 52% of the height and the grid started below the window.
    let grid = await rect('[data-testid="grid-scroll"]');
    expect(grid && grid.top < 900 - 100 && grid.bottom <= 900).toBe(true);
    await ui.screenshot(page, 'layout-900-er-description');
    // Browsing the table closes the diagram: the browser's grid is the one the person works in now.
    await page.getByRole('button', { name: 'Browse data' }).click();
    const browser = await visible(page.getByRole('region', { name: 'Table customers' }));
    await visible(browser.getByText('Ada Lovelace'));
    expect(await page.getByRole('region', { name: 'ER diagram main' }).count()).toBe(0);
    await ui.screenshot(page, 'layout-900-browser');
    grid = await rect('[data-testid="grid-scroll"]');
    expect(grid && grid.top < 900 - 100 && grid.bottom <= 900).toBe(true);
    // The table browser keeps its rows inside its own card: nothing lies over the query tabs below it.
    const card = await rect('section[aria-label="Table customers"]');
    const query = await rect('section[aria-label="Query"]');
    expect(card && query && card.bottom <= query.top).toBe(true);
    await browser.getByRole('button', { name: 'Close table' }).click();
  });

  it('draws a typed SQLite EXPLAIN QUERY PLAN as a node tree', async () => {
    await setSql(
      page,
      'explain query plan select c.name, (select count(*) from orders o2 where o2.customer_id = c.id) as n from customers c',
    );
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const plan = await visible(page.getByRole('list', { name: 'Plan' }));
    await visible(plan.getByTestId('plan-node').filter({ hasText: /^SCAN\s*c/ }));
    // The correlated subquery's scan is a child node (EXPLAIN QUERY PLAN's parent column), not a text row.
    const sub = plan.locator('li').filter({ has: page.getByText('CORRELATED SCALAR SUBQUERY') });
    await visible(sub.locator('ul [data-testid="plan-node"]').filter({ hasText: /SCAN|SEARCH/ }));
    await page.getByRole('button', { name: 'Show raw rows' }).click();
    await visible(page.getByRole('table', { name: 'Plan rows' }).getByRole('cell', { name: /^SCAN c/ }));
    await ui.screenshot(page, 'typed-sqlite-plan');
  });

  it("leaves an administrator's own request out of To review, lets them withdraw it, and names datasources in the audit log", async () => {
    await page.getByRole('button', { name: /^Ledger/ }).click();
    await visible(page.getByRole('heading', { name: 'Ledger', level: 1 }));
    await setSql(page, "insert into entries (note) values ('by the admin')");
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const notice = await visible(page.getByRole('alert', { name: 'Approval required' }));
    const id = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
    await page.goto('/approvals');
    await visible(page.getByText('Nothing waits for your review.'));
    expect(await page.getByRole('article', { name: `Request ${id}` }).count()).toBe(0);
    await page.getByRole('tab', { name: 'My requests' }).click();
    const card = await visible(page.getByRole('article', { name: `Request ${id}` }));
    // The requester withdraws it.
    await card.getByRole('button', { name: 'Withdraw request' }).click();
    await visible(card.locator('.badge.status-withdrawn'));
    expect(await card.getByRole('button', { name: 'Withdraw request' }).count()).toBe(0);

    await page.goto('/admin');
    const cells = page.getByRole('table', { name: 'Audit events' }).getByTestId('audit-connection');
    await visible(cells.filter({ hasText: 'Ledger' }));
    expect(await cells.filter({ hasText: /^ledger$/ }).count()).toBe(0);
    await visible(page.getByRole('table', { name: 'Audit events' }).getByText('approval_withdrawn'));
  });
});
