// The table designer in a real browser on the managed SQLite datasources of the UI harness, each effect read
// from the database file itself: a table designed (columns, a default expression, a foreign key, an index),
// its DDL shown before anything runs, run, and found in the object tree with its columns and keys as child
// nodes; DDL typed in the editor shows up in the tree without a manual refresh; a foreign-key cell of the
// designed table opens the referenced row; a column change SQLite makes only by rebuilding the table is
// shown as the rebuild script, held by the drop guardrail until approved, and keeps the rows; and on a datasource with write approval the designed DDL waits
// until an administrator approves it from another browser, then runs on the requester's page.
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, setSql, startUi, type UiHarness, USER, visible } from './harness.js';

function read(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}
const tables = (file: string) =>
  read(file, "select name from sqlite_master where type = 'table' order by name").map(
    (r) => (r as { name: string }).name,
  );

describe('portal web UI: table designer', () => {
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

  const openMain = async (page: Page, datasource: RegExp) => {
    await page.getByRole('button', { name: datasource }).click();
    const tree = page.getByRole('region', { name: 'Objects' });
    const main = await visible(tree.getByRole('button', { name: 'main', exact: true }));
    if ((await main.getAttribute('aria-expanded')) !== 'true') await main.click();
    return tree;
  };

  // A long browser flow: on a loaded machine it takes most of the default 30 s.
  it('designs a table, shows its DDL, runs it, and finds it in the tree and in the database', {
    timeout: 90_000,
  }, async () => {
    const tree = await openMain(user, /^Sales/);
    await tree.getByRole('button', { name: 'Create a table in main' }).click();
    const d = await visible(user.getByRole('region', { name: 'Table designer' }));
    await d.getByLabel('Table name').fill('shipments');
    // The first column is offered as the key: id INTEGER.
    expect(await d.getByLabel('Column 1 name').inputValue()).toBe('id');
    expect(await d.getByLabel('Column 1 type').inputValue()).toBe('INTEGER');
    await d.getByRole('button', { name: 'Add column' }).click();
    await d.getByLabel('Column 2 name').fill('customer_id');
    await d.getByLabel('Column 2 type').fill('INTEGER');
    await d.getByLabel('Column 2 nullable').uncheck();
    await d.getByRole('button', { name: 'Add column' }).click();
    await d.getByLabel('Column 3 name').fill('sent');
    await d.getByLabel('Column 3 type').fill('DATETIME');
    await d.getByLabel('Column 3 default').fill('current_timestamp');
    await d.getByRole('button', { name: 'Add index' }).click();
    await d.getByLabel('Index 1 name').fill('shipments_customer');
    await d.getByLabel('Index 1 columns').fill('customer_id');
    await d.getByRole('button', { name: 'Add foreign key' }).click();
    await d.getByLabel('Foreign key 1 column').fill('customer_id');
    await d.getByLabel('Foreign key 1 referenced table').fill('customers');
    await d.getByLabel('Foreign key 1 referenced column').fill('id');
    await d.getByRole('button', { name: 'Show DDL' }).click();
    const ddl = (await (await visible(d.getByTestId('designer-ddl'))).textContent()) ?? '';
    expect(ddl).toContain('CREATE TABLE "main"."shipments" (');
    expect(ddl).toContain('"sent" DATETIME DEFAULT CURRENT_TIMESTAMP');
    expect(ddl).toContain('FOREIGN KEY ("customer_id") REFERENCES "customers" ("id")');
    expect(ddl).toContain('CREATE INDEX "main"."shipments_customer" ON "shipments" ("customer_id")');
    // Shown, not run.
    expect(tables(ui.files.sales)).not.toContain('shipments');
    await d.getByTestId('designer-ddl').scrollIntoViewIfNeeded();
    await ui.screenshot(user, 'table-designer-ddl');
    await d.getByRole('button', { name: 'Run DDL' }).click();

    // The designer closes onto the new table's description; the tree lists it without a refresh.
    await visible(user.getByRole('region', { name: 'Object shipments' }));
    await visible(tree.getByRole('button', { name: 'shipments', exact: true }));
    expect(tables(ui.files.sales)).toContain('shipments');
    expect(
      read(
        ui.files.sales,
        'select name, type, "notnull", dflt_value, pk from pragma_table_info(\'shipments\')',
      ),
    ).toEqual([
      { name: 'id', type: 'INTEGER', notnull: 1, dflt_value: null, pk: 1 },
      { name: 'customer_id', type: 'INTEGER', notnull: 1, dflt_value: null, pk: 0 },
      { name: 'sent', type: 'DATETIME', notnull: 0, dflt_value: 'CURRENT_TIMESTAMP', pk: 0 },
    ]);
    expect(
      read(ui.files.sales, 'select "table", "from", "to" from pragma_foreign_key_list(\'shipments\')'),
    ).toEqual([{ table: 'customers', from: 'customer_id', to: 'id' }]);

    // Its columns, index and key are child nodes of the table in the tree.
    await tree.getByRole('button', { name: 'Parts of shipments' }).click();
    const fk = await visible(tree.locator('.tree-part-key'));
    expect(await fk.textContent()).toContain('customer_id → main.customers(id)');
    expect(await tree.locator('.tree-part-column').allTextContents()).toEqual([
      'cidINTEGER · PK · not null',
      'ccustomer_idINTEGER · FK · not null',
      'csentDATETIME',
    ]);
    await visible(tree.locator('.tree-part-index', { hasText: 'shipments_customer' }));
    await ui.screenshot(user, 'table-designer-tree');
  });

  it('refreshes the tree after DDL typed in the editor', async () => {
    const tree = user.getByRole('region', { name: 'Objects' });
    await setSql(user, 'CREATE TABLE typed_notes (id INTEGER PRIMARY KEY, body TEXT)');
    await user.getByRole('button', { name: 'Run', exact: true }).click();
    await visible(tree.getByRole('button', { name: 'typed_notes', exact: true }));
    expect(tables(ui.files.sales)).toContain('typed_notes');
  });

  it('opens the referenced row from a foreign-key cell of the designed table', async () => {
    await setSql(user, 'INSERT INTO shipments (id, customer_id) VALUES (1, 2)');
    await user.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => read(ui.files.sales, 'select count(*) n from shipments')).toEqual([{ n: 1 }]);
    const tree = user.getByRole('region', { name: 'Objects' });
    await tree.getByRole('button', { name: 'shipments', exact: true }).click();
    await (await visible(user.getByRole('button', { name: 'Browse data' }))).click();
    const t = await visible(user.getByRole('region', { name: 'Table shipments' }));
    await visible(t.getByText('1–1 of 1 rows'));
    await t.getByRole('button', { name: 'Open referenced row 2' }).click();
    const customers = await visible(user.getByRole('region', { name: 'Table customers' }));
    await visible(customers.getByText('1–1 of 1 rows'));
    expect(await customers.locator('tbody tr').first().textContent()).toContain('Grace Hopper');
    await ui.screenshot(user, 'table-designer-foreign-key');
  });

  it('changes a column SQLite cannot alter in place through a table rebuild, keeping its rows', {
    timeout: 90_000,
  }, async () => {
    const tree = user.getByRole('region', { name: 'Objects' });
    await tree.getByRole('button', { name: 'shipments', exact: true }).click();
    await (await visible(user.getByRole('button', { name: 'Design table' }))).click();
    const d = await visible(user.getByRole('region', { name: 'Table designer' }));
    await visible(d.getByLabel('Column 3 name'));
    expect(await d.getByLabel('Column 3 name').inputValue()).toBe('sent');
    await d.getByLabel('Column 3 nullable').uncheck();
    await d.getByRole('button', { name: 'Show DDL' }).click();
    const ddl = (await (await visible(d.getByTestId('designer-ddl'))).textContent()) ?? '';
    expect(ddl).toContain('PRAGMA foreign_keys = OFF;\nBEGIN;\nCREATE TABLE "main"."shipments__rebuilt" (');
    expect(ddl).toContain('"sent" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP');
    expect(ddl).toContain('PRAGMA foreign_key_check;\nCOMMIT;');
    await ui.screenshot(user, 'table-designer-rebuild');
    await d.getByRole('button', { name: 'Run DDL' }).click();
    // The rebuild drops the old table: the datasource's drop guardrail holds it for a reviewer.
    const notice = await visible(d.getByRole('alert', { name: 'Approval required' }));
    expect(await notice.textContent()).toContain('drop guardrail');
    const id = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
    expect(
      read(ui.files.sales, "select \"notnull\" from pragma_table_info('shipments') where name = 'sent'"),
    ).toEqual([{ notnull: 0 }]);
    await admin.goto('/approvals');
    const card = await visible(admin.getByRole('article', { name: `Request ${id}` }));
    expect(await card.textContent()).toContain('CREATE TABLE "main"."shipments__rebuilt"');
    await card.getByRole('button', { name: 'Approve' }).click();
    await visible(card.locator('.badge.status-approved'));
    await visible(user.getByRole('region', { name: 'Object shipments' }), 20_000);
    expect(
      read(
        ui.files.sales,
        "select name, \"notnull\" from pragma_table_info('shipments') where name = 'sent'",
      ),
    ).toEqual([{ name: 'sent', notnull: 1 }]);
    expect(read(ui.files.sales, 'select id, customer_id from shipments')).toEqual([
      { id: 1, customer_id: 2 },
    ]);
    expect(
      read(ui.files.sales, "select name from pragma_index_list('shipments') where origin = 'c'"),
    ).toEqual([{ name: 'shipments_customer' }]);
  });

  it('holds designed DDL on a datasource with write approval and runs it once an administrator approves', async () => {
    await openMain(user, /^Ledger/);
    const tree = user.getByRole('region', { name: 'Objects' });
    await tree.getByRole('button', { name: 'Create a table in main' }).click();
    const d = await visible(user.getByRole('region', { name: 'Table designer' }));
    await d.getByLabel('Table name').fill('budgets');
    await d.getByRole('button', { name: 'Add column' }).click();
    await d.getByLabel('Column 2 name').fill('amount');
    await d.getByLabel('Column 2 type').fill('NUMERIC(12,2)');
    await d.getByLabel('Column 2 default').fill('0');
    await d.getByRole('button', { name: 'Show DDL' }).click();
    expect(await (await visible(d.getByTestId('designer-ddl'))).textContent()).toContain(
      '"amount" NUMERIC(12,2) DEFAULT 0',
    );
    await d.getByRole('button', { name: 'Run DDL' }).click();
    const notice = await visible(d.getByRole('alert', { name: 'Approval required' }));
    const id = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
    expect(tables(ui.files.ledger)).not.toContain('budgets');
    await ui.screenshot(user, 'table-designer-held');

    await admin.goto('/approvals');
    const card = await visible(admin.getByRole('article', { name: `Request ${id}` }));
    expect(await card.textContent()).toContain('CREATE TABLE "main"."budgets"');
    await card.getByRole('button', { name: 'Approve' }).click();
    await visible(card.locator('.badge.status-approved'));

    // The requester's page runs the same DDL once approved and opens the new table.
    await visible(user.getByRole('region', { name: 'Object budgets' }), 20_000);
    expect(tables(ui.files.ledger)).toContain('budgets');
    await visible(tree.getByRole('button', { name: 'budgets', exact: true }));
  });
});
