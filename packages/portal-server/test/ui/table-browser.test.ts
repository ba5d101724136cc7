// The table browser in a real browser on the managed SQLite datasources of the UI harness, each effect read
// from the database file itself: a server-side filter and sort, cells edited and a row added (applied after
// the statements are shown), a delete that the datasource's guardrails hold until an administrator approves
// it from another browser — then applied on the requester's page without a click —, a foreign-key cell that
// opens the row it names, a masked column that offers no editor; the "Applied" notice gone once the next
// action starts, and at 1280×720 the card filling the window height (more than fifteen rows).
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, browseTable, startUi, type UiHarness, USER, visible } from './harness.js';

function customers(file: string): Array<{ id: number; name: string; city: string | null }> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('select id, name, city from customers order by id').all() as never;
  } finally {
    db.close();
  }
}

describe('portal web UI: table browser', () => {
  let ui: UiHarness;
  let user: Page;
  let admin: Page;

  beforeAll(async () => {
    ui = await startUi();
    user = await ui.signedInPage(USER);
    admin = await ui.signedInPage(ADMIN);
  });
  afterAll(async () => {
    await ui?.close();
  });

  const bodyRows = (t: Locator) => t.getByRole('table', { name: 'Table rows' }).locator('tbody tr');

  it('filters and sorts on the server, counting the matching rows', async () => {
    const t = await browseTable(user, /^Sales/, 'customers');
    await visible(t.getByText('1–3 of 3 rows'));
    await t.getByLabel('Filter city').fill('lon');
    await visible(t.getByText('1–1 of 1 rows'));
    expect(await bodyRows(t).count()).toBe(1);
    await t.getByLabel('Filter city').fill('');
    await visible(t.getByText('1–3 of 3 rows'));
    // The first click sorts ascending; NULL sorts first in SQLite.
    await t.getByRole('button', { name: /^name/ }).click();
    await expect.poll(() => t.locator('th[aria-sort="ascending"]').count()).toBe(1);
    await t.getByRole('button', { name: /^name/ }).click();
    await expect
      .poll(async () => (await bodyRows(t).first().locator('td').nth(2).textContent()) ?? '')
      .toBe('Katherine Johnson');
  });

  it('edits a cell and adds a row, shows the statements, and applies them', async () => {
    const t = user.getByRole('region', { name: 'Table customers' });
    const grace = bodyRows(t).filter({ hasText: 'Grace Hopper' });
    await grace.locator('td').nth(3).dblclick();
    await t.getByLabel('Cell value').fill('Berlin');
    await t.getByLabel('Cell value').press('Enter');
    await visible(grace.locator('td.cell-changed'));
    await t.getByRole('button', { name: 'Add row' }).click();
    const added = t.getByTestId('new-row');
    await added.locator('td').nth(1).dblclick();
    await t.getByLabel('Cell value').fill('4');
    await t.getByLabel('Cell value').press('Enter');
    await added.locator('td').nth(2).dblclick();
    await t.getByLabel('Cell value').fill("Mary O'Neil");
    await t.getByLabel('Cell value').press('Enter');
    expect(await t.getByTestId('pending-count').textContent()).toBe('2 pending');
    await ui.screenshot(user, 'table-browser-pending');
    await t.getByRole('button', { name: 'Review changes' }).click();
    const review = await visible(t.getByTestId('review-statements'));
    const text = (await review.textContent()) ?? '';
    expect(text).toContain(`UPDATE "main"."customers" SET "city" = 'Berlin' WHERE "id" = 2`);
    expect(text).toContain(`INSERT INTO "main"."customers" ("id", "name") VALUES ('4', 'Mary O''Neil')`);
    // Nothing ran while the statements are only shown.
    expect(customers(ui.files.sales).find((c) => c.id === 2)?.city).toBe('New York');
    await ui.screenshot(user, 'table-browser-review');
    await t.getByRole('button', { name: 'Apply' }).click();
    await visible(t.getByText('Applied 2 statement(s).'));
    expect(customers(ui.files.sales)).toEqual([
      { id: 1, name: 'Ada Lovelace', city: 'London' },
      { id: 2, name: 'Grace Hopper', city: 'Berlin' },
      { id: 3, name: 'Katherine Johnson', city: null },
      { id: 4, name: "Mary O'Neil", city: null },
    ]);
    expect(await t.getByTestId('pending-count').textContent()).toBe('0 pending');
  });

  it('holds a delete for approval and applies it on the requester page once a second person approves', async () => {
    const t = user.getByRole('region', { name: 'Table customers' });
    await visible(t.getByText('1–4 of 4 rows'));
    const mary = bodyRows(t).filter({ hasText: "Mary O'Neil" });
    await mary.getByRole('button', { name: 'Delete row' }).click();
    await visible(t.locator('tr.row-deleted'));
    await t.getByRole('button', { name: 'Review changes' }).click();
    await visible(t.getByTestId('review-statements'));
    await t.getByRole('button', { name: 'Apply' }).click();
    const notice = await visible(t.getByRole('alert', { name: 'Approval required' }));
    const id = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
    expect(customers(ui.files.sales)).toHaveLength(4);
    await ui.screenshot(user, 'table-browser-held');

    await admin.goto('/approvals');
    const card = await visible(admin.getByRole('article', { name: `Request ${id}` }));
    expect(await card.textContent()).toContain('DELETE FROM "main"."customers" WHERE "id" = 4');
    await card.getByRole('button', { name: 'Approve' }).click();
    await visible(card.locator('.badge.status-approved'));

    // The requester's page sees the approval and applies the same batch.
    await visible(t.getByText('Applied 1 statement(s).'), 20_000);
    expect(customers(ui.files.sales).map((c) => c.id)).toEqual([1, 2, 3]);
  });

  it('clears the last "Applied" notice when the next action starts: the import dialog opens without it', async () => {
    const t = user.getByRole('region', { name: 'Table customers' });
    await visible(t.getByText('Applied 1 statement(s).'));
    await t.getByRole('button', { name: 'Import', exact: true }).click();
    await visible(t.getByRole('dialog', { name: 'Import into table' }));
    expect(await t.getByText(/^Applied \d+ statement/).count()).toBe(0);
    await t.getByRole('button', { name: 'Close import' }).click();
    await expect.poll(() => t.getByRole('dialog', { name: 'Import into table' }).count()).toBe(0);
  });

  it('follows a foreign key from a cell to the row it names', async () => {
    const t = await browseTable(user, /^Sales/, 'orders');
    await visible(t.getByText('1–2 of 2 rows'));
    await bodyRows(t).first().getByRole('button', { name: 'Open referenced row 1' }).click();
    const customers = await visible(user.getByRole('region', { name: 'Table customers' }));
    await visible(customers.getByText('1–1 of 1 rows'));
    expect(await customers.getByLabel('Filter id').inputValue()).toBe('=1');
    expect(await bodyRows(customers).first().textContent()).toContain('Ada Lovelace');
    await ui.screenshot(user, 'table-browser-foreign-key');
  });

  it('offers no editor on a masked column', async () => {
    const t = await browseTable(user, /^Ledger/, 'entries');
    await visible(t.getByText('1–1 of 1 rows'));
    const row = bodyRows(t).first();
    expect(await row.locator('td').nth(2).textContent()).toBe('****');
    await row.locator('td').nth(2).dblclick();
    expect(await t.getByLabel('Cell value').count()).toBe(0);
    expect(await t.getByLabel('Filter note').isDisabled()).toBe(true);
  });

  it('fills the window height at 1280×720: more than fifteen rows inside the card, the query tabs still showing', async () => {
    await user.setViewportSize({ width: 1280, height: 720 });
    const t = await browseTable(user, /^Sales/, 'events');
    await visible(t.getByText('1–100 of 620 rows'));
    await ui.screenshot(user, 'table-browser-720');
    const box = await user.evaluate(() => {
      type Box = { top: number; bottom: number };
      type El = { getBoundingClientRect(): Box };
      const d = (globalThis as unknown as { document: { querySelector(s: string): El | null } }).document;
      const all = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } })
        .document;
      const card = d.querySelector('section[aria-label="Table events"]')?.getBoundingClientRect();
      const scroll = d
        .querySelector('section[aria-label="Table events"] .table-scroll')
        ?.getBoundingClientRect();
      const query = d.querySelector('section[aria-label="Query"]')?.getBoundingClientRect();
      const rows = Array.from(all.querySelectorAll('section[aria-label="Table events"] tbody tr')).map((r) =>
        r.getBoundingClientRect(),
      );
      return { card, scroll, query, rows };
    });
    const { card, scroll, query } = box;
    if (!card || !scroll || !query) throw new Error('the table card, its grid or the query panel is missing');
    // Rows wholly inside the card's grid and the window (before the fix: about seven, the card at its minimum).
    const shown = box.rows.filter((r) => r.top >= scroll.top && r.bottom <= scroll.bottom && r.bottom <= 720);
    expect(shown.length).toBeGreaterThan(15);
    expect(card.bottom).toBeLessThanOrEqual(720);
    // The query panel follows inside the window (its tabs show; the main area scrolls to the editor).
    expect(query.top).toBeLessThan(720);
  });
});
