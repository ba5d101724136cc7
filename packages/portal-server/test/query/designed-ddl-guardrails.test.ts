// What the table designer writes must pass the classifier as the plain DDL it is: a designed CREATE or ALTER
// is a write (held where the datasource holds writes), never the `unverifiable` guardrail of a statement the
// classifier cannot read. MySQL's `FOREIGN KEY (…)` once read as a call of an unknown function `key()`, so
// every designed table with a key waited for a reviewer on MariaDB while PostgreSQL ran it; SQL Server's and
// Oracle's grammars read none of the designer's CREATE TABLE, which an exact grammar of the designer's forms
// now reads (governance/classify/designed-ddl.ts; its attack cases are in test/governance/classify-designed-ddl).
import { describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { engineFor } from '../../src/providers/registry.js';
import { alterTableStatements } from '../../src/sql/table-alter.js';
import { type AlterChange, createTableStatements, type TableDesign } from '../../src/sql/table-ddl.js';

/** Each engine's own spelling of an integer, a short text, a long text and a timestamp. */
interface Types {
  int: string;
  short: string;
  long: string;
  time: string;
}

const design = (t: Types): TableDesign => ({
  columns: [
    { name: 'id', type: t.int, nullable: false },
    { name: 'customer_id', type: t.int, nullable: false },
    { name: 'code', type: t.short, default: { literal: 'x' } },
    { name: 'created', type: t.time, default: { expression: 'CURRENT_TIMESTAMP' } },
  ],
  primaryKey: ['id'],
  foreignKeys: [
    {
      name: 'fk_customer',
      columns: ['customer_id'],
      referencedPath: ['customers'],
      referencedColumns: ['id'],
      onDelete: 'cascade',
    },
  ],
  indexes: [{ name: 'ix_code', columns: ['code'], unique: true }],
});

/**
 * The changes every engine makes in place; `keys` adds the foreign-key changes where ALTER has them, `more`
 * the column changes, drops and renames of the engines whose designed forms read them.
 */
const changes = (t: Types, keys: boolean, more: AlterChange[] = [], rename = true): AlterChange[] => [
  { op: 'addColumn', column: { name: 'note', type: t.long } },
  ...(rename ? ([{ op: 'renameColumn', name: 'code', to: 'ref' }] as AlterChange[]) : []),
  { op: 'addIndex', index: { name: 'ix_note', columns: ['customer_id'] } },
  { op: 'dropIndex', name: 'ix_code' },
  ...(keys
    ? ([
        {
          op: 'addForeignKey',
          foreignKey: {
            name: 'fk_other',
            columns: ['customer_id'],
            referencedPath: ['customers'],
            referencedColumns: ['id'],
          },
        },
        { op: 'dropForeignKey', name: 'fk_customer' },
      ] as AlterChange[])
    : []),
  ...more,
];

/** Column changes, a primary key and a dropped column (SQL Server and Oracle). */
const columnChanges = (t: Types): AlterChange[] => [
  {
    op: 'alterColumn',
    name: 'note',
    column: { name: 'note', type: t.short, nullable: false },
    changed: ['type', 'nullable'],
  },
  { op: 'addColumn', column: { name: 'flag', type: t.int, nullable: false, default: { literal: -1 } } },
  { op: 'addPrimaryKey', columns: ['id'] },
  { op: 'dropColumn', name: 'flag' },
];

const MSSQL: Types = { int: 'int', short: 'nvarchar (20)', long: 'nvarchar (4000)', time: 'datetime2' };
const ORACLE: Types = { int: 'NUMBER (10)', short: 'VARCHAR2 (20)', long: 'CLOB', time: 'TIMESTAMP' };

const SQL_STANDARD: Types = { int: 'integer', short: 'varchar (20)', long: 'text', time: 'timestamp' };

describe('designed DDL as the classifier reads it', () => {
  for (const [engine, schema, types, alter] of [
    ['postgres', 'public', SQL_STANDARD, changes(SQL_STANDARD, true)],
    ['mysql', 'shop', SQL_STANDARD, changes(SQL_STANDARD, true)],
    // SQLite changes keys by a table rebuild (tested in table-rebuild-routes), DuckDB not at all.
    [
      'sqlite',
      'main',
      { int: 'INTEGER', short: 'TEXT', long: 'TEXT', time: 'DATETIME' },
      changes(SQL_STANDARD, false),
    ],
    ['duckdb', 'main', SQL_STANDARD, changes(SQL_STANDARD, false)],
    // SQL Server renames by EXEC sp_rename, which stays unverifiable (asserted below).
    ['mssql', 'dbo', MSSQL, changes(MSSQL, true, columnChanges(MSSQL), false)],
    [
      'oracle',
      'SHOP',
      ORACLE,
      changes(ORACLE, true, [...columnChanges(ORACLE), { op: 'renameTable', to: 'orders2' }]),
    ],
  ] as const) {
    it(`${engine}: every designed CREATE and ALTER statement is a write the classifier can read`, async () => {
      const dialect = engineFor(engine).sqlDialect;
      const statements = [
        ...createTableStatements(dialect, [schema, 'orders'], design(types)),
        ...alterTableStatements(dialect, [schema, 'orders'], alter as AlterChange[]),
      ];
      expect(statements.length).toBeGreaterThan(4);
      for (const sql of statements) {
        const c = await classifyScript(sql, engine, { defaultSchema: schema });
        // A designed drop keeps the guardrail of what it destroys; nothing is held as unreadable.
        expect({ sql, unverifiable: c.guardrails.includes('unverifiable'), write: c.isWrite }).toEqual({
          sql,
          unverifiable: false,
          write: true,
        });
      }
    });
  }

  it('mssql: a rename (EXEC sp_rename) and a CURRENT_DATE default (a call of GETDATE) stay unverifiable', async () => {
    const dialect = engineFor('mssql').sqlDialect;
    const held = [
      ...alterTableStatements(dialect, ['dbo', 'orders'], [{ op: 'renameColumn', name: 'code', to: 'ref' }]),
      ...alterTableStatements(dialect, ['dbo', 'orders'], [{ op: 'renameTable', to: 'orders2' }]),
      ...alterTableStatements(
        dialect,
        ['dbo', 'orders'],
        [{ op: 'addColumn', column: { name: 'day', type: 'date', default: { expression: 'CURRENT_DATE' } } }],
      ),
    ];
    for (const sql of held) {
      const c = await classifyScript(sql, 'mssql', { defaultSchema: 'dbo' });
      expect({ sql, guardrails: c.guardrails }).toEqual({ sql, guardrails: ['unverifiable'] });
    }
  });

  it('the designed statements name the tables they write and read', async () => {
    const dialect = engineFor('oracle').sqlDialect;
    const [create] = createTableStatements(dialect, ['SHOP', 'orders'], design(ORACLE));
    const c = await classifyScript(create, 'oracle', { defaultSchema: 'SHOP' });
    expect(c.statements[0]).toMatchObject({ statementType: 'CREATE', kind: 'write', doubtful: false });
    expect(c.statements[0].objects).toEqual([
      { schema: 'SHOP', name: 'orders', access: 'write' },
      { schema: 'SHOP', name: 'customers', access: 'read', defaulted: true },
    ]);
  });
});
