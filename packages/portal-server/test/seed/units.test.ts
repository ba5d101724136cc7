// The pure parts of seed data, table-driven: check constraints as both engines print them, the fill order
// with its cycle notes, the statements' quoting and batch bounds, MySQL enum lists, and the generator's
// respect for ranges, lists, lengths, uniqueness and foreign-key pools.
import { en, Faker } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { mysqlEnumValues } from '../../src/seed/catalog.js';
import { readChecks } from '../../src/seed/checks.js';
import { planSeed } from '../../src/seed/plan.js';
import { RowGenerator } from '../../src/seed/rows.js';
import { batchRows, insertSql, truncateSql } from '../../src/seed/statements.js';
import type { SeedColumn, SeedSchema, SeedTable } from '../../src/seed/types.js';

const col = (name: string, type: string, extra: Partial<SeedColumn> = {}): SeedColumn => ({
  name,
  type,
  nullable: false,
  generated: false,
  computed: false,
  identity: false,
  hasDefault: false,
  ...extra,
});
const table = (name: string, columns: SeedColumn[], extra: Partial<SeedTable> = {}): SeedTable => ({
  name,
  columns,
  primaryKey: [],
  unique: [],
  checks: [],
  foreignKeys: [],
  ...extra,
});

describe('check constraints', () => {
  it.each([
    ['CHECK ((price > (0)::numeric))', 'price', { min: 0, minInclusive: false }],
    [
      'CHECK (((age >= 18) AND (age <= 120)))',
      'age',
      { min: 18, minInclusive: true, max: 120, maxInclusive: true },
    ],
    ['`qty` between 0 and 10000', 'qty', { min: 0, max: 10000 }],
    [
      "CHECK (((status)::text = ANY ((ARRAY['new'::character varying, 'paid'::character varying])::text[])))",
      'status',
      { values: ['new', 'paid'] },
    ],
    ["`status` in ('new','paid','shipped')", 'status', { values: ['new', 'paid', 'shipped'] }],
    ['CHECK ((char_length((code)::text) >= 6))', 'code', { minLength: 6 }],
    ['char_length(`code`) >= 6', 'code', { minLength: 6 }],
    ['json_valid(`doc`)', 'doc', { json: true }],
    ['CHECK ((10 >= rating))', 'rating', { max: 10, maxInclusive: true }],
  ])('%s', (def, column, rule) => {
    const r = readChecks([def]);
    expect(r.unknown).toEqual([]);
    expect(r.columns.get(column)).toMatchObject(rule);
  });

  it('reads cross-column comparisons and leaves disjunctions to the database', () => {
    const r = readChecks(['CHECK ((ends >= starts))', 'CHECK (((a > 1) OR (b > 1)))']);
    expect(r.cross).toEqual([{ left: 'ends', op: '>=', right: 'starts' }]);
    expect(r.unknown).toHaveLength(1);
  });
});

describe('fill order', () => {
  const fk = (name: string, columns: string[], refTable: string) => ({
    name,
    columns,
    refTable,
    refColumns: ['id'],
  });
  const schema: SeedSchema = {
    schema: 's',
    tables: [
      table('orders', [col('id', 'integer'), col('customer_id', 'integer')], {
        foreignKeys: [fk('o_c', ['customer_id'], 'customers')],
      }),
      table('customers', [col('id', 'integer'), col('referrer', 'integer', { nullable: true })], {
        foreignKeys: [fk('c_self', ['referrer'], 'customers')],
      }),
      table('a', [col('id', 'integer'), col('b_id', 'integer', { nullable: true })], {
        foreignKeys: [fk('a_b', ['b_id'], 'b')],
      }),
      table('b', [col('id', 'integer'), col('a_id', 'integer')], { foreignKeys: [fk('b_a', ['a_id'], 'a')] }),
      table('x', [col('id', 'integer'), col('y_id', 'integer')], { foreignKeys: [fk('x_y', ['y_id'], 'y')] }),
      table('y', [col('id', 'integer'), col('x_id', 'integer')], { foreignKeys: [fk('y_x', ['x_id'], 'x')] }),
    ],
  };

  it('puts parents first, breaks cycles through nullable keys, and says what it could not break', () => {
    const plan = planSeed(schema, { counts: { customers: 5 }, ratios: { orders: 3 } });
    const order = plan.tables.map((t) => t.name);
    expect(order.indexOf('customers')).toBeLessThan(order.indexOf('orders'));
    expect(order.indexOf('a')).toBeLessThan(order.indexOf('b'));
    expect(plan.tables.find((t) => t.name === 'a')).toMatchObject({ dependsOn: [], deferredKeys: ['a_b'] });
    expect(plan.tables.find((t) => t.name === 'b')?.dependsOn).toEqual(['a']);
    expect(plan.tables.find((t) => t.name === 'customers')).toMatchObject({
      rows: 5,
      deferredKeys: ['c_self'],
    });
    expect(plan.tables.find((t) => t.name === 'orders')?.rows).toBe(15);
    expect(plan.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^customers references itself/),
        expect.stringMatching(/^cycle a -> b -> a broken through the nullable key a\.a_b/),
        expect.stringMatching(/^cycle x -> y -> x has no nullable key and cannot be broken/),
      ]),
    );
  });
});

