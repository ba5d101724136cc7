// The table designer's DDL for DuckDB, SQL Server and Oracle (each engine's rules in its own folder,
// providers/<engine>/table-design.ts): CREATE and ALTER in the engine's quoting, types, column forms and
// renames; what the engine cannot do refused with the reason; injection through names, types, defaults and
// referential actions refused. SQL Server and Oracle have no server here, so their text is checked as
// written; DuckDB's DDL also runs on a real database in table-design-engines-routes.test.ts.
import { describe, expect, it } from 'vitest';
import { engineFor } from '../../src/providers/registry.js';
import { alterTableStatements } from '../../src/sql/table-alter.js';
import { createTableStatements, DesignError, type TableDesign } from '../../src/sql/table-ddl.js';

const dialect = (engine: string) => engineFor(engine).sqlDialect;

const design = (type: (generic: string) => string): TableDesign => ({
  columns: [
    { name: 'id', type: type('int'), nullable: false },
    { name: 'full name', type: type('text'), default: { literal: "O'Neil ü" } },
    { name: 'placed', type: type('ts'), nullable: false, default: { expression: 'CURRENT_TIMESTAMP' } },
    { name: 'customer_id', type: type('int') },
  ],
  primaryKey: ['id'],
  foreignKeys: [
    {
      name: 'fk_customer',
      columns: ['customer_id'],
      referencedPath: ['s', 'customers'],
      referencedColumns: ['id'],
      onDelete: 'CASCADE',
    },
  ],
  indexes: [{ name: 'ix_name', columns: ['full name'], unique: true }],
});

describe('DuckDB DDL', () => {
  const d = dialect('duckdb');
  const types = { int: 'INTEGER', text: 'VARCHAR(80)', ts: 'TIMESTAMP' } as Record<string, string>;

  it('creates with double quotes and PostgreSQL-style column changes', () => {
    expect(
      createTableStatements(
        d,
        ['s', 'orders'],
        design((t) => types[t]),
      ),
    ).toEqual([
      'CREATE TABLE "s"."orders" (\n' +
        '  "id" INTEGER NOT NULL,\n' +
        `  "full name" VARCHAR(80) DEFAULT 'O''Neil ü',\n` +
        '  "placed" TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,\n' +
        '  "customer_id" INTEGER,\n' +
        '  PRIMARY KEY ("id"),\n' +
        '  CONSTRAINT "fk_customer" FOREIGN KEY ("customer_id") REFERENCES "s"."customers" ("id") ON DELETE CASCADE\n' +
        ')',
      'CREATE UNIQUE INDEX "ix_name" ON "s"."orders" ("full name")',
    ]);
    expect(
      alterTableStatements(
        d,
        ['s', 't'],
        [
          {
            op: 'addColumn',
            column: { name: 'n', type: 'BIGINT', nullable: false, default: { literal: 0 } },
          },
          {
            op: 'alterColumn',
            name: 'a',
            column: { name: 'a', type: 'BIGINT', nullable: false },
            changed: ['type', 'nullable', 'default'],
          },
          { op: 'dropIndex', name: 'ix' },
          { op: 'renameTable', to: 'u' },
        ],
      ),
    ).toEqual([
      // DuckDB's ADD COLUMN takes no constraint: NOT NULL follows in its own statement.
      'ALTER TABLE "s"."t" ADD COLUMN "n" BIGINT DEFAULT 0',
      'ALTER TABLE "s"."t" ALTER COLUMN "n" SET NOT NULL',
      'ALTER TABLE "s"."t" ALTER COLUMN "a" TYPE BIGINT USING "a"::BIGINT',
      'ALTER TABLE "s"."t" ALTER COLUMN "a" SET NOT NULL',
      'ALTER TABLE "s"."t" ALTER COLUMN "a" DROP DEFAULT',
      'DROP INDEX "s"."ix"',
      'ALTER TABLE "s"."t" RENAME TO "u"',
    ]);
  });

  it('refuses foreign-key changes on an existing table with the reason', () => {
    expect(() => alterTableStatements(d, ['s', 't'], [{ op: 'dropForeignKey', name: 'fk' }])).toThrow(
      /DuckDB cannot drop a foreign key/,
    );
    expect(() =>
      alterTableStatements(
        d,
        ['s', 't'],
        [
          {
            op: 'addForeignKey',
            foreignKey: { columns: ['a'], referencedPath: ['p'], referencedColumns: ['id'] },
          },
        ],
      ),
    ).toThrow(/declare it when creating the table/);
  });
});

