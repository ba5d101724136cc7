// SQLite's table rebuild through the designer's route (POST /api/db/tables/ddl) on real SQLite files, read
// back through SQLite's own catalog: the changes ALTER TABLE cannot make (a column's NOT NULL and type, a
// foreign key added or dropped, a key column dropped) preview as one script in the documented order and run
// as one unit — rows kept, indexes and triggers created again, a view over the table and another table's
// foreign key still working; a row violating a new NOT NULL, or a new foreign key with no parent row, fails
// the script and leaves the table exactly as it was; tables with parts the rebuild would lose are refused.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE } from '../query/harness.js';
import { type GovernedHarness, governed, managedDs } from './policy-harness.js';
import { read, sqliteFiles } from './table-routes.fixture.js';

const SHOP = `
  CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER, status TEXT DEFAULT 'new', note TEXT,
    FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE);
  CREATE INDEX orders_status ON orders (status);
  CREATE TABLE order_log (order_id INTEGER REFERENCES orders (id), at TEXT);
  CREATE TRIGGER orders_logged AFTER INSERT ON orders BEGIN INSERT INTO order_log VALUES (new.id, 'x'); END;
  CREATE VIEW open_orders AS SELECT id, status FROM orders WHERE status = 'new';
  CREATE TABLE checked (id INTEGER PRIMARY KEY, n INTEGER CHECK (n > 0));
  INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
  INSERT INTO orders VALUES (1, 1, 'new', NULL), (2, 2, 'sent', 'fragile'), (3, 1, 'new', 'x');
`;

