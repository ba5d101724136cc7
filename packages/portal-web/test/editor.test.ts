// The editor's pure parts: statements and the one under the cursor (per engine grammar), completion
// suggestions from the object surface, and tab bookkeeping.
import { describe, expect, it } from 'vitest';
import { editorMeta } from '../../portal-server/src/providers/editor-facts.js';
import { engineFor } from '../../portal-server/src/providers/registry.js';
import { suggest, tableRefsInStatement } from '../src/editor/completion';
import { LOOKUP_LIMIT, objectLookup } from '../src/editor/objectLookup';
import { splitStatements, statementAt } from '../src/editor/statements';
import { addTab, closeTab, newTab, updateTab } from '../src/editor/tabs';

/** An engine's editor facts as provider-meta answers them (through JSON, as the browser gets them). */
const facts = (engine: string) => JSON.parse(JSON.stringify(editorMeta(engineFor(engine))));

const SCRIPT = "select 1;\nselect 'a;b' from t; -- x;y\n\nupdate t set a = 2 where id = 3;";

describe('statements', () => {
  it('splits a script under the grammar, keeping strings and comments whole', () => {
    expect(splitStatements(SCRIPT, facts('sqlite')).map((s) => s.text)).toEqual([
      'select 1',
      "select 'a;b' from t",
      '-- x;y\n\nupdate t set a = 2 where id = 3',
    ]);
    expect(splitStatements('   ', facts('postgres'))).toEqual([]);
  });

  it('keeps PostgreSQL dollar quotes and MongoDB JSON whole', () => {
    const fn = 'create function f() returns int as $$ select 1; $$ language sql; select f()';
    expect(splitStatements(fn, facts('postgres'))).toHaveLength(2);
    const mongo = '{"collection": "a;b", "operation": "find"}';
    expect(splitStatements(mongo, facts('mongodb')).map((s) => s.text)).toEqual([mongo]);
    // SQL++: backslash escapes in strings and `…` identifiers hide their semicolons.
    const n1ql = "SELECT 'it\\'s; x' AS a FROM `b;c`.`s`.`c`; DELETE FROM `b`.`s`.`c` USE KEYS 'k'";
    expect(splitStatements(n1ql, facts('couchbase')).map((s) => s.text)).toEqual([
      "SELECT 'it\\'s; x' AS a FROM `b;c`.`s`.`c`",
      "DELETE FROM `b`.`s`.`c` USE KEYS 'k'",
    ]);
  });

  it('finds the statement under the cursor, or the one just written after its semicolon', () => {
    const at = (offset: number) => statementAt(SCRIPT, facts('sqlite'), offset)?.text;
    expect(at(3)).toBe('select 1');
    expect(at(SCRIPT.indexOf("'a;b'") + 2)).toBe("select 'a;b' from t");
    expect(at(SCRIPT.indexOf('update') + 4)).toContain('update t set a = 2');
    expect(at(SCRIPT.length)).toContain('update t set a = 2');
    expect(statementAt('', facts('sqlite'), 0)).toBeUndefined();
  });

  it('gives offsets that slice back to the statement text', () => {
    for (const s of splitStatements(SCRIPT, facts('postgres')))
      expect(SCRIPT.slice(s.start, s.end)).toBe(s.text);
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
  /** What the source was asked, to check that completion asks for the word and the schema only. */
  const asked: Array<[string, string | undefined]> = [];
  const source = {
    keywords: ['SELECT', 'FROM'],
    schemas: ['main'],
    objects: async (word: string, schema?: string) => {
      asked.push([word, schema]);
      const inSchema = objects.filter((o) => schema === undefined || o.path[0] === schema);
      return { objects: inSchema.filter((o) => o.name.includes(word.toLowerCase())), complete: true };
    },
    columns: async (t: string) => cols[t],
  };

  it('reads tables and aliases a statement names, with their schema', () => {
    expect(
      [...tableRefsInStatement('select * from main.customers c join orders on x where 1')].map(
        ([name, ref]) => [name, ref.table],
      ),
    ).toEqual([
      ['customers', 'customers'],
      ['c', 'customers'],
      ['orders', 'orders'],
    ]);
    expect(tableRefsInStatement('select * from "Main"."Customers" c').get('c')).toEqual({
      table: 'customers',
      schema: 'main',
    });
  });

  it('offers the objects holding the typed word, schemas and keywords, columns of named tables first', async () => {
    asked.length = 0;
    const s = await suggest('select ci', 'select ci from customers', source);
    expect(s.items[0]).toEqual({ label: 'id', kind: 'column', detail: 'customers.id INTEGER' });
    expect(s.items.map((x) => x.label)).toEqual(expect.arrayContaining(['city', 'main', 'SELECT']));
    expect(s.items.map((x) => x.label)).not.toContain('orders');
    expect(asked).toEqual([['ci', undefined]]);
    const all = await suggest('select * from ', 'select * from ', source);
    expect(all.items.find((x) => x.label === 'big_orders')?.kind).toBe('view');
    expect(all.complete).toBe(true);
  });

  it('after a schema and a dot offers its objects; after an alias and a dot the columns', async () => {
    const labels = async (before: string, full: string) =>
      (await suggest(before, full, source)).items.map((x) => x.label);
    asked.length = 0;
    expect(await labels('select * from main.', 'select * from main.')).toEqual([
      'customers',
      'orders',
      'big_orders',
    ]);
    expect(asked).toEqual([['', 'main']]);
    expect(await labels('select * from MAIN.ord', 'select * from MAIN.ord')).toEqual([
      'orders',
      'big_orders',
    ]);
    expect(await labels('select c.', 'select c. from customers c')).toEqual(['id', 'city']);
    expect(await labels('select z.', 'select z. from nowhere z')).toEqual([]);
  });

  it('passes on that more objects matched than were fetched', async () => {
    const s = await suggest('select * from t', 'select * from t', {
      ...source,
      objects: async () => ({ objects: objects.slice(0, 1), complete: false }),
    });
    expect(s.complete).toBe(false);
  });
});

describe('object lookup', () => {
  const table = (schema: string, name: string) => ({ path: [schema, name], name, kind: 'table' });
  // 10,000 tables in `public` and a few in `audit`: the lookup must never list them whole.
  const catalog = [
    ...Array.from({ length: 10_000 }, (_, i) => table('public', `t${String(i).padStart(5, '0')}`)),
    table('audit', 'events'),
    table('public', 'events'),
  ];
  const setup = () => {
    const lists: Array<{ path?: string[]; search?: string; limit: number }> = [];
    const describes: string[][] = [];
    const lookup = objectLookup({
      async list(body) {
        lists.push(body);
        const matched = catalog.filter(
          (o) =>
            (!body.path || o.path[0] === body.path[0]) &&
            (!body.search || o.name.toLowerCase().includes(body.search)),
        );
        return { objects: matched.slice(0, body.limit), truncated: matched.length > body.limit };
      },
      async describe(path) {
        describes.push(path);
        return { columns: [{ name: `${path[0]}_id`, type: 'int', nullable: false, isPrimary: true }] };
      },
      containers: () => [['audit'], ['public']],
    });
    return { lists, describes, lookup };
  };

  it('asks for one bounded word at a time, and a complete answer serves longer words without a request', async () => {
    const { lists, lookup } = setup();
    const first = await lookup.objects('');
    expect(first.objects).toHaveLength(LOOKUP_LIMIT);
    expect(first.complete).toBe(false);
    expect(lists).toEqual([{ path: ['public'], limit: LOOKUP_LIMIT }]);
    expect((await lookup.objects('T0999')).objects.map((o) => o.name)).toHaveLength(10);
    expect(lists[1]).toEqual({ search: 't0999', limit: LOOKUP_LIMIT });
    expect((await lookup.objects('t09991')).objects.map((o) => o.name)).toEqual(['t09991']);
    expect((await lookup.objects('t0999')).objects).toHaveLength(10);
    expect(lists).toHaveLength(2);
    expect((await lookup.objects('', 'AUDIT')).objects.map((o) => o.name)).toEqual(['events']);
    expect((await lookup.objects('', 'nowhere')).objects).toEqual([]);
    expect(lists).toHaveLength(3);
  });

  it('describes a named table once, in the current schema when the name is in several', async () => {
    const { describes, lookup } = setup();
    expect((await lookup.columns('EVENTS'))?.map((c) => c.name)).toEqual(['public_id']);
    expect((await lookup.columns('events', 'audit'))?.map((c) => c.name)).toEqual(['audit_id']);
    await lookup.columns('events');
    expect(describes).toEqual([
      ['public', 'events'],
      ['audit', 'events'],
    ]);
    expect(await lookup.columns('no_such_table')).toBeUndefined();
  });

  it('forgets a failed read so the next keystroke asks again', async () => {
    let fail = true;
    const lookup = objectLookup({
      async list() {
        if (fail) throw new Error('down');
        return { objects: [table('public', 'a')], truncated: false };
      },
      describe: async () => ({ columns: [] }),
      containers: () => [['public']],
    });
    await expect(lookup.objects('a')).rejects.toThrow('down');
    fail = false;
    expect((await lookup.objects('a')).objects).toHaveLength(1);
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
