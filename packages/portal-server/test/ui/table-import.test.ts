// The table browser's Import dialog in a real browser on the managed SQLite datasources of the UI harness,
// each effect read from the database file itself: a small CSV previewed (the fields with their kinds, the
// first rows, a mapping by name that the person changes) and imported, a bad row reported with its reason;
// and on the datasource with write approval the import is held, an administrator approves it from another
// browser, and the requester's page runs the same file without a click.
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, browseTable, startUi, type UiHarness, USER, visible } from './harness.js';

function rows(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe('portal web UI: table import', () => {
  let ui: UiHarness;
  let user: Page;
  let admin: Page;

  beforeAll(async () => {
    ui = await startUi();
    // A table of the approval-gated datasource without a masked column, to import into.
    const db = new Database(ui.files.ledger);
    db.exec('CREATE TABLE payees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, iban TEXT)');
    db.close();
    user = await ui.signedInPage(USER);
    admin = await ui.signedInPage(ADMIN);
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('previews a CSV with its types, maps a renamed field, imports it and reports the bad row', async () => {
    const t = await browseTable(user, /^Sales/, 'customers');
    await visible(t.getByText('1–3 of 3 rows'));
    await t.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = await visible(t.getByRole('dialog', { name: 'Import into table' }));
    const csv = 'id;full name;town\n10;Alan Turing;Wilmslow\n11;"Lovelace; Ada";\n1;Duplicate;Rome\n';
    await dialog.getByLabel('Import file').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await dialog.getByLabel('Delimiter').selectOption({ label: 'semicolon' });
    const mapping = await visible(dialog.getByRole('table', { name: 'Column mapping' }));
    await visible(mapping.getByText('full name'));
    // `id` matches a column by name; the others are mapped by hand.
    expect(await dialog.getByLabel('Column for id').inputValue()).toBe('id');
    expect(await mapping.locator('tr', { hasText: 'full name' }).locator('td').nth(1).textContent()).toBe(
      'text',
    );
    expect(await mapping.locator('tr', { hasText: 'id' }).first().locator('td').nth(1).textContent()).toBe(
      'integer',
    );
    await dialog.getByLabel('Column for full name').selectOption('name');
    await dialog.getByLabel('Column for town').selectOption('city');
    await visible(dialog.getByRole('table', { name: 'Import preview' }).getByText('Lovelace; Ada'));
    await ui.screenshot(user, 'table-import-preview');
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const result = await visible(dialog.getByTestId('import-result'));
    await visible(result.getByText(/Imported 2 row\(s\); 1 failed/));
    const failed = dialog.getByRole('table', { name: 'Failed rows' });
    expect(await failed.locator('tbody tr').count()).toBe(1);
    expect(await failed.locator('tbody tr td').nth(1).textContent()).toBe('4');
    expect(await failed.locator('tbody tr td').nth(2).textContent()).toMatch(/UNIQUE/i);
    await ui.screenshot(user, 'table-import-result');
    expect(rows(ui.files.sales, 'select id, name, city from customers where id >= 10 order by id')).toEqual([
      { id: 10, name: 'Alan Turing', city: 'Wilmslow' },
      { id: 11, name: 'Lovelace; Ada', city: null },
    ]);
    expect(rows(ui.files.sales, 'select name from customers where id = 1')).toEqual([
      { name: 'Ada Lovelace' },
    ]);
    // The grid shows the imported rows.
    await visible(t.getByText('1–5 of 5 rows'));
  });

  it('holds an import for approval and runs it on the requester page once an administrator approves', async () => {
    const t = await browseTable(user, /^Ledger/, 'payees');
    await visible(t.getByText('0–0 of 0 rows'));
    await t.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = await visible(t.getByRole('dialog', { name: 'Import into table' }));
    await dialog.getByLabel('Import file').setInputFiles({
      name: 'payees.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from('{"id": 1, "name": "Acme"}\n{"id": 2, "name": "Globex", "iban": "DE02"}\n'),
    });
    expect(await dialog.getByLabel('Format').inputValue()).toBe('jsonl');
    await visible(dialog.getByRole('table', { name: 'Import preview' }).getByText('Globex'));
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    const notice = await visible(dialog.getByRole('alert', { name: 'Approval required' }));
    const id = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
    expect(rows(ui.files.ledger, 'select count(*) n from payees')).toEqual([{ n: 0 }]);
    await ui.screenshot(user, 'table-import-held');

    await admin.goto('/approvals');
    const card = await visible(admin.getByRole('article', { name: `Request ${id}` }));
    expect(await card.textContent()).toContain('-- import jsonl file "payees.jsonl"');
    await card.getByRole('button', { name: 'Approve' }).click();
    await visible(card.locator('.badge.status-approved'));

    await visible(dialog.getByTestId('import-result').getByText('Imported 2 row(s).'), 20_000);
    expect(rows(ui.files.ledger, 'select id, name, iban from payees order by id')).toEqual([
      { id: 1, name: 'Acme', iban: null },
      { id: 2, name: 'Globex', iban: 'DE02' },
    ]);
  });
});
