// What the table designer writes must pass the classifier as the plain DDL it is: a designed CREATE or ALTER
// is a write (held where the datasource holds writes), never the `unverifiable` guardrail of a statement the
// classifier cannot read. MySQL's `FOREIGN KEY (…)` once read as a call of an unknown function `key()`, so
// every designed table with a key waited for a reviewer on MariaDB while PostgreSQL ran it.
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

/** The changes every engine makes in place; `keys` adds the foreign-key changes where ALTER has them. */
const changes = (t: Types, keys: boolean): AlterChange[] => [
  { op: 'addColumn', column: { name: 'note', type: t.long } },
  { op: 'renameColumn', name: 'code', to: 'ref' },
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
];

const SQL_STANDARD: Types = { int: 'integer', short: 'varchar (20)', long: 'text', time: 'timestamp' };

describe('designed DDL as the classifier reads it', () => {
  for (const [engine, schema, types, keys] of [
    ['postgres', 'public', SQL_STANDARD, true],
    ['mysql', 'shop', SQL_STANDARD, true],
    // SQLite changes keys by a table rebuild (tested in table-rebuild-routes), DuckDB not at all.
    ['sqlite', 'main', { int: 'INTEGER', short: 'TEXT', long: 'TEXT', time: 'DATETIME' }, false],
    ['duckdb', 'main', SQL_STANDARD, false],
    // SQL Server and Oracle: their classifiers still hold a designed CREATE TABLE as unverifiable (fail
    // closed: a reviewer or an administrator lets it run); listed in docs/portal-api.md's designer section.
  ] as const) {
    it(`${engine}: every designed CREATE and ALTER statement is a write the classifier can read`, async () => {
      const dialect = engineFor(engine).sqlDialect;
      const statements = [
        ...createTableStatements(dialect, [schema, 'orders'], design(types)),
        ...alterTableStatements(dialect, [schema, 'orders'], changes(types, keys)),
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
});