describe('/api/db/tables/ddl: SQLite table rebuilds', () => {
  let h: GovernedHarness;
  const file = sqliteFiles('portal-table-rebuild-').seed('shop', SHOP);
  const schemaOf = () =>
    read(file, "select type, name, sql from sqlite_schema where name not like 'sqlite_%' order by name");
  const rowsOf = () => read(file, 'select * from orders order by id');
  const columnsOf = () =>
    read(file, 'select name, type, "notnull", dflt_value, pk from pragma_table_info(\'orders\')');

  beforeAll(async () => {
    h = await governed([managedDs('shop', { type: 'sqlite', database: file }, { guardrails: false })]);
  });
  afterAll(() => h?.close());

  const ddl = (body: Record<string, unknown>) =>
    h.post('/api/db/tables/ddl', { connectionId: 'shop', path: ['main', 'orders'], ...body }, ALICE);
  const notNull = (name: string, type = 'TEXT') => ({
    op: 'alterColumn',
    name,
    column: { name, type, nullable: false },
    changed: ['nullable'],
  });

  it('previews a rebuild as one script in the documented order, running nothing', async () => {
    const before = schemaOf();
    const r = await ddl({ alter: [notNull('status')], preview: true });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().statements).toEqual([
      'PRAGMA foreign_keys = OFF',
      'BEGIN',
      'CREATE TABLE "main"."orders__rebuilt" (\n' +
        '  "id" INTEGER,\n' +
        '  "customer_id" INTEGER,\n' +
        `  "status" TEXT NOT NULL DEFAULT 'new',\n` +
        '  "note" TEXT,\n' +
        '  PRIMARY KEY ("id"),\n' +
        '  FOREIGN KEY ("customer_id") REFERENCES "customers" ("id") ON DELETE CASCADE\n' +
        ')',
      'INSERT INTO "main"."orders__rebuilt" ("id", "customer_id", "status", "note") SELECT "id", "customer_id", "status", "note" FROM "main"."orders"',
      'DROP TABLE "main"."orders"',
      'PRAGMA legacy_alter_table = ON',
      'ALTER TABLE "main"."orders__rebuilt" RENAME TO "orders"',
      'PRAGMA legacy_alter_table = OFF',
      'CREATE INDEX orders_status ON orders (status)',
      "CREATE TRIGGER orders_logged AFTER INSERT ON orders BEGIN INSERT INTO order_log VALUES (new.id, 'x'); END",
      'PRAGMA foreign_key_check',
      'COMMIT',
      'PRAGMA foreign_keys = ON',
    ]);
    expect(schemaOf()).toEqual(before);
  });

  it('fails whole on a row violating the new NOT NULL: the table stays as it was', async () => {
    const [schema, rows, columns] = [schemaOf(), rowsOf(), columnsOf()];
    const r = await ddl({ alter: [notNull('note')] });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().error).toMatch(/NOT NULL constraint failed/);
    expect(schemaOf()).toEqual(schema);
    expect(rowsOf()).toEqual(rows);
    expect(columnsOf()).toEqual(columns);
  });

  it('fails whole when a new foreign key has no parent row (PRAGMA foreign_key_check)', async () => {
    const db = new Database(file);
    db.exec('CREATE TABLE warehouses (id INTEGER PRIMARY KEY)');
    db.close();
    const schema = schemaOf();
    const r = await ddl({
      alter: [
        {
          op: 'addForeignKey',
          foreignKey: { columns: ['id'], referencedPath: ['main', 'warehouses'], referencedColumns: ['id'] },
        },
      ],
    });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ code: 'FOREIGN_KEY_CHECK' });
    expect(schemaOf()).toEqual(schema);
  });

  it('runs a rebuild: rows kept, index and trigger created again, view and referencing key still work', async () => {
    const rows = rowsOf();
    const r = await ddl({
      alter: [
        notNull('status'),
        { op: 'alterColumn', name: 'note', column: { name: 'note', type: 'VARCHAR(40)' }, changed: ['type'] },
      ],
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ applied: true });
    expect(rowsOf()).toEqual(rows);
    expect(columnsOf()).toEqual([
      { name: 'id', type: 'INTEGER', notnull: 0, dflt_value: null, pk: 1 },
      { name: 'customer_id', type: 'INTEGER', notnull: 0, dflt_value: null, pk: 0 },
      { name: 'status', type: 'TEXT', notnull: 1, dflt_value: "'new'", pk: 0 },
      { name: 'note', type: 'VARCHAR(40)', notnull: 0, dflt_value: null, pk: 0 },
    ]);
    expect(read(file, "select name from pragma_index_list('orders') where origin = 'c'")).toEqual([
      { name: 'orders_status' },
    ]);
    expect(
      read(file, 'select "table", "from", "to", on_delete from pragma_foreign_key_list(\'orders\')'),
    ).toEqual([{ table: 'customers', from: 'customer_id', to: 'id', on_delete: 'CASCADE' }]);
    expect(read(file, 'select id from open_orders order by id')).toEqual([{ id: 1 }, { id: 3 }]);
    expect(read(file, 'select "table" from pragma_foreign_key_list(\'order_log\')')).toEqual([
      { table: 'orders' },
    ]);
    expect(read(file, "select name from sqlite_schema where name like '%rebuilt%'")).toEqual([]);
    // The trigger fires on the rebuilt table; the integer primary key is still the rowid.
    const db = new Database(file);
    db.pragma('foreign_keys = ON');
    db.exec("INSERT INTO orders (customer_id, status) VALUES (2, 'new')");
    expect(db.prepare('select max(order_id) m from order_log').all()).toEqual([{ m: 4 }]);
    expect(() => db.exec('INSERT INTO orders (customer_id) VALUES (99)')).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('drops a foreign key and an indexed column (its index dropped first) by rebuilding', async () => {
    const fk = 'fk_orders_0';
    const r = await ddl({
      alter: [
        { op: 'dropForeignKey', name: fk },
        { op: 'dropIndex', name: 'orders_status' },
        { op: 'dropColumn', name: 'status' },
      ],
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(read(file, "select name from pragma_table_info('orders')")).toEqual([
      { name: 'id' },
      { name: 'customer_id' },
      { name: 'note' },
    ]);
    expect(read(file, "select * from pragma_foreign_key_list('orders')")).toEqual([]);
    expect(read(file, 'select count(*) n from orders')).toEqual([{ n: 4 }]);
    // The view named a dropped column: SQLite reports it when read, as it would after any DROP COLUMN.
  });

  it('refuses with the reason what the rebuild cannot carry over, and a dropped column an index uses', async () => {
    const checked = await h.post(
      '/api/db/tables/ddl',
      { connectionId: 'shop', path: ['main', 'checked'], alter: [notNull('n', 'INTEGER')] },
      ALICE,
    );
    expect(checked.statusCode).toBe(400);
    expect(checked.json()).toMatchObject({ code: 'BAD_DESIGN' });
    expect(checked.json().error).toMatch(/CHECK constraints/);
    const db = new Database(file);
    db.exec('CREATE INDEX orders_note ON orders (note)');
    db.close();
    const indexed = await ddl({ alter: [{ op: 'dropForeignKey', name: 'fk_orders_0' }] });
    expect(indexed.statusCode).toBe(400);
    expect(indexed.json().error).toMatch(/no foreign key/);
    const used = await ddl({
      alter: [
        { op: 'addPrimaryKey', columns: ['id'] },
        { op: 'dropColumn', name: 'note' },
      ],
    });
    expect(used.statusCode).toBe(400);
    expect(used.json().error).toMatch(/used by index orders_note: drop the index first/);
  });
});
