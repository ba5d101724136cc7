// The table designer's route (POST /api/db/tables/ddl) on DuckDB, SQL Server and Oracle. DuckDB runs here:
// a designed table previewed, created and altered, each effect read back from the DuckDB file itself (a
// second, read-only instance); NOT NULL added in two statements fills existing rows from the default; a
// failing batch rolls back whole; a foreign-key change refused with the reason. SQL Server and Oracle have
// no server here: their CREATE previews (nothing connects for a create) and the injection refusals are
// checked through the route; their ALTER text is checked in test/query/table-ddl-engines.test.ts.
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE } from '../query/harness.js';
import { type GovernedHarness, governed, managedDs } from './policy-harness.js';

const dir = tempDir('portal-table-design-engines-');
const file = join(dir, 'shop.duckdb');

async function duck<T>(path: string, fn: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>) {
  const inst = await DuckDBInstance.create(path, path === file ? { access_mode: 'READ_ONLY' } : {});
  const c = await inst.connect();
  try {
    return await fn(async (sql) => (await c.runAndReadAll(sql)).getRowsJson() as unknown[][]);
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

const ORDERS = {
  columns: [
    { name: 'id', type: 'INTEGER', nullable: false },
    { name: 'customer_id', type: 'INTEGER', nullable: false },
    { name: 'status', type: 'VARCHAR(20)', nullable: false, default: { literal: 'new' } },
    { name: 'placed', type: 'TIMESTAMP', default: { expression: 'CURRENT_TIMESTAMP' } },
  ],
  primaryKey: ['id'],
  foreignKeys: [
    { columns: ['customer_id'], referencedPath: ['main', 'customers'], referencedColumns: ['id'] },
  ],
  indexes: [{ name: 'orders_status', columns: ['status'] }],
};

describe('/api/db/tables/ddl on DuckDB, SQL Server and Oracle', () => {
  let h: GovernedHarness;

  beforeAll(async () => {
    // Seeded before the portal opens it (DuckDB lets one process write a file).
    const inst = await DuckDBInstance.create(file);
    const c = await inst.connect();
    await c.run('CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL)');
    await c.run("INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace')");
    c.closeSync();
    inst.closeSync();
    h = await governed([
      managedDs('duck', { type: 'duckdb', database: file }, { guardrails: false }),
      managedDs('ms', {
        type: 'mssql',
        host: '127.0.0.1',
        port: 1,
        user: 'sa',
        password: 'x',
        database: 'app',
      }),
      managedDs('ora', {
        type: 'oracle',
        host: '127.0.0.1',
        port: 1,
        user: 'app',
        password: 'x',
        database: 'XE',
      }),
    ]);
  });
  afterAll(() => h?.close());

  const ddl = (ds: string, body: Record<string, unknown>) =>
    h.post('/api/db/tables/ddl', { connectionId: ds, ...body }, ALICE);
  const sql = async (text: string) => {
    const r = await h.post('/api/db/query', { connectionId: 'duck', sql: text }, ALICE);
    expect(r.statusCode, r.body).toBe(200);
  };
  // The portal writes through its write-ahead log; a checkpoint puts the changes in the file the
  // read-only instance opens (it cannot replay a log).
  const inDuckDb = async (text: string) => {
    await sql('CHECKPOINT');
    return duck(file, (run) => run(text));
  };
  const columnsOf = (table: string) =>
    inDuckDb(
      `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
    );

  it('offers DuckDB, SQL Server and Oracle types in provider-meta', async () => {
    const meta = async (type: string) => (await h.post('/api/db/provider-meta', { type }, ALICE)).json();
    expect((await meta('duckdb')).columnTypes).toContain('TIMESTAMPTZ');
    expect((await meta('mssql')).columnTypes).toContain('nvarchar');
    expect((await meta('oracle')).columnTypes).toContain('VARCHAR2');
    // Oracle has no CURRENT_TIME: not offered.
    expect((await meta('oracle')).defaultExpressions).toEqual(['CURRENT_TIMESTAMP', 'CURRENT_DATE']);
  });

  it('previews, then creates a DuckDB table as designed, read back from the file', async () => {
    const preview = await ddl('duck', { path: ['main', 'orders'], create: ORDERS, preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().statements).toEqual([
      'CREATE TABLE "main"."orders" (\n' +
        '  "id" INTEGER NOT NULL,\n' +
        '  "customer_id" INTEGER NOT NULL,\n' +
        `  "status" VARCHAR(20) NOT NULL DEFAULT 'new',\n` +
        '  "placed" TIMESTAMP DEFAULT CURRENT_TIMESTAMP,\n' +
        '  PRIMARY KEY ("id"),\n' +
        '  FOREIGN KEY ("customer_id") REFERENCES "main"."customers" ("id")\n' +
        ')',
      'CREATE INDEX "orders_status" ON "main"."orders" ("status")',
    ]);
    expect(
      await inDuckDb("SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = 'orders'"),
    ).toEqual([[0]]);
    const ran = await ddl('duck', { path: ['main', 'orders'], create: ORDERS });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(await columnsOf('orders')).toEqual([
      ['id', 'INTEGER', 'NO', null],
      ['customer_id', 'INTEGER', 'NO', null],
      ['status', 'VARCHAR', 'NO', "'new'"],
      ['placed', 'TIMESTAMP', 'YES', 'CURRENT_TIMESTAMP'],
    ]);
    expect(await inDuckDb("SELECT index_name FROM duckdb_indexes() WHERE table_name = 'orders'")).toEqual([
      ['orders_status'],
    ]);
    expect(
      await inDuckDb(
        "SELECT constraint_type FROM duckdb_constraints() WHERE table_name = 'orders' ORDER BY 1",
      ),
    ).toContainEqual(['FOREIGN KEY']);
  });

  it('alters a DuckDB table: NOT NULL added in two statements, a type converted, a rename', async () => {
    await sql('CREATE TABLE notes (id INTEGER, body VARCHAR, score VARCHAR)');
    await sql("INSERT INTO notes VALUES (1, 'a', '7'), (2, 'b', '9')");
    const r = await ddl('duck', {
      path: ['main', 'notes'],
      alter: [
        {
          op: 'addColumn',
          column: { name: 'tier', type: 'INTEGER', nullable: false, default: { literal: 3 } },
        },
        { op: 'alterColumn', name: 'score', column: { name: 'score', type: 'INTEGER' }, changed: ['type'] },
        { op: 'renameColumn', name: 'body', to: 'text' },
        { op: 'addIndex', index: { name: 'notes_tier', columns: ['tier'] } },
      ],
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().statements.slice(0, 3)).toEqual([
      'ALTER TABLE "main"."notes" ADD COLUMN "tier" INTEGER DEFAULT 3',
      'ALTER TABLE "main"."notes" ALTER COLUMN "tier" SET NOT NULL',
      'ALTER TABLE "main"."notes" ALTER COLUMN "score" TYPE INTEGER USING "score"::INTEGER',
    ]);
    expect(await inDuckDb('SELECT id, text, score, tier FROM notes ORDER BY id')).toEqual([
      [1, 'a', 7, 3],
      [2, 'b', 9, 3],
    ]);
    expect((await columnsOf('notes')).map((c) => c.slice(0, 3))).toEqual([
      ['id', 'INTEGER', 'YES'],
      ['text', 'VARCHAR', 'YES'],
      ['score', 'INTEGER', 'YES'],
      ['tier', 'INTEGER', 'NO'],
    ]);
  });

  it('rolls a failing DuckDB batch back whole, and refuses a foreign-key change with the reason', async () => {
    const r = await ddl('duck', {
      path: ['main', 'notes'],
      alter: [
        { op: 'addColumn', column: { name: 'extra', type: 'TEXT' } },
        { op: 'addColumn', column: { name: 'must', type: 'INTEGER', nullable: false } },
      ],
    });
    // Existing rows have no value for the new NOT NULL column without a default: nothing of the batch stays.
    expect(r.statusCode, r.body).toBe(400);
    expect((await columnsOf('notes')).map((c) => c[0])).toEqual(['id', 'text', 'score', 'tier']);
    const fk = await ddl('duck', {
      path: ['main', 'notes'],
      alter: [
        {
          op: 'addForeignKey',
          foreignKey: { columns: ['id'], referencedPath: ['main', 'customers'], referencedColumns: ['id'] },
        },
      ],
    });
    expect(fk.statusCode).toBe(400);
    expect(fk.json()).toMatchObject({ code: 'BAD_DESIGN' });
    expect(fk.json().error).toMatch(/DuckDB cannot add a foreign key/);
  });

  it('previews SQL Server and Oracle CREATE TABLE in their own dialects (nothing connects)', async () => {
    const design = (type: string, text: string) => ({
      columns: [
        { name: 'id', type, nullable: false },
        { name: 'label', type: text, nullable: false, default: { literal: 'x' } },
      ],
      primaryKey: ['id'],
    });
    const ms = await ddl('ms', {
      path: ['dbo', 'items'],
      create: design('int', 'nvarchar(40)'),
      preview: true,
    });
    expect(ms.statusCode, ms.body).toBe(200);
    expect(ms.json().statements).toEqual([
      "CREATE TABLE [dbo].[items] (\n  [id] int NOT NULL,\n  [label] nvarchar(40) NOT NULL DEFAULT N'x',\n  PRIMARY KEY ([id])\n)",
    ]);
    const ora = await ddl('ora', {
      path: ['APP', 'items'],
      create: design('NUMBER(10)', 'VARCHAR2(40)'),
      preview: true,
    });
    expect(ora.statusCode, ora.body).toBe(200);
    expect(ora.json().statements).toEqual([
      `CREATE TABLE "APP"."items" (\n  "id" NUMBER(10) NOT NULL,\n  "label" VARCHAR2(40) DEFAULT 'x' NOT NULL,\n  PRIMARY KEY ("id")\n)`,
    ]);
  });

  it.each([
    [
      'duck',
      'a column name',
      { columns: [{ name: 'a" INTEGER); DROP TABLE customers; --', type: 'INTEGER' }] },
    ],
    ['duck', 'a type', { columns: [{ name: 'a', type: 'INTEGER); DROP TABLE customers; --' }] }],
    ['ms', 'a column name', { columns: [{ name: 'a] int); DROP TABLE x; --', type: 'int' }] }],
    ['ms', 'a type', { columns: [{ name: 'a', type: "int DEFAULT 1; EXEC xp_cmdshell 'x'" }] }],
    [
      'ms',
      'a default',
      { columns: [{ name: 'a', type: 'int', default: { expression: 'GETDATE()); DROP TABLE x; --' } }] },
    ],
    ['ora', 'a column name', { columns: [{ name: 'a" NUMBER); DROP TABLE x; --', type: 'NUMBER' }] }],
    ['ora', 'a type', { columns: [{ name: 'a', type: 'NUMBER) ; DROP TABLE x; --' }] }],
    [
      'ora',
      'an action',
      {
        columns: [{ name: 'a', type: 'NUMBER' }],
        foreignKeys: [
          {
            columns: ['a'],
            referencedPath: ['APP', 'p'],
            referencedColumns: ['id'],
            onDelete: 'CASCADE; DROP TABLE x',
          },
        ],
      },
    ],
  ])('%s refuses injection through %s (400, nothing runs)', async (ds, _what, create) => {
    const r = await ddl(ds, { path: [ds === 'duck' ? 'main' : 'APP', 'x'], create });
    expect(r.statusCode, r.body).toBe(400);
    if (ds === 'duck')
      expect(await inDuckDb("SELECT count(*)::INTEGER FROM duckdb_tables() WHERE table_name = 'x'")).toEqual([
        [0],
      ]);
  });
});
