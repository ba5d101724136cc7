// The IDE in a real browser (Chromium, 1280x720): completion of a table name from the object surface, a
// script run as per-statement results, 100,000 rows fetched and scrolled to the end with the DOM staying
// small, NULL versus empty, the JSON value viewer, copy as CSV, a chart of a result, the ER diagram with a
// click that describes a table, tabs that survive a reload, history, the dark theme, the shortcuts dialog,
// and the layout at 1920x1080.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cellTexts,
  editorText,
  fitsWidth,
  setSql,
  startUi,
  type UiHarness,
  USER,
  visible,
} from './harness.js';

// The root tsconfig has no DOM library: what page.evaluate reads in the browser is described here.
type BrowserGlobals = {
  navigator: { clipboard: { readText(): Promise<string> } };
  document: { documentElement: { dataset: Record<string, string | undefined> } };
};

/**
 * How long fetching 100,000 rows may take on a loaded machine, and the limit of the test that waits for it:
 * the wait plus the rest of the test's steps, so the wait ends (with its own message) before the test does.
 */
const FETCH_ALL_MS = 60_000;
const FETCH_ALL_TEST_MS = FETCH_ALL_MS + 45_000;

const HUNDRED_K =
  "with recursive seq(n) as (select 1 union all select n + 1 from seq where n < 100000) select n, 'row ' || n as label from seq";

