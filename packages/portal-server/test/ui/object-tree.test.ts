// The object tree in a real browser (Chromium) on a managed SQLite datasource of 10,000 tables: containers
// and kind counts first, a container's objects listed only when it opens (the list request carries its
// path), a virtual list that keeps the DOM small while scrolling to the last table, a search over every
// object (the server narrows it), the editor completing a table name without listing the catalog, the
// description of a found table with its DDL, and the layout at 1280x720 and 1920x1080.
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellTexts, fitsWidth, setSql, startUi, type UiHarness, USER, visible } from './harness.js';

const TABLES = 10_000;
const name = (i: number) => `t${String(i).padStart(5, '0')}`;

describe('portal web UI: the object tree', () => {
  let ui: UiHarness;
  let page: Page;
  /** Bodies of the object-surface requests the page sent, in order. */
  const calls: Array<{ route: string; path?: string[]; search?: string; limit?: number }> = [];
  /** The tree's container listings: a path and no limit (the editor's completion asks with a limit). */
  const treeLists = () => calls.filter((c) => c.route === 'list' && c.path && c.limit === undefined);

  beforeAll(async () => {
    const file = join(tempDir('portal-ui-wide-'), 'wide.db');
    const db = new Database(file);
    const ddl = ['BEGIN;'];
    for (let i = 1; i <= TABLES; i++)
      ddl.push(`CREATE TABLE ${name(i)} (id INTEGER PRIMARY KEY, note TEXT NOT NULL DEFAULT '');`);
    ddl.push('COMMIT;');
    db.exec(ddl.join('\n'));
    db.close();
    ui = await startUi(
      {},
      {
        datasources: `  - id: wide
    name: Wide
    type: sqlite
    database: ${JSON.stringify(file)}
    environment: development
    roles: [admin, user]
`,
      },
    );
    ({ page } = await ui.newPage());
    page.on('request', (req) => {
      const m = /\/api\/db\/objects\/(\w+)$/.exec(new URL(req.url()).pathname);
      if (!m) return;
      const body = req.postDataJSON() as { path?: string[]; search?: string; limit?: number } | null;
      calls.push({
        route: m[1],
        ...(body?.path ? { path: body.path } : {}),
        ...(body?.search ? { search: body.search } : {}),
        ...(body?.limit ? { limit: body.limit } : {}),
      });
    });
    await ui.signIn(page, USER);
  });
  afterAll(async () => {
    await ui?.close();
  });

  const tree = () => page.getByRole('region', { name: 'Objects' });
  const domRows = () => tree().locator('li.tree-row').count();

  it('shows the containers with their counts, and lists a container only when it opens', async () => {
    await page.getByRole('button', { name: /^Wide/ }).click();
    await visible(page.getByRole('heading', { name: 'Wide', level: 1 }));
    const main = tree().getByRole('button', { name: 'main', exact: true });
    await visible(main);
    expect(await main.textContent()).toContain(String(TABLES));
    expect(await main.getAttribute('aria-expanded')).toBe('false');
    expect(calls.some((c) => c.route === 'counts')).toBe(true);
    expect(treeLists()).toEqual([]);

    await main.click();
    const folder = tree().getByRole('button', { name: /^Tables/ });
    await visible(folder);
    expect(await folder.textContent()).toContain(String(TABLES));
    await visible(tree().getByRole('button', { name: name(1), exact: true }));
    expect(treeLists()).toEqual([{ route: 'list', path: ['main'] }]);
    expect(await domRows()).toBeLessThan(80);
    await ui.screenshot(page, 'tree-10k-open');
  });

  it('scrolls to the last of 10,000 tables with only the visible rows in the DOM', async () => {
    const scroller = tree().getByTestId('tree-scroll');
    for (const fraction of [0.25, 0.5, 0.75, 1]) {
      await scroller.evaluate((el, f) => {
        const e = el as unknown as { scrollTop: number; scrollHeight: number };
        e.scrollTop = e.scrollHeight * f;
      }, fraction);
    }
    await visible(tree().getByRole('button', { name: name(TABLES), exact: true }));
    expect(await domRows()).toBeLessThan(80);
    await ui.screenshot(page, 'tree-10k-end');

    // The keys of a tree widget: Home to the first row, down, End to the last table (brought into the
    // virtual list), Left to its folder, Left again folds it.
    const focused = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { activeElement: { textContent: string | null } | null };
        };
        return g.document.activeElement?.textContent ?? '';
      });
    await tree()
      .getByRole('button', { name: name(TABLES), exact: true })
      .focus();
    await page.keyboard.press('Home');
    await expect.poll(focused).toMatch(/^▾main/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe(`T${name(1)}`);
    await page.keyboard.press('End');
    await expect.poll(focused).toBe(`T${name(TABLES)}`);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toMatch(/^▾Tables/);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toMatch(/^▸Tables/);
    await page.keyboard.press('ArrowRight');
    await visible(tree().getByRole('button', { name: name(1), exact: true }));

    // A kind folder closes and opens again.
    await scroller.evaluate((el) => {
      (el as unknown as { scrollTop: number }).scrollTop = 0;
    });
    const folder = tree().getByRole('button', { name: /^Tables/ });
    await folder.click();
    await expect.poll(() => domRows()).toBe(2);
    await folder.click();
    await visible(tree().getByRole('button', { name: name(1), exact: true }));
  });

  it('searches every object and describes the table found', async () => {
    await tree().getByLabel('Filter objects').fill('T0432');
    // t04320 … t04329: ten matches under their container and kind, whatever is open.
    await visible(tree().getByRole('button', { name: name(4329), exact: true }));
    const leaves = tree().locator('button.tree-node.leaf');
    await expect.poll(() => leaves.count()).toBe(10);
    expect(
      await tree()
        .getByRole('button', { name: /^Tables/ })
        .textContent(),
    ).toContain('10');
    await tree()
      .getByRole('button', { name: name(4321), exact: true })
      .click();
    const detail = page.getByRole('region', { name: `Object ${name(4321)}` });
    const columns = detail.getByRole('table', { name: 'Columns' });
    await visible(columns.getByRole('cell', { name: 'note', exact: true }));
    expect(await cellTexts(columns.locator('tbody tr'))).toEqual([
      ['id', 'INTEGER', 'yes', 'PK', ''],
      ['note', 'TEXT', 'no', '', "''"],
    ]);
    // The table's DDL, rebuilt from the catalog (SQLite's describe gives no source for a table).
    await detail.getByText('DDL (rebuilt from the catalog)').click();
    expect(await detail.getByTestId('ddl').textContent()).toBe(
      `CREATE TABLE "${name(4321)}" (\n  "id" INTEGER,\n  "note" TEXT NOT NULL DEFAULT '',\n  PRIMARY KEY ("id")\n);`,
    );
    await ui.screenshot(page, 'tree-search-describe');

    await tree().getByLabel('Filter objects').fill('no_such_table');
    await visible(tree().getByText('Nothing named like “no_such_table”.'));
    await tree().getByLabel('Filter objects').fill('');
    await visible(tree().getByRole('button', { name: name(1), exact: true }));
  });

  it('completes a table name by asking for the typed word, never for the whole catalog', async () => {
    await setSql(page, 'select * from t0999');
    await page.keyboard.press('Control+Space');
    const option = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: name(9991) });
    await visible(option);
    await ui.screenshot(page, 'tree-10k-completion');
    await page.keyboard.press('Escape');
    const searches = calls.filter((c) => c.route === 'list' && c.search);
    expect(searches.map((c) => c.search)).toContain('t0999');
    expect(searches.every((c) => c.limit !== undefined && c.limit <= 1000)).toBe(true);
    // Every listing named a container or a word: the 10,000-object catalog was never asked for whole.
    expect(calls.filter((c) => c.route === 'list' && !c.path && !c.search)).toEqual([]);
  });

  it('fits 1920x1080 with the tree open', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await visible(tree().getByRole('button', { name: name(1), exact: true }));
    expect(await domRows()).toBeLessThan(100);
    expect(await fitsWidth(page)).toBe(true);
    await ui.screenshot(page, 'tree-10k-1920x1080');
    await page.setViewportSize({ width: 1280, height: 720 });
  });
});
