// The table designer's form state (src/table/tableDesign.ts) and the editor's DDL refresh test
// (src/workspace/ddlRefresh.ts), without React: a table as described becomes the form; the edited form
// becomes `alter` changes in an order engines accept; a new design becomes `create`; defaults typed as text
// become literals or the allowed expressions.
import { describe, expect, it } from 'vitest';
import type { ObjectDetail } from '../src/lib/types';
import {
  alterChanges,
  createBody,
  defaultOf,
  defaultTextOf,
  designFromDetail,
  newDesign,
} from '../src/table/tableDesign';
import { isDdl } from '../src/workspace/ddlRefresh';

const EXPR = ['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'CURRENT_TIME'];

const detail = {
  object: { path: ['public', 'orders'], name: 'orders', kind: 'table' },
  columns: [
    { name: 'id', type: 'integer', nullable: false, isPrimary: true },
    { name: 'customer_id', type: 'integer', nullable: false, isPrimary: false },
    {
      name: 'status',
      type: 'character varying(20)',
      nullable: false,
      isPrimary: false,
      defaultValue: "'new'::character varying",
    },
  ],
  indexes: [
    { name: 'orders_pkey', columns: ['id'], unique: true },
    { name: 'orders_status', columns: ['status'], unique: false },
  ],
  foreignKeys: [
    {
      columnName: 'customer_id',
      constraintName: 'orders_customer',
      referencedPath: ['public', 'customers'],
      referencedTable: 'customers',
      referencedColumn: 'id',
    },
  ],
} as unknown as ObjectDetail;

describe('table design state', () => {
  it('reads a described table into the form, leaving the key index to the engine', () => {
    const s = designFromDetail('orders', detail);
    expect(s.columns.map((c) => [c.name, c.type, c.nullable, c.defaultText, c.primary])).toEqual([
      ['id', 'integer', false, '', true],
      ['customer_id', 'integer', false, '', false],
      ['status', 'character varying(20)', false, 'new', false],
    ]);
    expect(s.indexes.map((i) => i.name)).toEqual(['orders_status']);
    expect(s.foreignKeys[0]).toMatchObject({
      name: 'orders_customer',
      refTable: 'customers',
      refColumn: 'id',
    });
    expect(s.originalKey).toEqual(['id']);
  });

  it('answers no change for an untouched form, and orders the changes of an edited one', () => {
    const before = designFromDetail('orders', detail);
    expect(alterChanges(before, before, ['public'], EXPR)).toEqual([]);
    const after = {
      ...before,
      name: 'purchase',
      columns: [
        before.columns[0],
        { ...before.columns[1], type: 'bigint', nullable: true },
        { ...before.columns[2], name: 'state' },
        {
          id: 'n',
          name: 'placed',
          type: 'timestamp',
          nullable: true,
          defaultText: 'current_timestamp',
          primary: false,
        },
      ],
      indexes: [{ ...before.indexes[0], unique: true }],
      foreignKeys: [],
    };
    expect(alterChanges(before, after, ['public'], EXPR)).toEqual([
      { op: 'dropForeignKey', name: 'orders_customer' },
      { op: 'dropIndex', name: 'orders_status' },
      {
        op: 'alterColumn',
        name: 'customer_id',
        column: { name: 'customer_id', type: 'bigint', nullable: true },
        changed: ['type', 'nullable'],
      },
      { op: 'renameColumn', name: 'status', to: 'state' },
      {
        op: 'addColumn',
        column: {
          name: 'placed',
          type: 'timestamp',
          nullable: true,
          default: { expression: 'CURRENT_TIMESTAMP' },
        },
      },
      { op: 'addIndex', index: { name: 'orders_status', columns: ['status'], unique: true } },
      { op: 'renameTable', to: 'purchase' },
    ]);
  });

  it('builds a create description with key, indexes and foreign keys', () => {
    const s = newDesign('INTEGER');
    s.name = 'orders';
    s.columns.push({
      id: 'x',
      name: 'customer_id',
      type: 'INTEGER',
      nullable: false,
      defaultText: '',
      primary: false,
    });
    s.indexes.push({ id: 'i', name: 'ix_c', columns: 'customer_id, id', unique: false });
    s.foreignKeys.push({
      id: 'f',
      name: '',
      column: 'customer_id',
      refTable: 'customers',
      refColumn: 'id',
      onDelete: 'CASCADE',
    });
    expect(createBody(s, ['main'], EXPR)).toEqual({
      columns: [
        { name: 'id', type: 'INTEGER', nullable: false },
        { name: 'customer_id', type: 'INTEGER', nullable: false },
      ],
      primaryKey: ['id'],
      indexes: [{ name: 'ix_c', columns: ['customer_id', 'id'], unique: false }],
      foreignKeys: [
        {
          columns: ['customer_id'],
          referencedPath: ['main', 'customers'],
          referencedColumns: ['id'],
          onDelete: 'CASCADE',
        },
      ],
    });
  });

  it('reads typed defaults as literals or allowed expressions', () => {
    expect(defaultOf('', EXPR)).toBeUndefined();
    expect(defaultOf('42', EXPR)).toEqual({ literal: 42 });
    expect(defaultOf('null', EXPR)).toEqual({ literal: null });
    expect(defaultOf('current_timestamp()', EXPR)).toEqual({ expression: 'CURRENT_TIMESTAMP' });
    expect(defaultOf("it's; DROP TABLE x", EXPR)).toEqual({ literal: "it's; DROP TABLE x" });
    expect(defaultTextOf("'it''s'")).toBe("it's");
    expect(defaultTextOf('current_timestamp()')).toBe('current_timestamp');
  });

  it('tells DDL typed in the editor from other statements', () => {
    expect(isDdl('create table t (a int)')).toBe(true);
    expect(isDdl('select 1;\n  ALTER TABLE t ADD b int')).toBe(true);
    expect(isDdl('-- create table t\nselect 1')).toBe(false);
    expect(isDdl("select 'x'")).toBe(false);
  });
});
