// Plan formats the providers produce, read into trees with the hot path marked (the SQL Server XML reader
// needs a DOMParser and is covered in the browser).
import { describe, expect, it } from 'vitest';
import { erModel } from '../src/er/erModel';
import { parsePlan, typedPlanFormat } from '../src/plan/planTree';

const PG = [
  {
    'QUERY PLAN': [
      {
        Plan: {
          'Node Type': 'Hash Join',
          'Total Cost': 50,
          'Plan Rows': 100,
          'Actual Total Time': 4.5,
          'Actual Rows': 90,
          'Actual Loops': 1,
          'Hash Cond': '(o.customer_id = c.id)',
          Plans: [
            {
              'Node Type': 'Seq Scan',
              'Relation Name': 'orders',
              Alias: 'o',
              'Total Cost': 30,
              'Plan Rows': 1000,
              'Actual Total Time': 3,
              'Actual Loops': 1,
            },
            {
              'Node Type': 'Hash',
              'Total Cost': 10,
              'Actual Total Time': 0.5,
              'Actual Loops': 1,
              Plans: [{ 'Node Type': 'Seq Scan', 'Relation Name': 'customers', 'Total Cost': 9 }],
            },
          ],
        },
        'Planning Time': 0.2,
        'Execution Time': 4.8,
      },
    ],
  },
];

