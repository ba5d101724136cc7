// What the table designer writes must pass the classifier as the plain DDL it is: a designed CREATE or ALTER
// is a write (held where the datasource holds writes), never the `unverifiable` guardrail of a statement the
// classifier cannot read. MySQL's `FOREIGN KEY (…)` once read as a call of an unknown function `key()`, so
// every designed table with a key waited for a reviewer on MariaDB while PostgreSQL ran it.
import { describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { engineFor } from '../../src/providers/registry.js';
import {
  type AlterChange,
  alterTableStatements,
  createTableStatements,
  type TableDesign,
} from '../../src/sql/table-ddl.js';

const design: TableDesign = {
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'customer_id', type: 'integer', nullable: false },
    { name: 'code', type: 'varchar (20)', default: { literal: 'x' } },
    { name: 'created', type: 'timestamp', default: { expression: 'CURRENT_TIMESTAMP' } },
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
};

const changes: AlterChange[] = [
  { op: 'addColumn', column: { name: 'note', type: 'text' } },
  { op: 'renameColumn', name: 'code', to: 'ref' },
  { op: 'addIndex', index: { name: 'ix_note', columns: ['customer_id'] } },
  { op: 'dropIndex', name: 'ix_code' },
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
];

describe('designed DDL as the classifier reads it', () => {
  for (const [engine, schema] of [
    ['postgres', 'public'],
    ['mysql', 'shop'],
  ] as const) {
    it(`${engine}: every designed CREATE and ALTER statement is a write the classifier can read`, async () => {
      const dialect = engineFor(engine).sqlDialect;
      const statements = [
        ...createTableStatements(dialect, [schema, 'orders'], design),
        ...alterTableStatements(dialect, [schema, 'orders'], changes),
      ];
      expect(statements.length).toBeGreaterThan(6);
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
