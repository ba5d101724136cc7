// The describe panel's DDL (pure): the engine's own source when it gives one, otherwise a CREATE TABLE
// rebuilt from the described columns, keys and indexes, quoted the engine's way — the way provider-meta
// answers it (`editor.quote`, taken here from the server's own editorMeta), checked against the server's quoting.
import { describe, expect, it } from 'vitest';
import { editorMeta } from '../../portal-server/src/providers/editor-facts.js';
import { ENGINES, engineFor } from '../../portal-server/src/providers/registry.js';
import type { ObjectDetail } from '../src/lib/types';
import { ddlOf, type Naming, qualifiedName, quoteIdentifier } from '../src/workspace/ddl';

/** An engine's naming facts as provider-meta answers them. */
const meta = (engine: string): Naming => {
  const f = engineFor(engine);
  return { fileBased: f.fileBased === true, editor: editorMeta(f) };
};

const ORDERS: ObjectDetail = {
  object: { path: ['shop', 'orders'], name: 'orders', kind: 'table' },
  columns: [
    { name: 'id', type: 'integer', nullable: false, isPrimary: true },
    { name: 'customer_id', type: 'integer', nullable: false, isPrimary: false },
    { name: 'placed', type: 'timestamp', nullable: true, isPrimary: false, defaultValue: 'now()' },
  ],
  indexes: [
    { name: 'orders_pkey', columns: ['id'], unique: true },
    { name: 'orders_placed', columns: ['placed', 'customer_id'], unique: false },
  ],
  foreignKeys: [
    {
      columnName: 'customer_id',
      constraintName: 'orders_customer_fk',
      referencedPath: ['shop', 'customers'],
      referencedTable: 'customers',
      referencedColumn: 'id',
      onDelete: 'CASCADE',
      onUpdate: 'NO ACTION',
    },
  ],
};

describe('ddl', () => {
  it('quotes identifiers the engine way, doubling the quote', () => {
    expect(quoteIdentifier(meta('postgres'), 'we"ird')).toBe('"we""ird"');
    expect(quoteIdentifier(meta('mysql'), 'we`ird')).toBe('`we``ird`');
    expect(quoteIdentifier(meta('mssql'), 'we]ird')).toBe('[we]]ird]');
    expect(qualifiedName(meta('sqlite'), { path: ['main', 't'], name: 't' })).toBe('"t"');
    expect(qualifiedName(meta('postgres'), { path: ['s', 't'], name: 't' })).toBe('"s"."t"');
    expect(qualifiedName(meta('postgres'), { path: ['main', 't'], name: 't' })).toBe('"main"."t"');
  });

  it("quotes every engine's names as the server does", () => {
    for (const e of ENGINES) {
      const f = engineFor(e.engine);
      for (const name of ['plain', 'we"ird', 'we`ird', 'we]ird', 'a[b'])
        expect(quoteIdentifier(meta(e.engine), name), `${e.engine} ${name}`).toBe(f.sqlDialect.quote(name));
    }
  });

  it('rebuilds a CREATE TABLE with its keys and the indexes the key does not imply', () => {
    expect(ddlOf(meta('postgres'), ORDERS)).toEqual({
      rebuilt: true,
      text: [
        'CREATE TABLE "shop"."orders" (',
        '  "id" integer NOT NULL,',
        '  "customer_id" integer NOT NULL,',
        '  "placed" timestamp DEFAULT now(),',
        '  PRIMARY KEY ("id"),',
        '  CONSTRAINT "orders_customer_fk" FOREIGN KEY ("customer_id") REFERENCES "shop"."customers" ("id") ON DELETE CASCADE',
        ');',
        'CREATE INDEX "orders_placed" ON "shop"."orders" ("placed", "customer_id");',
      ].join('\n'),
    });
  });

  it('keeps a several-column foreign key in one constraint', () => {
    const d: ObjectDetail = {
      object: { path: ['main', 'lines'], name: 'lines', kind: 'table' },
      columns: [
        { name: 'a', type: 'INT', nullable: true, isPrimary: false },
        { name: 'b', type: 'INT', nullable: true, isPrimary: false },
      ],
      indexes: [{ name: 'sqlite_autoindex_lines_1', columns: ['a'], unique: true }],
      foreignKeys: [
        {
          columnName: 'a',
          constraintName: 'fk_lines_0',
          referencedPath: ['main', 'heads'],
          referencedColumn: 'x',
        },
        {
          columnName: 'b',
          constraintName: 'fk_lines_0',
          referencedPath: ['main', 'heads'],
          referencedColumn: 'y',
        },
      ],
    };
    expect(ddlOf(meta('sqlite'), d)?.text).toBe(
      'CREATE TABLE "lines" (\n  "a" INT,\n  "b" INT,\n  CONSTRAINT "fk_lines_0" FOREIGN KEY ("a", "b") REFERENCES "heads" ("x", "y")\n);',
    );
  });

  it("prefers the engine's own source, and has none for keys or collections", () => {
    const view: ObjectDetail = {
      object: { path: ['s', 'v'], name: 'v', kind: 'view' },
      columns: [{ name: 'a', type: 'int', nullable: true, isPrimary: false }],
      indexes: [],
      foreignKeys: [],
      definition: 'CREATE VIEW v AS SELECT 1 AS a',
    };
    expect(ddlOf(meta('postgres'), view)).toEqual({ text: 'CREATE VIEW v AS SELECT 1 AS a', rebuilt: false });
    expect(ddlOf(meta('redis'), { ...ORDERS, object: { ...ORDERS.object, kind: 'hash' } })).toBeUndefined();
    expect(
      ddlOf(meta('mongodb'), { ...ORDERS, object: { ...ORDERS.object, kind: 'collection' } }),
    ).toBeUndefined();
    expect(
      ddlOf(meta('postgres'), { ...ORDERS, object: { ...ORDERS.object, kind: 'view' } }),
    ).toBeUndefined();
  });
});
