// The editor's pure parts: statements and the one under the cursor (per engine grammar), completion
// suggestions from the object surface, and tab bookkeeping.
import { describe, expect, it } from 'vitest';
import { suggest, tablesInStatement } from '../src/editor/completion';
import { splitStatements, statementAt } from '../src/editor/statements';
import { addTab, closeTab, newTab, updateTab } from '../src/editor/tabs';

const SCRIPT = "select 1;\nselect 'a;b' from t; -- x;y\n\nupdate t set a = 2 where id = 3;";

describe('statements', () => {
  it('splits a script under the grammar, keeping strings and comments whole', () => {
    expect(splitStatements(SCRIPT, 'sqlite').map((s) => s.text)).toEqual([
      'select 1',
      "select 'a;b' from t",
      '-- x;y\n\nupdate t set a = 2 where id = 3',
    ]);
    expect(splitStatements('   ', 'postgres')).toEqual([]);
  });

  it('keeps PostgreSQL dollar quotes and MongoDB JSON whole', () => {
    const fn = 'create function f() returns int as $$ select 1; $$ language sql; select f()';
    expect(splitStatements(fn, 'postgres')).toHaveLength(2);
    const mongo = '{"collection": "a;b", "operation": "find"}';
    expect(splitStatements(mongo, 'mongodb').map((s) => s.text)).toEqual([mongo]);
    // SQL++: backslash escapes in strings and `…` identifiers hide their semicolons.
    const n1ql = "SELECT 'it\\'s; x' AS a FROM `b;c`.`s`.`c`; DELETE FROM `b`.`s`.`c` USE KEYS 'k'";
    expect(splitStatements(n1ql, 'couchbase').map((s) => s.text)).toEqual([
      "SELECT 'it\\'s; x' AS a FROM `b;c`.`s`.`c`",
      "DELETE FROM `b`.`s`.`c` USE KEYS 'k'",
    ]);
  });

  it('finds the statement under the cursor, or the one just written after its semicolon', () => {
    const at = (offset: number) => statementAt(SCRIPT, 'sqlite', offset)?.text;
    expect(at(3)).toBe('select 1');
    expect(at(SCRIPT.indexOf("'a;b'") + 2)).toBe("select 'a;b' from t");
    expect(at(SCRIPT.indexOf('update') + 4)).toContain('update t set a = 2');
    expect(at(SCRIPT.length)).toContain('update t set a = 2');
    expect(statementAt('', 'sqlite', 0)).toBeUndefined();
  });

  it('gives offsets that slice back to the statement text', () => {
    for (const s of splitStatements(SCRIPT, 'postgres')) expect(SCRIPT.slice(s.start, s.end)).toBe(s.text);
  });
});

describe('completion', () => {
  const objects = [
    { path: ['main', 'customers'], name: 'customers', kind: 'table' },
    { path: ['main', 'orders'], name: 'orders', kind: 'table' },
    { path: ['main', 'big_orders'], name: 'big_orders', kind: 'view' },
  ];
  const cols: Record<string, { name: string; type: string; nullable: boolean; isPrimary: boolean }[]> = {
    customers: [
      { name: 'id', type: 'INTEGER', nullable: false, isPrimary: true },
      { name: 'city', type: 'TEXT', nullable: true, isPrimary: false },
    ],
  };
  const source = { objects, keywords: ['SELECT', 'FROM'], columns: (t: string) => cols[t] };

  it('reads tables and aliases a statement names', () => {
    expect([
      ...tablesInStatement('select * from main.customers c join orders on x where 1').entries(),
    ]).toEqual([
      ['customers', 'customers'],
      ['c', 'customers'],
      ['orders', 'orders'],
    ]);
  });

  it('offers tables, views, schemas and keywords, columns of named tables first', () => {
    const s = suggest('select ci', 'select ci from customers', source);
    expect(s[0]).toEqual({ label: 'id', kind: 'column', detail: 'customers.id INTEGER' });
    expect(s.map((x) => x.label)).toEqual(
      expect.arrayContaining(['city', 'customers', 'orders', 'big_orders', 'main', 'SELECT']),
    );
    expect(s.find((x) => x.label === 'big_orders')?.kind).toBe('view');
  });

  it('after a schema and a dot offers its objects; after an alias and a dot the columns', () => {
    expect(suggest('select * from main.', 'select * from main.', source).map((x) => x.label)).toEqual([
      'customers',
      'orders',
      'big_orders',
    ]);
    expect(suggest('select c.', 'select c. from customers c', source).map((x) => x.label)).toEqual([
      'id',
      'city',
    ]);
    expect(suggest('select z.', 'select z. from nowhere z', source)).toEqual([]);
  });
});

describe('tabs', () => {
  it('adds numbered tabs, closes to a neighbour, never to none', () => {
    const first = newTab(1, 'select 1');
    let s = { tabs: [first], activeId: first.id };
    s = addTab(s, 'select 2');
    expect(s.tabs.map((t) => t.title)).toEqual(['Query 1', 'Query 2']);
    expect(s.activeId).toBe(s.tabs[1].id);
    s = updateTab(s, s.activeId, { sql: 'select 3', params: ['1'] });
    expect(s.tabs[1]).toMatchObject({ sql: 'select 3', params: ['1'] });
    s = closeTab(s, s.activeId);
    expect(s.activeId).toBe(first.id);
    s = closeTab(s, first.id);
    expect(s.tabs).toHaveLength(1);
    expect(s.tabs[0].sql).toBe('');
  });
});