describe('SQL Server DDL', () => {
  const d = dialect('mssql');
  const types = { int: 'int', text: 'nvarchar(80)', ts: 'datetime2' } as Record<string, string>;

  it('creates with brackets, national strings and T-SQL defaults', () => {
    const [create, index] = createTableStatements(
      d,
      ['dbo', 'orders'],
      design((t) => types[t]),
    );
    expect(create).toBe(
      'CREATE TABLE [dbo].[orders] (\n' +
        '  [id] int NOT NULL,\n' +
        `  [full name] nvarchar(80) DEFAULT N'O''Neil ü',\n` +
        '  [placed] datetime2 NOT NULL DEFAULT CURRENT_TIMESTAMP,\n' +
        '  [customer_id] int,\n' +
        '  PRIMARY KEY ([id]),\n' +
        '  CONSTRAINT [fk_customer] FOREIGN KEY ([customer_id]) REFERENCES [s].[customers] ([id]) ON DELETE CASCADE\n' +
        ')',
    );
    expect(index).toBe('CREATE UNIQUE INDEX [ix_name] ON [dbo].[orders] ([full name])');
    const [dated] = createTableStatements(d, ['dbo', 't'], {
      columns: [
        { name: 'd', type: 'date', default: { expression: 'CURRENT_DATE' } },
        { name: 'b', type: 'bit', default: { literal: true } },
      ],
    });
    expect(dated).toContain('[d] date DEFAULT CAST(GETDATE() AS date)');
    expect(dated).toContain('[b] bit DEFAULT 1');
  });

  it('alters with ADD, ALTER COLUMN, sp_rename and DROP INDEX … ON', () => {
    expect(
      alterTableStatements(
        d,
        ['dbo', 't'],
        [
          { op: 'addColumn', column: { name: 'n', type: 'int', nullable: false, default: { literal: 0 } } },
          {
            op: 'alterColumn',
            name: 'a',
            column: { name: 'a', type: 'bigint', nullable: false },
            changed: ['type', 'nullable'],
          },
          { op: 'renameColumn', name: 'a', to: 'b c' },
          { op: 'dropIndex', name: 'ix' },
          { op: 'dropForeignKey', name: 'fk' },
          { op: 'addPrimaryKey', columns: ['a'] },
          { op: 'renameTable', to: 'u' },
        ],
      ),
    ).toEqual([
      'ALTER TABLE [dbo].[t] ADD [n] int NOT NULL DEFAULT 0',
      'ALTER TABLE [dbo].[t] ALTER COLUMN [a] bigint NOT NULL',
      "EXEC sp_rename N'[dbo].[t].[a]', N'b c', N'COLUMN'",
      'DROP INDEX [ix] ON [dbo].[t]',
      'ALTER TABLE [dbo].[t] DROP CONSTRAINT [fk]',
      'ALTER TABLE [dbo].[t] ADD PRIMARY KEY ([a])',
      "EXEC sp_rename N'[dbo].[t]', N'u'",
    ]);
  });

  it('refuses what T-SQL cannot do with the reason', () => {
    expect(() =>
      alterTableStatements(
        d,
        ['dbo', 't'],
        [
          {
            op: 'alterColumn',
            name: 'a',
            column: { name: 'a', type: 'int', default: { literal: 1 } },
            changed: ['default'],
          },
        ],
      ),
    ).toThrow(/named constraint/);
    expect(() =>
      createTableStatements(d, ['dbo', 't'], {
        columns: [{ name: 'a', type: 'int' }],
        foreignKeys: [
          { columns: ['a'], referencedPath: ['p'], referencedColumns: ['id'], onDelete: 'RESTRICT' },
        ],
      }),
    ).toThrow(/ON DELETE NO ACTION or CASCADE or SET NULL or SET DEFAULT only/);
  });
});

