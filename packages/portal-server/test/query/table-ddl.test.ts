// The table designer's DDL builder (sql/table-ddl.ts), table-driven: CREATE TABLE per dialect with quoting,
// canonical types, defaults, keys and indexes; ALTER per dialect; injection through names, types, defaults
// and referential actions refused; SQLite's changes that need a table rebuild refused with the reason (the
// rebuild itself runs against real files in table-rebuild-routes.test.ts); DuckDB, SQL Server and Oracle in
// table-ddl-engines.test.ts.
import { describe, expect, it } from 'vitest';
import { engineFor } from '../../src/providers/registry.js';
import { alterTableStatements } from '../../src/sql/table-alter.js';
import {
  type AlterChange,
  createTableStatements,
  DesignError,
  type TableDesign,
} from '../../src/sql/table-ddl.js';

/** The SQL dialect rules of an engine, as its descriptor carries them. */
const dialect = (engine: string) => engineFor(engine).sqlDialect;

const design: TableDesign = {
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'full name', type: 'varchar (80)', default: { literal: "O'Neil" } },
    { name: 'created', type: 'timestamp', nullable: false, default: { expression: 'CURRENT_TIMESTAMP' } },
    { name: 'customer_id', type: 'integer' },
  ],
  primaryKey: ['id'],
  foreignKeys: [
    {
      name: 'fk_customer',
      columns: ['customer_id'],
      referencedPath: ['s', 'customers'],
      referencedColumns: ['id'],
      onDelete: 'cascade',
    },
  ],
  indexes: [{ name: 'ix_name', columns: ['full name'], unique: true }],
};

describe('createTableStatements', () => {
  it('writes PostgreSQL DDL with quoted names, canonical types, defaults, keys and indexes', () => {
    expect(createTableStatements(dialect('postgres'), ['s', 'orders'], design)).toEqual([
      'CREATE TABLE "s"."orders" (\n' +
        '  "id" integer NOT NULL,\n' +
        `  "full name" varchar(80) DEFAULT 'O''Neil',\n` +
        '  "created" timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,\n' +
        '  "customer_id" integer,\n' +
        '  PRIMARY KEY ("id"),\n' +
        '  CONSTRAINT "fk_customer" FOREIGN KEY ("customer_id") REFERENCES "s"."customers" ("id") ON DELETE CASCADE\n' +
        ')',
      'CREATE UNIQUE INDEX "ix_name" ON "s"."orders" ("full name")',
    ]);
  });

  it('writes MySQL and SQLite DDL in their own quoting and index forms', () => {
    const my = createTableStatements(dialect('mysql'), ['db', 'orders'], design);
    expect(my[0]).toContain('`full name` varchar(80)');
    expect(my[0]).toContain('REFERENCES `s`.`customers` (`id`)');
    expect(my[1]).toBe('CREATE UNIQUE INDEX `ix_name` ON `db`.`orders` (`full name`)');
    const lite = createTableStatements(dialect('sqlite'), ['main', 'orders'], {
      ...design,
      columns: design.columns.map((c) => ({ ...c, type: c.type === 'timestamp' ? 'DATETIME' : c.type })),
    });
    expect(lite[0]).toContain('"id" INTEGER NOT NULL');
    expect(lite[0]).toContain('REFERENCES "customers" ("id")');
    expect(lite[1]).toBe('CREATE UNIQUE INDEX "main"."ix_name" ON "orders" ("full name")');
  });

  it.each([
    ['a name', { columns: [{ name: 'x"; DROP TABLE t; --', type: 'integer' }] }],
    ['a type', { columns: [{ name: 'x', type: 'integer); DROP TABLE t; --' }] }],
    ['a type outside the list', { columns: [{ name: 'x', type: 'geometry' }] }],
    ['a type with a clause', { columns: [{ name: 'x', type: 'integer GENERATED ALWAYS AS (1) STORED' }] }],
    [
      'a default expression',
      { columns: [{ name: 'x', type: 'text', default: { expression: 'pg_sleep(10)' } }] },
    ],
    ['a default object', { columns: [{ name: 'x', type: 'text', default: { literal: { a: 1 } } }] }],
    ['a key column', { columns: [{ name: 'x', type: 'text' }], primaryKey: ['y'] }],
    [
      'a duplicate column',
      {
        columns: [
          { name: 'x', type: 'text' },
          { name: 'X', type: 'int' },
        ],
      },
    ],
    [
      'a referential action',
      {
        columns: [{ name: 'x', type: 'integer' }],
        foreignKeys: [
          {
            columns: ['x'],
            referencedPath: ['t'],
            referencedColumns: ['id'],
            onDelete: 'CASCADE; DROP TABLE t',
          },
        ],
      },
    ],
  ])('refuses injection or nonsense through %s', (_what, bad) => {
    expect(() => createTableStatements(dialect('postgres'), ['s', 't'], bad as TableDesign)).toThrow(
      DesignError,
    );
  });

  it('keeps a string default a literal, whatever it holds', () => {
    const [sql] = createTableStatements(dialect('mysql'), ['t'], {
      columns: [{ name: 'x', type: 'text', default: { literal: "a\\'); DROP TABLE t; --" } }],
    });
    expect(sql).toContain(`DEFAULT 'a\\\\''); DROP TABLE t; --'`);
  });
});