describe('plan trees', () => {
  it('reads PostgreSQL JSON plans with cost, rows and time, the hot path by time', () => {
    const p = parsePlan('postgres-json-analyze', PG);
    expect(p.metric).toBe('time');
    expect(p.executionMs).toBe(4.8);
    const root = p.roots[0];
    expect(root).toMatchObject({
      label: 'Hash Join',
      cost: 50,
      rows: 100,
      actualRows: 90,
      timeMs: 4.5,
      hot: true,
    });
    expect(root.extra['Hash Cond']).toBe('(o.customer_id = c.id)');
    expect(root.children.map((c) => [c.label, c.detail, !!c.hot])).toEqual([
      ['Seq Scan', 'on orders as o', true],
      ['Hash', undefined, false],
    ]);
  });

  it('reads SQLite query plans by parent id', () => {
    const p = parsePlan('sqlite-query-plan', [
      { id: 2, parent: 0, notused: 0, detail: 'SCAN o' },
      { id: 5, parent: 0, notused: 0, detail: 'SEARCH c USING INTEGER PRIMARY KEY (rowid=?)' },
      { id: 9, parent: 5, notused: 0, detail: 'USE TEMP B-TREE FOR ORDER BY' },
    ]);
    expect(p.roots.map((r) => [r.label, r.detail])).toEqual([
      ['SCAN', 'o'],
      ['SEARCH', 'c USING INTEGER PRIMARY KEY (rowid=?)'],
    ]);
    expect(p.roots[1].children[0].label).toBe('USE TEMP B-TREE');
    expect(p.metric).toBe('none');
  });

  it('knows a typed SQLite EXPLAIN QUERY PLAN result by its columns, and nothing else', () => {
    expect(typedPlanFormat(['id', 'parent', 'notused', 'detail'])).toBe('sqlite-query-plan');
    expect(typedPlanFormat(['id', 'parent', 'detail'])).toBeUndefined();
    expect(typedPlanFormat(['id', 'name'])).toBeUndefined();
  });

  it('reads MySQL JSON and EXPLAIN ANALYZE tree text', () => {
    const json = parsePlan('mysql-json', [
      {
        EXPLAIN: {
          query_block: {
            cost_info: { query_cost: '12.5' },
            nested_loop: [
              {
                table: {
                  table_name: 'o',
                  access_type: 'ALL',
                  rows_examined_per_scan: 100,
                  cost_info: { prefix_cost: '10.0' },
                },
              },
              {
                table: {
                  table_name: 'c',
                  access_type: 'eq_ref',
                  key: 'PRIMARY',
                  rows_examined_per_scan: 1,
                  cost_info: { prefix_cost: '12.5' },
                },
              },
            ],
          },
        },
      },
    ]);
    const qb = json.roots[0];
    expect(qb.cost).toBe(12.5);
    const loop = qb.children[0];
    expect(loop.label).toBe('nested loop');
    expect(loop.children.map((c) => [c.label, c.detail, c.rows])).toEqual([
      ['ALL', 'on o', 100],
      ['eq_ref', 'on c using PRIMARY', 1],
    ]);
    const tree = parsePlan('mysql-analyze-tree', [
      {
        EXPLAIN:
          '-> Nested loop inner join  (cost=2.2 rows=3) (actual time=0.05..0.09 rows=3 loops=1)\n    -> Table scan on o  (cost=0.55 rows=3) (actual time=0.02..0.03 rows=3 loops=1)\n    -> Single-row index lookup on c using PRIMARY (id=o.customer_id)  (cost=0.28 rows=1) (actual time=0.01..0.01 rows=1 loops=3)',
      },
    ]);
    expect(tree.roots[0]).toMatchObject({
      label: 'Nested loop inner join',
      cost: 2.2,
      actualRows: 3,
      hot: true,
    });
    expect(tree.roots[0].children.map((c) => [c.label, c.detail, c.loops])).toEqual([
      ['Table scan', 'on o', 1],
      ['Single-row index lookup', 'on c', 3],
    ]);
  });

  it('reads DuckDB JSON and Oracle DBMS_XPLAN tables', () => {
    const duck = parsePlan('duckdb-json', [
      {
        explain_key: 'physical_plan',
        explain_value: [
          {
            name: 'PROJECTION',
            extra_info: { 'Estimated Cardinality': '3' },
            children: [{ name: 'SEQ_SCAN ', extra_info: { Table: 't' }, children: [] }],
          },
        ],
      },
    ]);
    expect(duck.roots[0]).toMatchObject({ label: 'PROJECTION', rows: 3 });
    expect(duck.roots[0].children[0]).toMatchObject({ label: 'SEQ_SCAN', detail: 'on t' });
    const ora = parsePlan('oracle-xplan', [
      { PLAN_TABLE_OUTPUT: 'Plan hash value: 1' },
      { PLAN_TABLE_OUTPUT: '| Id  | Operation          | Name | Rows  | Bytes | Cost (%CPU)| Time     |' },
      { PLAN_TABLE_OUTPUT: '|   0 | SELECT STATEMENT   |      |     3 |    39 |     3   (0)| 00:00:01 |' },
      { PLAN_TABLE_OUTPUT: '|*  1 |  TABLE ACCESS FULL | T    |     3 |    39 |     3   (0)| 00:00:01 |' },
    ]);
    expect(ora.roots[0]).toMatchObject({ label: 'SELECT STATEMENT', rows: 3, cost: 3 });
    expect(ora.roots[0].children[0]).toMatchObject({ label: 'TABLE ACCESS FULL', detail: 'on T' });
  });

  it('answers no tree for an unknown format', () => {
    expect(parsePlan('something-new', [{ a: 1 }]).roots).toEqual([]);
  });
});

describe('ER model', () => {
  it('draws an edge per foreign key to a described table, and none to a missing one', () => {
    const t = (
      name: string,
      fks: { columnName: string; referencedPath?: string[]; referencedColumn?: string }[],
    ) => ({
      object: { path: ['main', name], name, kind: 'table' },
      columns: [{ name: 'id', type: 'INTEGER', nullable: false, isPrimary: true }],
      indexes: [],
      foreignKeys: fks,
    });
    const m = erModel([
      t('customers', []),
      t('orders', [
        { columnName: 'customer_id', referencedPath: ['main', 'customers'], referencedColumn: 'id' },
        { columnName: 'ghost_id', referencedPath: ['main', 'ghosts'], referencedColumn: 'id' },
      ]),
    ]);
    expect(m.tables.map((x) => x.id)).toEqual(['main.customers', 'main.orders']);
    expect(m.edges).toEqual([
      {
        id: 'main.orders.customer_id->main.customers',
        source: 'main.orders',
        target: 'main.customers',
        label: 'customer_id → id',
      },
    ]);
  });
});