describe('Oracle DDL', () => {
  const d = dialect('oracle');
  const types = { int: 'NUMBER(10)', text: 'VARCHAR2(80)', ts: 'TIMESTAMP' } as Record<string, string>;

  it('creates with DEFAULT before NOT NULL and indexes in the table schema', () => {
    expect(
      createTableStatements(
        d,
        ['APP', 'orders'],
        design((t) => types[t]),
      ),
    ).toEqual([
      'CREATE TABLE "APP"."orders" (\n' +
        '  "id" NUMBER(10) NOT NULL,\n' +
        `  "full name" VARCHAR2(80) DEFAULT 'O''Neil ü',\n` +
        '  "placed" TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL,\n' +
        '  "customer_id" NUMBER(10),\n' +
        '  PRIMARY KEY ("id"),\n' +
        '  CONSTRAINT "fk_customer" FOREIGN KEY ("customer_id") REFERENCES "s"."customers" ("id") ON DELETE CASCADE\n' +
        ')',
      'CREATE UNIQUE INDEX "APP"."ix_name" ON "APP"."orders" ("full name")',
    ]);
  });

  it('alters with ADD and MODIFY part by part', () => {
    expect(
      alterTableStatements(
        d,
        ['APP', 't'],
        [
          {
            op: 'addColumn',
            column: { name: 'n', type: 'NUMBER', nullable: false, default: { literal: 0 } },
          },
          {
            op: 'alterColumn',
            name: 'a',
            column: { name: 'a', type: 'VARCHAR2(20)', nullable: false },
            changed: ['type', 'default', 'nullable'],
          },
          { op: 'renameColumn', name: 'a', to: 'b' },
          { op: 'dropIndex', name: 'ix' },
          { op: 'renameTable', to: 'u' },
        ],
      ),
    ).toEqual([
      'ALTER TABLE "APP"."t" ADD "n" NUMBER DEFAULT 0 NOT NULL',
      'ALTER TABLE "APP"."t" MODIFY ("a" VARCHAR2(20))',
      'ALTER TABLE "APP"."t" MODIFY ("a" DEFAULT NULL)',
      'ALTER TABLE "APP"."t" MODIFY ("a" NOT NULL)',
      'ALTER TABLE "APP"."t" RENAME COLUMN "a" TO "b"',
      'DROP INDEX "APP"."ix"',
      'ALTER TABLE "APP"."t" RENAME TO "u"',
    ]);
  });

  it('refuses CURRENT_TIME, ON UPDATE and ON DELETE RESTRICT with the reason', () => {
    const create = (extra: Partial<TableDesign>) => () =>
      createTableStatements(d, ['APP', 't'], { columns: [{ name: 'a', type: 'NUMBER' }], ...extra });
    expect(
      create({ columns: [{ name: 'a', type: 'TIMESTAMP', default: { expression: 'CURRENT_TIME' } }] }),
    ).toThrow(/oracle has no CURRENT_TIME/);
    const fk = { columns: ['a'], referencedPath: ['p'], referencedColumns: ['id'] };
    expect(create({ foreignKeys: [{ ...fk, onUpdate: 'CASCADE' }] })).toThrow(/no ON UPDATE clause/);
    expect(create({ foreignKeys: [{ ...fk, onDelete: 'RESTRICT' }] })).toThrow(/CASCADE or SET NULL only/);
    expect(create({ foreignKeys: [{ ...fk, onDelete: 'NO ACTION' }] })()[0]).toContain(
      'REFERENCES "p" ("id")\n',
    );
  });
});

describe.each(['duckdb', 'mssql', 'oracle'])('%s: injection is refused', (engine) => {
  const type = engineFor(engine).sqlDialect.tableDesign?.columnTypes[0] ?? '';
  it.each([
    ['a table name', ['x"]; DROP TABLE t; --'], { columns: [{ name: 'a', type }] }],
    ['a column name', ['t'], { columns: [{ name: 'a] int); DROP TABLE t; --', type }] }],
    ['a type', ['t'], { columns: [{ name: 'a', type: `${type}); DROP TABLE t; --` }] }],
    [
      'a default',
      ['t'],
      { columns: [{ name: 'a', type, default: { expression: 'SYSDATE; DROP TABLE t' } }] },
    ],
    [
      'an action',
      ['t'],
      {
        columns: [{ name: 'a', type }],
        foreignKeys: [
          {
            columns: ['a'],
            referencedPath: ['p'],
            referencedColumns: ['id'],
            onDelete: 'CASCADE; DROP TABLE t',
          },
        ],
      },
    ],
  ])('through %s', (_what, path, bad) => {
    expect(() =>
      createTableStatements(engineFor(engine).sqlDialect, path as string[], bad as TableDesign),
    ).toThrow(DesignError);
  });
});