describe('statements', () => {
  it('quotes per family and bounds batches by the placeholder limit', () => {
    expect(insertSql('postgres', 's', 't"x', ['a', 'b'], 2)).toBe(
      'INSERT INTO "s"."t""x" ("a", "b") VALUES ($1, $2), ($3, $4)',
    );
    expect(insertSql('mysql', 'd', 't', ['a'], 2)).toBe('INSERT INTO `d`.`t` (`a`) VALUES (?), (?)');
    expect(insertSql('postgres', 's', 't', [], 1)).toBe('INSERT INTO "s"."t" DEFAULT VALUES');
    expect(batchRows(10) * 10).toBeLessThanOrEqual(65535);
    expect(batchRows(200) * 200).toBeLessThanOrEqual(65535);
    expect(truncateSql('postgres', 's', ['a', 'b'])).toEqual([
      'TRUNCATE TABLE "s"."a", "s"."b" RESTART IDENTITY',
    ]);
    expect(truncateSql('mysql', 'd', ['a'])[0]).toBe('SET FOREIGN_KEY_CHECKS = 0');
    expect(mysqlEnumValues("enum('a','it''s')")).toEqual(['a', "it's"]);
  });
});

describe('row generator', () => {
  it('keeps values inside checks, lengths and enums, unique, and drawn from parent pools', () => {
    const faker = new Faker({ locale: [en] });
    faker.seed(7);
    const t = table(
      'people',
      [
        col('id', 'integer', { generated: true }),
        col('email', 'character varying', { maxLength: 40 }),
        col('code', 'character', { maxLength: 2 }),
        col('age', 'integer'),
        col('kind', 'enum', { enumValues: ['a', 'b'] }),
        col('team_id', 'integer'),
        col('starts', 'date'),
        col('ends', 'date'),
      ],
      {
        unique: [['email'], ['code']],
        checks: ['CHECK ((age >= 30) AND (age <= 40))', 'CHECK ((ends > starts))'],
        foreignKeys: [{ name: 'p_t', columns: ['team_id'], refTable: 'teams', refColumns: ['id'] }],
      },
    );
    const gen = new RowGenerator(t, {
      faker,
      family: 'postgres',
      runTag: 'zz',
      deferred: new Set(),
      pools: new Map([['p_t', [[11], [12]]]]),
      starts: new Map(),
    });
    expect(gen.columns).not.toContain('id');
    const rows = Array.from({ length: 300 }, () => gen.next()).filter((r): r is unknown[] => r !== undefined);
    expect(rows).toHaveLength(300);
    const at = (c: string) => gen.columns.indexOf(c);
    expect(new Set(rows.map((r) => r[at('email')])).size).toBe(300);
    expect(new Set(rows.map((r) => r[at('code')])).size).toBe(300);
    for (const r of rows) {
      expect(String(r[at('email')]).length).toBeLessThanOrEqual(40);
      expect(String(r[at('code')]).length).toBeLessThanOrEqual(2);
      expect(r[at('age')]).toBeGreaterThanOrEqual(30);
      expect(r[at('age')]).toBeLessThanOrEqual(40);
      expect(['a', 'b']).toContain(r[at('kind')]);
      expect([11, 12]).toContain(r[at('team_id')]);
      expect(String(r[at('ends')]) > String(r[at('starts')])).toBe(true);
    }
  });

  it('gives up on rows when a one-to-one parent pool runs out instead of repeating a key', () => {
    const t = table('payments', [col('order_id', 'integer')], {
      unique: [['order_id']],
      foreignKeys: [{ name: 'p_o', columns: ['order_id'], refTable: 'orders', refColumns: ['id'] }],
    });
    const gen = new RowGenerator(t, {
      faker: new Faker({ locale: [en] }),
      family: 'mysql',
      runTag: 'zz',
      deferred: new Set(),
      pools: new Map([['p_o', [[1], [2], [3]]]]),
      starts: new Map(),
    });
    const rows = Array.from({ length: 5 }, () => gen.next());
    expect(
      rows
        .filter(Boolean)
        .map((r) => r?.[0])
        .sort(),
    ).toEqual(['1', '2', '3']);
    expect(rows.filter((r) => r === undefined)).toHaveLength(2);
  });
});
