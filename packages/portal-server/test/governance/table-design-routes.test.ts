// The table designer's route (POST /api/db/tables/ddl) under the real policy hooks, on SQLite files read
// back through SQLite's own catalog (PRAGMA table_info / index_list / foreign_key_list): a designed table
// previewed (nothing created) then created with keys, defaults and an index; altered in place; injection through names, types and defaults refused with nothing run; a
// read-only datasource refuses; a datasource needing two approvals holds the DDL until two people approve,
// then the same description runs; audit lines per statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE } from '../query/harness.js';
import type { GovernedHarness } from './policy-harness.js';
import { governedTables, type RouteUser, read, sqliteFiles } from './table-routes.fixture.js';

const sqlite = sqliteFiles('portal-table-design-');
const seed = (name: string) =>
  sqlite.seed(name, 'CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
const CAROL = { username: 'carol', role: 'admin' as const };

const ORDERS = {
  columns: [
    { name: 'id', type: 'INTEGER', nullable: false },
    { name: 'customer_id', type: 'INTEGER', nullable: false },
    { name: 'status', type: 'VARCHAR(20)', nullable: false, default: { literal: 'new' } },
    { name: 'placed', type: 'DATETIME', default: { expression: 'CURRENT_TIMESTAMP' } },
  ],
  primaryKey: ['id'],
  foreignKeys: [
    {
      columns: ['customer_id'],
      referencedPath: ['main', 'customers'],
      referencedColumns: ['id'],
      onDelete: 'CASCADE',
    },
  ],
  indexes: [{ name: 'orders_status', columns: ['status'] }],
};

describe('/api/db/tables/ddl (SQLite, governed)', () => {
  let h: GovernedHarness;
  const files = { open: seed('open'), ro: seed('ro'), held: seed('held') };

  beforeAll(async () => {
    h = await governedTables(files, { held: { approvalsRequired: 2 } });
  });
  afterAll(() => h?.close());

  const ddl = (ds: string, body: Record<string, unknown>, user: RouteUser = ALICE) =>
    h.post('/api/db/tables/ddl', { connectionId: ds, ...body }, user);
  const tables = (f: string) =>
    read(f, "select name from sqlite_master where type = 'table' order by name").map(
      (r) => (r as { name: string }).name,
    );

  it('offers the designer in provider-meta with the engine type list', async () => {
    const meta = (await h.post('/api/db/provider-meta', { type: 'sqlite' })).json();
    expect(meta.columnTypes).toContain('INTEGER');
    expect(meta.defaultExpressions).toContain('CURRENT_TIMESTAMP');
    expect((await h.post('/api/db/provider-meta', { type: 'mongodb' })).json().columnTypes).toBeUndefined();
  });

  it('previews the DDL without running it, then creates the table as designed', async () => {
    const preview = await ddl('open', { path: ['main', 'orders'], create: ORDERS, preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ applied: false });
    expect(preview.json().statements[0]).toContain('"status" VARCHAR(20) NOT NULL DEFAULT \'new\'');
    expect(tables(files.open)).toEqual(['customers']);

    const before = h.events.length;
    const ran = await ddl('open', { path: ['main', 'orders'], create: ORDERS });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json()).toMatchObject({ applied: true });
    expect(tables(files.open)).toEqual(['customers', 'orders']);
    expect(
      read(files.open, 'select name, type, "notnull", dflt_value, pk from pragma_table_info(\'orders\')'),
    ).toEqual([
      { name: 'id', type: 'INTEGER', notnull: 1, dflt_value: null, pk: 1 },
      { name: 'customer_id', type: 'INTEGER', notnull: 1, dflt_value: null, pk: 0 },
      { name: 'status', type: 'VARCHAR(20)', notnull: 1, dflt_value: "'new'", pk: 0 },
      { name: 'placed', type: 'DATETIME', notnull: 0, dflt_value: 'CURRENT_TIMESTAMP', pk: 0 },
    ]);
    expect(
      read(files.open, 'select "table", "from", "to", on_delete from pragma_foreign_key_list(\'orders\')'),
    ).toEqual([{ table: 'customers', from: 'customer_id', to: 'id', on_delete: 'CASCADE' }]);
    expect(
      read(files.open, "select name, \"unique\" from pragma_index_list('orders') where origin = 'c'"),
    ).toEqual([{ name: 'orders_status', unique: 0 }]);
    const lines = h.events.slice(before).filter((e) => e.type === 'query_execution');
    expect(lines.map((e) => [e.route, e.result])).toEqual([
      ['/api/db/tables/ddl', 'success'],
      ['/api/db/tables/ddl', 'success'],
    ]);
  });

  it('alters in place what SQLite can', async () => {
    const ran = await ddl('open', {
      path: ['main', 'orders'],
      alter: [
        { op: 'addColumn', column: { name: 'note', type: 'TEXT' } },
        { op: 'renameColumn', name: 'status', to: 'state' },
        { op: 'addIndex', index: { name: 'orders_note', columns: ['note'], unique: true } },
        { op: 'dropIndex', name: 'orders_status' },
      ],
    });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(
      read(files.open, "select name from pragma_table_info('orders')").map(
        (r) => (r as { name: string }).name,
      ),
    ).toEqual(['id', 'customer_id', 'state', 'placed', 'note']);
    expect(
      read(files.open, "select name, \"unique\" from pragma_index_list('orders') where origin = 'c'"),
    ).toEqual([{ name: 'orders_note', unique: 1 }]);
    // In place: ALTER TABLE statements only, no rebuild (table-rebuild-routes.test.ts has those).
    expect(
      ran.json().statements.every((t: string) => /^(ALTER TABLE|CREATE UNIQUE INDEX|DROP INDEX)/.test(t)),
    ).toBe(true);
  });

  it('rolls a failing batch back whole (SQLite DDL is transactional)', async () => {
    const r = await ddl('open', {
      path: ['main', 'orders'],
      alter: [
        { op: 'addColumn', column: { name: 'extra', type: 'TEXT' } },
        { op: 'addIndex', index: { name: 'bad_ix', columns: ['missing_column'] } },
      ],
    });
    expect(r.statusCode).toBe(400);
    expect(read(files.open, "select name from pragma_table_info('orders') where name = 'extra'")).toEqual([]);
  });

  it.each([
    [
      'a table name',
      { path: ['main', 'x"; DROP TABLE customers; --'], create: { columns: [{ name: 'a', type: 'TEXT' }] } },
    ],
    [
      'a column name',
      {
        path: ['main', 'x'],
        create: { columns: [{ name: 'a" TEXT); DROP TABLE customers; --', type: 'TEXT' }] },
      },
    ],
    [
      'a type',
      { path: ['main', 'x'], create: { columns: [{ name: 'a', type: 'TEXT); DROP TABLE customers; --' }] } },
    ],
    [
      'a default expression',
      {
        path: ['main', 'x'],
        create: { columns: [{ name: 'a', type: 'TEXT', default: { expression: "(load_extension('x'))" } }] },
      },
    ],
    [
      'an index column',
      {
        path: ['main', 'customers'],
        alter: [{ op: 'addIndex', index: { name: 'i', columns: ['name") ; DROP TABLE customers; --'] } }],
      },
    ],
  ])('refuses injection through %s (400, nothing runs)', async (_what, body) => {
    const r = await ddl('open', body);
    expect(r.statusCode, r.body).toBe(400);
    expect(tables(files.open)).toEqual(['customers', 'orders']);
  });

  it('answers 400 for bad bodies and 404 for an unknown table, never 500', async () => {
    expect((await ddl('open', { path: ['main', 'x'] })).statusCode).toBe(400);
    expect((await ddl('open', { path: ['main', 'x'], create: { columns: [] }, alter: [] })).statusCode).toBe(
      400,
    );
    expect((await ddl('open', { path: ['main', 'x'], alter: [{ op: 'addColumn' }] })).statusCode).toBe(400);
    expect((await ddl('open', { path: ['main', 'x'], alter: [{ op: 'explode' }] })).statusCode).toBe(400);
    expect(
      (await ddl('open', { path: ['main', 'nope'], alter: [{ op: 'dropColumn', name: 'a' }] })).statusCode,
    ).toBe(404);
    expect(
      (await ddl('open', { path: ['main', 'x'], create: { columns: [{ name: 'a', type: 'TEXT' }] } }, null))
        .statusCode,
    ).toBe(401);
  });

  it('refuses DDL on a read-only datasource (403 READ_ONLY)', async () => {
    const r = await ddl('ro', { path: ['main', 'orders'], create: ORDERS });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('READ_ONLY');
    expect(tables(files.ro)).toEqual(['customers']);
  });

  it('holds designed DDL until two people approve, then the same description runs', async () => {
    const body = { path: ['main', 'orders'], create: ORDERS };
    const held = await ddl('held', body);
    expect(held.statusCode).toBe(403);
    expect(held.json().code).toBe('APPROVAL_REQUIRED');
    const approval = held.json().approval;
    expect(approval).toMatchObject({ status: 'pending', requester: 'alice' });
    expect(approval.statement).toContain('CREATE TABLE "main"."orders"');
    expect(tables(files.held)).toEqual(['customers']);
    const first = await h.approvals.decide({ id: approval.id, reviewer: CAROL, decision: 'approve' });
    expect(first.status).toBe('pending');
    expect((await ddl('held', body)).json().code).toBe('APPROVAL_REQUIRED');
    expect(tables(files.held)).toEqual(['customers']);
    const second = await h.approvals.decide({ id: approval.id, reviewer: ADMIN, decision: 'approve' });
    expect(second.status).toBe('approved');
    const ran = await ddl('held', body);
    expect(ran.statusCode, ran.body).toBe(200);
    expect(tables(files.held)).toEqual(['customers', 'orders']);
  });
});
