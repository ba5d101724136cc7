// The object tree's rows (pure): containers from the counts, kind folders and objects only for opened
// containers, notes for loading, errors, empty and bounded listings, a search over every object, and the
// keys of a tree widget.
import { describe, expect, it } from 'vitest';
import type { DbObject } from '../src/lib/types';
import {
  type KindCount,
  kindLabel,
  type Listing,
  type TreeInput,
  treeKey,
  treeRows,
} from '../src/workspace/objectTreeRows';

const obj = (path: string[], kind: string, extra: Partial<DbObject> = {}): DbObject => ({
  path,
  name: path[path.length - 1],
  kind,
  ...extra,
});

const COUNTS: KindCount[] = [
  { path: ['sales'], kind: 'view', count: 1 },
  { path: ['sales'], kind: 'table', count: 2 },
  { path: ['audit'], kind: 'index', count: 1 },
];
const SALES: DbObject[] = [
  obj(['sales', 'orders'], 'table', { rowCount: 2 }),
  obj(['sales', 'big_orders'], 'view'),
  obj(['sales', 'customers'], 'table'),
];

const input = (over: Partial<TreeInput> = {}): TreeInput => ({
  counts: COUNTS,
  listings: new Map(),
  openContainers: new Set(),
  closedKinds: new Set(),
  needle: '',
  all: undefined,
  ...over,
});

const summary = (rows: ReturnType<typeof treeRows>) =>
  rows.map((r) =>
    r.type === 'container'
      ? `${r.open ? '▾' : '▸'} ${r.label} ${r.count}${r.hasTables ? ' ER' : ''}`
      : r.type === 'kind'
        ? `  ${r.open ? '▾' : '▸'} ${r.label} ${r.count}`
        : r.type === 'object'
          ? `    ${r.open ? '▾ ' : ''}${r.object.name}`
          : r.type === 'part'
            ? `      ${r.part} ${r.label}: ${r.detail}`
            : `    (${r.tone}: ${r.text})`,
  );

