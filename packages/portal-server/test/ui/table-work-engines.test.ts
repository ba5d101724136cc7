// The everyday table work of the SQLite browser tests (table-browser, table-import, table-designer) on the
// real PostgreSQL and MariaDB of the kit harness, each effect read back from the engine itself: browse with a
// server-side filter, edit a cell and add a row (the statements shown first, then applied), import a CSV,
// design a table, and an edit on a datasource with write approval that waits for a second person and is
// then applied on the requester's page.
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { datasourceEntry } from '../bot/harness.js';
import { ADMIN, startUi, type UiHarness, USER, visible } from './harness.js';

interface Engine {
  name: string;
  type: string;
  /** The datasource ids: open, and with write approval. */
  id: string;
  heldId: string;
  /** The schema node the tables sit under in the object tree. */
  schema(url: string): string;
  query(url: string, sql: string): Promise<Array<Record<string, unknown>>>;
  /** How the generated statements quote a name. */
  q(name: string): string;
  createSql: string[];
  /** Integer column type as the designer offers it. */
  intType: string;
}

const ddl = (serial: string) => [
  `CREATE TABLE customers (id ${serial} PRIMARY KEY, name VARCHAR(80) NOT NULL, city VARCHAR(80))`,
  "INSERT INTO customers (id, name, city) VALUES (1, 'Ada Lovelace', 'London'), (2, 'Grace Hopper', 'New York'), (3, 'Katherine Johnson', NULL)",
];

const engines: Engine[] = [
  {
    name: 'PostgreSQL',
    type: 'postgres',
    id: 'pg-work',
    heldId: 'pg-held',
    schema: () => 'public',
    async query(url, sql) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(sql)).rows;
      } finally {
        await c.end();
      }
    },
    q: (n) => `"${n}"`,
    createSql: ddl('integer'),
    intType: 'INTEGER',
  },
  {
    name: 'MariaDB',
    type: 'mysql',
    id: 'maria-work',
    heldId: 'maria-held',
    schema: (url) => new URL(url).pathname.slice(1),
    async query(url, sql) {
      const c = await mysql.createConnection(url);
      try {
        const [rows] = await c.query(sql);
        return rows as Array<Record<string, unknown>>;
      } finally {
        await c.end();
      }
    },
    q: (n) => `\`${n}\``,
    createSql: ddl('int'),
    intType: 'INT',
  },
];

/** Each test walks a whole task through the browser: a budget for a loaded machine, not a timing claim. */
const TASK_MS = 120_000;