describe('portal web UI: the IDE', () => {
  let ui: UiHarness;
  let page: Page;

  beforeAll(async () => {
    ui = await startUi();
    const opened = await ui.newPage();
    page = opened.page;
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.baseUrl });
    await ui.signIn(page, USER);
    await page.getByRole('button', { name: /^Sales/ }).click();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
  });
  afterAll(async () => {
    await ui?.close();
  });

  const run = () => page.getByRole('button', { name: 'Run', exact: true }).click();
  const grid = () => page.getByRole('table', { name: 'Results' });

  it('completes a table name from the object surface', async () => {
    await setSql(page, 'select * from cust');
    await page.keyboard.press('Control+Space');
    const option = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: 'customers' });
    await visible(option);
    await ui.screenshot(page, 'ide-completion');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toBe('select * from customers');
    await page.keyboard.press('Control+Enter');
    await visible(page.getByTestId('row-count').filter({ hasText: /^3$/ }));
  });

  it('runs a script with per-statement results, and an error in words', async () => {
    await setSql(
      page,
      "select count(*) as n from customers;\nupdate customers set city = 'Paris' where id = 999;\nselect nope from customers;\nselect 1",
    );
    await page.getByRole('button', { name: 'Run script' }).click();
    const status = await visible(page.getByRole('status').filter({ hasText: 'Script:' }));
    expect(await status.textContent()).toMatch(/2 of 4 statements ran; statement 3 failed; 1 not run/);
    const tabs = page.getByRole('tablist', { name: 'Statement results' }).getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['✓ 1: 1 rows', '✓ 2: 0 affected', '✕ 3: failed']);
    // The failed statement is shown first, with the engine's message and what to do.
    await visible(page.getByRole('alert').filter({ hasText: 'no such column: nope' }));
    await tabs.first().click();
    expect(await cellTexts(grid().locator('tbody tr'))).toEqual([['1', '3']]);
    await ui.screenshot(page, 'ide-script');
  });

  it(
    'fetches 100,000 rows and scrolls to the end with only the visible rows in the DOM',
    async () => {
      await setSql(page, HUNDRED_K);
      await run();
      await visible(page.getByTestId('row-count').filter({ hasText: /^500$/ }));
      await page.getByRole('button', { name: 'Fetch all' }).click();
      await visible(page.getByTestId('row-count').filter({ hasText: /^100000$/ }), FETCH_ALL_MS);
      const domRows = () => grid().locator('tbody tr').count();
      expect(await domRows()).toBeLessThan(80);
      const scroller = page.getByTestId('grid-scroll');
      // At 1280×720 the grid takes the height the editor and toolbars leave: it lies wholly in the window and
      // the main area has nothing to scroll (its rows are reached in the grid, not below a page scroll).
      expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
      const box = await scroller.boundingBox();
      expect(box?.height).toBeGreaterThan(140);
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(720);
      const main = await page
        .locator('.main-area')
        .evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
      expect(main.scroll).toBeLessThanOrEqual(main.client + 1);
      for (const fraction of [0.25, 0.5, 0.75, 1]) {
        await scroller.evaluate((el, f) => {
          const e = el as unknown as { scrollTop: number; scrollHeight: number };
          e.scrollTop = e.scrollHeight * f;
        }, fraction);
      }
      await visible(
        grid()
          .locator('tbody tr')
          .filter({ hasText: /^100000100000row 100000$/ }),
      );
      expect(await domRows()).toBeLessThan(80);
      await ui.screenshot(page, 'ide-100k-rows-end');

      // Sorting and filtering work on the loaded rows.
      await page.getByLabel('Filter rows').fill('row 99999');
      await visible(page.getByTestId('filtered-count').filter({ hasText: '1 of 100000' }));
      await page.getByLabel('Filter rows').fill('');
    },
    FETCH_ALL_TEST_MS,
  );

  it('tells NULL from an empty string, opens JSON in the viewer, copies rows as CSV', async () => {
    await setSql(page, `select null as a, '' as b, json_object('k', 1, 'list', json_array(1, 2)) as doc`);
    await run();
    const row = grid().locator('tbody tr').first();
    await visible(row);
    expect(await row.locator('td.null').textContent()).toBe('NULL');
    expect(await row.locator('td.empty').textContent()).toBe('');
    await row.locator('td').last().dblclick();
    const viewer = await visible(page.getByRole('dialog', { name: 'Value of doc' }));
    expect(JSON.parse((await viewer.getByTestId('value-viewer').textContent()) ?? '')).toEqual({
      k: 1,
      list: [1, 2],
    });
    await viewer.getByRole('button', { name: 'Close viewer' }).click();

    await page.getByRole('button', { name: 'Copy CSV' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'Copied 1 row as CSV' }));
    const copied = await page.evaluate(() =>
      (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText(),
    );
    expect(copied).toBe('a,b,doc\r\n,,"{""k"":1,""list"":[1,2]}"');
  });

  it('shows masked values as masked, with the policy badge', async () => {
    await page.getByRole('button', { name: /^Ledger/ }).click();
    await visible(page.getByRole('heading', { name: 'Ledger', level: 1 }));
    await visible(page.getByRole('list', { name: 'Datasource policy' }).getByText('1 masked column'));
    await setSql(page, 'select id, note from entries');
    await run();
    const cell = await visible(grid().locator('tbody tr').first().locator('td.masked'));
    expect(await cell.textContent()).toBe('****');
    expect(await cell.getAttribute('title')).toBe('masked by policy');
    await ui.screenshot(page, 'ide-masked');
    await page.getByRole('button', { name: /^Sales/ }).click();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
  });

  it('charts a result and pivots it by a column', async () => {
    await setSql(page, 'select c.name, o.amount from orders o join customers c on c.id = o.customer_id');
    await run();
    await visible(grid().locator('tbody tr').first());
    await page.getByRole('tab', { name: 'Chart & pivot' }).click();
    await visible(page.getByRole('img', { name: 'bar chart' }));
    const pivot = page.getByRole('table', { name: 'Pivot' });
    expect(await cellTexts(pivot.locator('tbody tr'))).toEqual([
      ['Ada Lovelace', '12.5'],
      ['Grace Hopper', '99'],
    ]);
    await page.getByLabel('Chart', { exact: true }).selectOption('pie');
    await visible(page.getByRole('img', { name: 'pie chart' }));
    await ui.screenshot(page, 'ide-chart');
  });

  it('draws the ER diagram from foreign keys and describes a clicked table', async () => {
    await page.getByRole('button', { name: 'ER diagram of main' }).click();
    const er = await visible(page.getByRole('region', { name: 'ER diagram main' }));
    await visible(er.getByTestId('er-summary').filter({ hasText: '3 tables · 1 foreign keys' }));
    expect(await er.getByTestId('er-table').count()).toBe(3);
    await visible(er.locator('.react-flow__edge'));
    // The minimap draws one box per table (it stayed empty while nodes carried no size).
    await expect.poll(() => er.locator('.react-flow__minimap-node').count(), { timeout: 15_000 }).toBe(3);
    // Zoom in with the controls: the viewport's scale changes.
    const viewport = er.locator('.react-flow__viewport');
    const scale = async () => {
      const t = (await viewport.getAttribute('style')) ?? '';
      return Number(/scale\(([\d.]+)\)/.exec(t)?.[1] ?? 'NaN');
    };
    const before = await scale();
    expect(before).toBeGreaterThan(0);
    await er.getByRole('button', { name: 'Zoom Out' }).click();
    await expect.poll(scale, { timeout: 15_000 }).toBeLessThan(before);
    const out = await scale();
    await er.getByRole('button', { name: 'Zoom In' }).click();
    await expect.poll(scale, { timeout: 15_000 }).toBeGreaterThan(out);
    await ui.screenshot(page, 'ide-er-diagram');
    await er.getByTestId('er-table').filter({ hasText: 'orders' }).click();
    await visible(
      page.getByRole('region', { name: 'Object orders' }).getByRole('table', { name: 'Foreign keys' }),
    );
    await er.getByRole('button', { name: 'Close diagram' }).click();
  });

  it('keeps tabs over a reload, and lists runs in the searchable history', async () => {
    await page.getByRole('button', { name: 'New tab' }).click();
    await setSql(page, 'select name from customers where id = 2');
    const titles = () =>
      page.getByRole('tablist', { name: 'Editor tabs' }).getByRole('tab').allTextContents();
    expect(await titles()).toEqual(['Query 1', 'Query 2']);
    await page.reload();
    await visible(page.getByRole('heading', { name: 'Sales', level: 1 }));
    await expect
      .poll(() => editorText(page), { timeout: 15_000 })
      .toBe('select name from customers where id = 2');
    expect(await titles()).toEqual(['Query 1', 'Query 2']);
    await page.getByRole('tab', { name: 'Query 1' }).click();
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toContain('o.amount from orders');

    await page.getByRole('button', { name: 'History' }).click();
    const drawer = await visible(page.getByRole('complementary', { name: 'History and saved queries' }));
    await drawer.getByLabel('Search history').fill('count customers');
    const items = drawer.locator('.history-item');
    await visible(items.first());
    expect(await items.count()).toBe(1);
    expect(await items.first().textContent()).toContain('select count(*) as n from customers');
    await items.first().click();
    expect(await titles()).toEqual(['Query 1', 'Query 2', 'Query 3']);
    await ui.screenshot(page, 'ide-history');
  });

  it('switches to the dark theme, lists shortcuts, and fits 1920x1080', async () => {
    await page.getByRole('button', { name: 'Use dark theme' }).click();
    expect(
      await page.evaluate(
        () => (globalThis as unknown as BrowserGlobals).document.documentElement.dataset.theme,
      ),
    ).toBe('dark');
    await setSql(page, 'select * from customers order by id');
    await run();
    await visible(grid().getByRole('cell', { name: 'Grace Hopper' }));
    await ui.screenshot(page, 'ide-dark-1280x720');
    await page.locator('body').click({ position: { x: 5, y: 700 } });
    await page.keyboard.press('?');
    await visible(page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Run the whole script'));
    await visible(page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Go to approvals'));
    await visible(
      page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByText('Move between objects and folders'),
    );
    await page.keyboard.press('Escape');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    // The same list from the top bar, and the navigation keys (g a: approvals, g w: workspace).
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await visible(page.getByRole('dialog', { name: 'Keyboard shortcuts' }));
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.waitForURL('**/approvals');
    await page.keyboard.press('g');
    await page.keyboard.press('w');
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('button', { name: 'Use light theme' }).click();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await visible(grid().getByRole('cell', { name: 'Grace Hopper' }));
    // Nothing overflows the window sideways.
    expect(await fitsWidth(page)).toBe(true);
    await ui.screenshot(page, 'ide-light-1920x1080');
  });
});