describe('object tree rows', () => {
  it('shows only the containers of the counts until one is opened', () => {
    expect(summary(treeRows(input()))).toEqual(['▸ audit 1', '▸ sales 3 ER']);
  });

  it('lists an opened container under one folder per kind, in name order', () => {
    const listings = new Map<string, Listing>([['sales', { state: 'done', objects: SALES }]]);
    expect(summary(treeRows(input({ listings, openContainers: new Set(['sales']) })))).toEqual([
      '▸ audit 1',
      '▾ sales 3 ER',
      '  ▾ Tables 2',
      '    customers',
      '    orders',
      '  ▾ Views 1',
      '    big_orders',
    ]);
    const closed = treeRows(
      input({ listings, openContainers: new Set(['sales']), closedKinds: new Set(['sales\u0001table']) }),
    );
    expect(summary(closed)).toEqual([
      '▸ audit 1',
      '▾ sales 3 ER',
      '  ▸ Tables 2',
      '  ▾ Views 1',
      '    big_orders',
    ]);
  });

  it('says loading, the error, empty, and when a listing holds fewer objects than counted', () => {
    const open = new Set(['sales', 'audit']);
    const pending = treeRows(input({ openContainers: open }));
    expect(summary(pending)).toEqual([
      '▾ audit 1',
      '    (muted: Loading…)',
      '▾ sales 3 ER',
      '    (muted: Loading…)',
    ]);
    const listings = new Map<string, Listing>([
      ['audit', { state: 'error', message: 'permission denied for schema audit' }],
      ['sales', { state: 'done', objects: SALES.slice(0, 1) }],
    ]);
    expect(summary(treeRows(input({ openContainers: open, listings })))).toEqual([
      '▾ audit 1',
      '    (error: permission denied for schema audit)',
      '▾ sales 3 ER',
      '  ▾ Tables 2',
      '    orders',
      '    (muted: Showing 1 of 2; search to find the others)',
      '  ▾ Views 1',
      '    (muted: Showing 0 of 1; search to find the others)',
    ]);
    const empty = new Map<string, Listing>([['audit', { state: 'done', objects: [] }]]);
    expect(summary(treeRows(input({ openContainers: new Set(['audit']), listings: empty })))).toContain(
      '    (muted: No objects.)',
    );
  });

  it('searches every object, case-insensitively, with the matching containers open', () => {
    const all: Listing = {
      state: 'done',
      objects: [...SALES, obj(['audit', 'orders_by_day'], 'index'), obj(['top_key'], 'string')],
    };
    expect(summary(treeRows(input({ needle: 'ORDERS', all })))).toEqual([
      '▾ audit 1',
      '  ▾ Indexes 1',
      '    orders_by_day',
      '▾ sales 2 ER',
      '  ▾ Tables 1',
      '    orders',
      '  ▾ Views 1',
      '    big_orders',
    ]);
    expect(summary(treeRows(input({ needle: 'top', all })))).toEqual([
      '▾ (top level) 1',
      '  ▾ Strings 1',
      '    top_key',
    ]);
    expect(summary(treeRows(input({ needle: 'zzz', all })))).toEqual([
      '    (muted: Nothing named like “zzz”.)',
    ]);
    // A bounded search answer that held back matches says so.
    const partial: Listing = { state: 'done', objects: SALES.slice(0, 2), truncated: true };
    expect(summary(treeRows(input({ needle: 'orders', all: partial })))).toEqual([
      '    (muted: Showing the first 2 matches: type more of the name)',
      '▾ sales 2 ER',
      '  ▾ Tables 1',
      '    orders',
      '  ▾ Views 1',
      '    big_orders',
    ]);
    expect(summary(treeRows(input({ needle: 'zzz', all: partial })))).toEqual([
      '    (muted: Nothing named like “zzz”.)',
      '    (muted: Showing the first 2 matches: type more of the name)',
    ]);
    expect(summary(treeRows(input({ needle: 'x', all: { state: 'pending' } })))).toEqual([
      '    (muted: Searching every object…)',
    ]);
  });

  it('moves with the keys of a tree widget, skipping notes', () => {
    const listings = new Map<string, Listing>([['sales', { state: 'done', objects: SALES }]]);
    const rows = treeRows(input({ listings, openContainers: new Set(['sales', 'audit']) }));
    // 0 ▾ audit, 1 (Loading…), 2 ▾ sales, 3 ▾ Tables, 4 customers, 5 orders, 6 ▾ Views, 7 big_orders
    expect(summary(rows)[1]).toBe('    (muted: Loading…)');
    expect(treeKey(rows, 0, 'ArrowDown')).toEqual({ focus: 2 });
    expect(treeKey(rows, 2, 'ArrowUp')).toEqual({ focus: 0 });
    expect(treeKey(rows, 0, 'ArrowUp')).toBeUndefined();
    expect(treeKey(rows, 4, 'Home')).toEqual({ focus: 0 });
    expect(treeKey(rows, 0, 'End')).toEqual({ focus: 7 });
    expect(treeKey(rows, 2, 'ArrowRight')).toEqual({ focus: 3 });
    // A table opens to show its parts; a view has none.
    expect(treeKey(rows, 5, 'ArrowRight')).toEqual({ toggle: 5 });
    expect(treeKey(rows, 7, 'ArrowRight')).toBeUndefined();
    expect(treeKey(rows, 7, 'ArrowLeft')).toEqual({ focus: 6 });
    expect(treeKey(rows, 6, 'ArrowLeft')).toEqual({ toggle: 6 });
    expect(treeKey(rows, 0, 'ArrowLeft')).toEqual({ toggle: 0 });
    expect(treeKey(rows, 3, 'Enter')).toBeUndefined();
    const closed = treeRows(input());
    expect(treeKey(closed, 1, 'ArrowRight')).toEqual({ toggle: 1 });
    expect(treeKey(closed, 1, 'ArrowLeft')).toBeUndefined();
  });

  it("shows an opened table's columns, indexes and foreign keys under it", () => {
    const listings = new Map<string, Listing>([['sales', { state: 'done', objects: SALES }]]);
    const rows = treeRows(
      input({
        listings,
        openContainers: new Set(['sales']),
        openTables: new Set(['sales\u0000orders', 'sales\u0000customers']),
        parts: new Map([
          [
            'sales\u0000orders',
            {
              state: 'done',
              columns: [
                { name: 'id', type: 'integer', isPrimary: true, nullable: false },
                { name: 'customer_id', type: 'integer', isPrimary: false, nullable: true },
              ],
              indexes: [{ name: 'orders_customer', columns: ['customer_id'], unique: false }],
              foreignKeys: [
                {
                  columnName: 'customer_id',
                  constraintName: 'fk_c',
                  referencedPath: ['sales', 'customers'],
                  referencedColumn: 'id',
                },
              ],
            },
          ],
        ]),
      }),
    );
    expect(summary(rows)).toEqual([
      '▸ audit 1',
      '▾ sales 3 ER',
      '  ▾ Tables 2',
      '    ▾ customers',
      '    (muted: Loading…)',
      '    ▾ orders',
      '      column id: integer · PK · not null',
      '      column customer_id: integer · FK',
      '      index orders_customer: (customer_id)',
      '      key fk_c: customer_id → sales.customers(id)',
      '  ▾ Views 1',
      '    big_orders',
    ]);
    const orders = rows.findIndex((r) => r.type === 'object' && r.object.name === 'orders');
    expect(treeKey(rows, orders + 3, 'ArrowLeft')).toEqual({ focus: orders });
  });

  it('names kind folders in the plural', () => {
    expect(
      ['table', 'index', 'key', 'collection', 'materialized_view', 'hash', 'policy'].map(kindLabel),
    ).toEqual(['Tables', 'Indexes', 'Keys', 'Collections', 'Materialized views', 'Hashes', 'Policies']);
  });
});