describe('portal web UI: browse, edit, import and design on PostgreSQL and MariaDB', () => {
  let ui: UiHarness;
  let user: Page;
  let admin: Page;
  const urls: Record<string, string> = {};

  beforeAll(async () => {
    const services = inject('services');
    let entries = '';
    for (const e of engines) {
      for (const id of [e.id, e.heldId]) {
        urls[id] =
          e.type === 'postgres'
            ? await createPostgresDatabase(services.postgresUrl, 'workui')
            : await createMariadbDatabase(services.mariadbUrl, 'workui');
        for (const sql of e.createSql) await e.query(urls[id], sql);
        const held = id === e.heldId;
        entries += datasourceEntry(id, e.type, urls[id], [
          `name: ${e.name} ${held ? 'held' : 'work'}`,
          `environment: ${held ? 'staging' : 'development'}`,
          ...(held ? ['policy: { writeApproval: true }'] : []),
        ]);
      }
    }
    ui = await startUi({}, { datasources: entries });
    ({ page: user } = await ui.newPage());
    ({ page: admin } = await ui.newPage());
    await ui.signIn(user, USER);
    await ui.signIn(admin, ADMIN);
  }, 180_000);

  afterAll(async () => {
    await ui?.close();
  });

  const openSchema = async (page: Page, datasource: string, schema: string) => {
    await page.getByRole('button', { name: new RegExp(`^${datasource}`) }).click();
    const tree = page.getByRole('region', { name: 'Objects' });
    const node = await visible(tree.getByRole('button', { name: schema, exact: true }));
    if ((await node.getAttribute('aria-expanded')) !== 'true') await node.click();
    return tree;
  };
  // A table's node is named by the table, then its statistics (size, estimated rows) where the engine has them.
  const tableNode = (tree: ReturnType<Page['getByRole']>, table: string) =>
    tree.getByRole('button', { name: new RegExp(`^${table}( |$)`) });
  const browse = async (page: Page, datasource: string, schema: string, table: string) => {
    const tree = await openSchema(page, datasource, schema);
    await (await visible(tableNode(tree, table))).click();
    await (await visible(page.getByRole('button', { name: 'Browse data' }))).click();
    return visible(page.getByRole('region', { name: `Table ${table}` }));
  };
  const bodyRows = (t: Awaited<ReturnType<typeof browse>>) =>
    t.getByRole('table', { name: 'Table rows' }).locator('tbody tr');
  const editCell = async (
    t: Awaited<ReturnType<typeof browse>>,
    cell: ReturnType<Page['locator']>,
    v: string,
  ) => {
    await cell.dblclick();
    await t.getByLabel('Cell value').fill(v);
    await t.getByLabel('Cell value').press('Enter');
  };

  for (const e of engines) {
    it(
      `${e.name}: filters on the server, edits a cell, adds a row, shows the statements and applies them`,
      async () => {
        const url = urls[e.id];
        const t = await browse(user, `${e.name} work`, e.schema(url), 'customers');
        await visible(t.getByText('1–3 of 3 rows'));
        await t.getByLabel('Filter city').fill('lon');
        await visible(t.getByText('1–1 of 1 rows'));
        await t.getByLabel('Filter city').fill('');
        await visible(t.getByText('1–3 of 3 rows'));

        await editCell(t, bodyRows(t).filter({ hasText: 'Grace Hopper' }).locator('td').nth(3), 'Berlin');
        await t.getByRole('button', { name: 'Add row' }).click();
        const added = t.getByTestId('new-row');
        await editCell(t, added.locator('td').nth(1), '4');
        await editCell(t, added.locator('td').nth(2), "Mary O'Neil");
        expect(await t.getByTestId('pending-count').textContent()).toBe('2 pending');
        await t.getByRole('button', { name: 'Review changes' }).click();
        const text = (await (await visible(t.getByTestId('review-statements'))).textContent()) ?? '';
        expect(text).toContain(`SET ${e.q('city')} = 'Berlin' WHERE ${e.q('id')} = 2`);
        expect(text).toContain(`(${e.q('id')}, ${e.q('name')}) VALUES ('4', 'Mary O''Neil')`);
        expect(await e.query(url, 'SELECT city FROM customers WHERE id = 2')).toEqual([{ city: 'New York' }]);
        await ui.screenshot(user, `table-work-${e.type}-review`);
        await t.getByRole('button', { name: 'Apply' }).click();
        await visible(t.getByText('Applied 2 statement(s).'));
        expect(await e.query(url, 'SELECT id, name, city FROM customers ORDER BY id')).toEqual([
          { id: 1, name: 'Ada Lovelace', city: 'London' },
          { id: 2, name: 'Grace Hopper', city: 'Berlin' },
          { id: 3, name: 'Katherine Johnson', city: null },
          { id: 4, name: "Mary O'Neil", city: null },
        ]);
      },
      TASK_MS,
    );

    it(
      `${e.name}: imports a CSV into the table and reports the row that failed`,
      async () => {
        const url = urls[e.id];
        const t = user.getByRole('region', { name: 'Table customers' });
        await visible(t.getByText('1–4 of 4 rows'));
        await t.getByRole('button', { name: 'Import', exact: true }).click();
        const dialog = await visible(t.getByRole('dialog', { name: 'Import into table' }));
        await dialog.getByLabel('Import file').setInputFiles({
          name: 'people.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            'id,name,city\n10,Alan Turing,Wilmslow\n11,"Lovelace, Ada",\n1,Duplicate,Rome\n',
          ),
        });
        await visible(dialog.getByRole('table', { name: 'Import preview' }).getByText('Lovelace, Ada'));
        await dialog.getByRole('button', { name: 'Import', exact: true }).click();
        await visible(dialog.getByTestId('import-result').getByText(/Imported 2 row\(s\); 1 failed/));
        await ui.screenshot(user, `table-work-${e.type}-import`);
        expect(await e.query(url, 'SELECT id, name, city FROM customers WHERE id >= 10 ORDER BY id')).toEqual(
          [
            { id: 10, name: 'Alan Turing', city: 'Wilmslow' },
            // An empty CSV field arrives as NULL, as in the SQLite test.
            { id: 11, name: 'Lovelace, Ada', city: null },
          ],
        );
        expect(await e.query(url, 'SELECT name FROM customers WHERE id = 1')).toEqual([
          { name: 'Ada Lovelace' },
        ]);
        await dialog.getByRole('button', { name: 'Close' }).click();
      },
      TASK_MS,
    );

    it(
      `${e.name}: designs a table, shows its DDL, runs it and finds it in the database`,
      async () => {
        const url = urls[e.id];
        const schema = e.schema(url);
        const tree = await openSchema(user, `${e.name} work`, schema);
        await tree.getByRole('button', { name: `Create a table in ${schema}` }).click();
        const d = await visible(user.getByRole('region', { name: 'Table designer' }));
        await d.getByLabel('Table name').fill('shipments');
        expect(await d.getByLabel('Column 1 name').inputValue()).toBe('id');
        await d.getByRole('button', { name: 'Add column' }).click();
        await d.getByLabel('Column 2 name').fill('customer_id');
        await d.getByLabel('Column 2 type').fill(e.intType);
        await d.getByLabel('Column 2 nullable').uncheck();
        await d.getByRole('button', { name: 'Add foreign key' }).click();
        await d.getByLabel('Foreign key 1 column').fill('customer_id');
        await d.getByLabel('Foreign key 1 referenced table').fill('customers');
        await d.getByLabel('Foreign key 1 referenced column').fill('id');
        await d.getByRole('button', { name: 'Show DDL' }).click();
        const shown = (await (await visible(d.getByTestId('designer-ddl'))).textContent()) ?? '';
        expect(shown).toContain(`CREATE TABLE ${e.q(schema)}.${e.q('shipments')} (`);
        await ui.screenshot(user, `table-work-${e.type}-designer`);
        await d.getByRole('button', { name: 'Run DDL' }).click();
        await visible(tableNode(tree, 'shipments'));
        const columns = await e.query(
          url,
          `SELECT column_name AS name, is_nullable AS nullable FROM information_schema.columns
          WHERE table_schema = '${schema}' AND table_name = 'shipments' ORDER BY ordinal_position`,
        );
        expect(columns.map((c) => [String(c.name), String(c.nullable)])).toEqual([
          ['id', 'NO'],
          ['customer_id', 'NO'],
        ]);
        const keys = await e.query(
          url,
          `SELECT COUNT(*) AS n FROM information_schema.table_constraints
          WHERE table_schema = '${schema}' AND table_name = 'shipments' AND constraint_type = 'FOREIGN KEY'`,
        );
        expect(Number(keys[0].n)).toBe(1);
      },
      TASK_MS,
    );

    it(
      `${e.name}: holds an edit on a datasource with write approval until a second person approves it`,
      async () => {
        const url = urls[e.heldId];
        const t = await browse(user, `${e.name} held`, e.schema(url), 'customers');
        await visible(t.getByText('1–3 of 3 rows'));
        await editCell(t, bodyRows(t).filter({ hasText: 'Ada Lovelace' }).locator('td').nth(3), 'Paris');
        await t.getByRole('button', { name: 'Review changes' }).click();
        await visible(t.getByTestId('review-statements'));
        await t.getByRole('button', { name: 'Apply' }).click();
        const notice = await visible(t.getByRole('alert', { name: 'Approval required' }));
        const id = ((await notice.getByTestId('approval-id').textContent()) ?? '').trim();
        expect(await e.query(url, 'SELECT city FROM customers WHERE id = 1')).toEqual([{ city: 'London' }]);

        await admin.goto('/approvals');
        const card = await visible(admin.getByRole('article', { name: `Request ${id}` }));
        await card.getByRole('button', { name: 'Approve' }).click();
        await visible(card.locator('.badge.status-approved'));
        await visible(t.getByText('Applied 1 statement(s).'), 20_000);
        expect(await e.query(url, 'SELECT city FROM customers WHERE id = 1')).toEqual([{ city: 'Paris' }]);
        await user.goto('/');
      },
      TASK_MS,
    );
  }
});