describe('alterTableStatements', () => {
  const changes: AlterChange[] = [
    { op: 'addColumn', column: { name: 'note', type: 'text' } },
    { op: 'renameColumn', name: 'a', to: 'b' },
    {
      op: 'alterColumn',
      name: 'b',
      column: { name: 'b', type: 'bigint', nullable: false, default: { literal: 0 } },
      changed: ['type', 'nullable', 'default'],
    },
    { op: 'addIndex', index: { name: 'ix_b', columns: ['b'] } },
    { op: 'dropIndex', name: 'ix_old' },
    { op: 'dropForeignKey', name: 'fk_old' },
  ];

  it('writes PostgreSQL changes one statement each', () => {
    expect(alterTableStatements(dialect('postgres'), ['s', 't'], changes)).toEqual([
      'ALTER TABLE "s"."t" ADD COLUMN "note" text',
      'ALTER TABLE "s"."t" RENAME COLUMN "a" TO "b"',
      'ALTER TABLE "s"."t" ALTER COLUMN "b" TYPE bigint USING "b"::bigint',
      'ALTER TABLE "s"."t" ALTER COLUMN "b" SET NOT NULL',
      'ALTER TABLE "s"."t" ALTER COLUMN "b" SET DEFAULT 0',
      'CREATE INDEX "ix_b" ON "s"."t" ("b")',
      'DROP INDEX "s"."ix_old"',
      'ALTER TABLE "s"."t" DROP CONSTRAINT "fk_old"',
    ]);
  });

  it('restates the whole column on MySQL', () => {
    const out = alterTableStatements(dialect('mysql'), ['d', 't'], changes);
    expect(out[2]).toBe('ALTER TABLE `d`.`t` MODIFY COLUMN `b` bigint NOT NULL DEFAULT 0');
    expect(out[4]).toBe('DROP INDEX `ix_old` ON `d`.`t`');
    expect(out[5]).toBe('ALTER TABLE `d`.`t` DROP FOREIGN KEY `fk_old`');
  });

  it('makes in place what SQLite can, and refuses what needs a rebuild with the reason', () => {
    expect(
      alterTableStatements(
        dialect('sqlite'),
        ['main', 't'],
        [
          {
            op: 'addColumn',
            column: { name: 'n', type: 'INTEGER', nullable: false, default: { literal: 1 } },
          },
          { op: 'renameColumn', name: 'a', to: 'b' },
          { op: 'dropColumn', name: 'c' },
          { op: 'renameTable', to: 'u' },
        ],
      ),
    ).toEqual([
      'ALTER TABLE "main"."t" ADD COLUMN "n" INTEGER NOT NULL DEFAULT 1',
      'ALTER TABLE "main"."t" RENAME COLUMN "a" TO "b"',
      'ALTER TABLE "main"."t" DROP COLUMN "c"',
      'ALTER TABLE "main"."t" RENAME TO "u"',
    ]);
    for (const bad of [changes[2], { op: 'addPrimaryKey', columns: ['a'] }, changes[5]] as AlterChange[])
      expect(() => alterTableStatements(dialect('sqlite'), ['main', 't'], [bad])).toThrow(/table rebuild/);
    expect(() =>
      alterTableStatements(
        dialect('sqlite'),
        ['main', 't'],
        [{ op: 'addColumn', column: { name: 'n', type: 'TEXT', nullable: false } }],
      ),
    ).toThrow(/NOT NULL column n a default/);
  });

  it('writes no DDL for an engine outside the designer', () => {
    expect(() => alterTableStatements(dialect('clickhouse'), ['t'], changes)).toThrow(
      /does not write clickhouse/,
    );
  });
});
