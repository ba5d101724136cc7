// Governance on the Couchbase engine (REST test double): read-only refusal with the data unchanged over a
// bypass corpus (case, spacing, comments, strings with and without backslash escapes, scripts, user-defined
// functions, unknown statements), guardrails held for approval, masking by document field path and object
// rules hiding a keyspace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { ALICE } from '../query/harness.js';
import { type CouchbaseFixture, couchbaseFixture, KS } from './couchbase-fixture.js';

let f: CouchbaseFixture;
let h: CouchbaseFixture['h'];
let query: CouchbaseFixture['query'];
let products: CouchbaseFixture['products'];

beforeAll(async () => {
  f = await couchbaseFixture();
  ({ h, query, products } = f);
});

afterAll(async () => {
  await f?.close();
});

describe('couchbase engine: governance', () => {
  const writes = [
    `DELETE FROM ${KS}.\`products\``,
    `delete from ${KS}.\`products\` where 1 = 1`,
    `UPSERT INTO ${KS}.\`products\` (KEY, VALUE) VALUES ('p1', {"name": "changed"})`,
    `  UpDaTe   ${KS}.\`products\` SET price = 0`,
    `SELECT 1 AS one; DELETE FROM ${KS}.\`products\``,
    `/* note */ DELETE FROM ${KS}.\`products\` USE KEYS 'p1'`,
    `SELECT 'x;' AS a; UPDATE ${KS}.\`products\` SET price = 0`,
    `MERGE INTO ${KS}.\`products\` t USING [{"id": "p1"}] s ON META(t).id = s.id WHEN MATCHED THEN DELETE`,
    `DROP PRIMARY INDEX ON ${KS}.\`products\``,
    `CREATE INDEX ix_price ON ${KS}.\`products\`(price)`,
    `SELECT my_udf() FROM ${KS}.\`products\``,
    `EXECUTE FUNCTION wipe()`,
    `FROBNICATE ${KS}.\`products\``,
    `SELECT "unterminated FROM ${KS}.\`products\``,
    `SELECT 'a\\'; DELETE FROM ${KS}.\`products\`; --' AS s`,
    `SELECT 1 AS one -- comment\n; DELETE FROM ${KS}.\`products\``,
  ];
  it.each(writes)('read-only refuses %j and nothing changes', async (sql) => {
    const r = await query('ro', sql);
    expect(r.statusCode, r.body).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(products().size).toBe(5);
    expect(products().get('p1')).toMatchObject({ name: 'Lamp', price: 20 });
  });

  it('a read-only datasource still reads (strings and comments hide nothing)', async () => {
    const r = await query('ro', `SELECT p.name FROM ${KS}.\`products\` AS p USE KEYS 'p2'`);
    expect(r.statusCode, r.body).toBe(200);
    for (const sql of [
      `SELECT 'x; DELETE FROM ${KS}.\`products\`' AS a`,
      `SELECT 1 AS a /* ; DELETE FROM ${KS}.\`products\` */`,
      `SELECT "it's; UPSERT" AS a -- ; DROP INDEX x`,
    ]) {
      const c = await classifyScript(sql, 'couchbase');
      expect(c.isWrite, sql).toBe(false);
    }
    const refused = await query('ro', `UPSERT INTO ${KS}.\`products\` (KEY, VALUE) VALUES ('p1', {"x": 1})`);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/READ_ONLY/);
  });

  it('maps guardrails and holds them on a guarded datasource', async () => {
    const c = async (sql: string) => (await classifyScript(sql, 'couchbase')).guardrails;
    expect(await c(`DELETE FROM ${KS}.\`products\``)).toEqual(['delete_without_where', 'delete']);
    expect(await c(`DELETE FROM ${KS}.\`products\` USE KEYS 'p1'`)).toEqual(['delete']);
    expect(await c(`UPDATE ${KS}.\`products\` SET a = 1`)).toEqual(['update_without_where']);
    expect(await c(`UPDATE ${KS}.\`products\` SET a = 1 WHERE name = 'x'`)).toEqual([]);
    expect(await c(`DROP INDEX ix ON ${KS}.\`products\``)).toEqual(['drop']);
    expect(await c('GRANT query_select ON `shop` TO bob')).toEqual(['grant']);
    expect(await c('REVOKE query_select ON `shop` FROM bob')).toEqual(['grant']);
    const explain = await classifyScript(`EXPLAIN DELETE FROM ${KS}.\`products\``, 'couchbase');
    expect(explain.isWrite).toBe(false);
    const build = await classifyScript(`BUILD INDEX ON ${KS}.\`products\`(ix)`, 'couchbase');
    expect(build.isWrite).toBe(true);
    const objects = (
      await classifyScript(`SELECT * FROM ${KS}.\`products\` JOIN shop c ON KEYS p.c`, 'couchbase')
    ).statements[0].objects;
    expect(objects.map((o) => `${o.schema}.${o.name}`)).toEqual(['inventory.products', '_default._default']);
    const held = await query('guarded', `DELETE FROM ${KS}.\`products\``);
    expect(held.statusCode, held.body).toBe(403);
    expect(held.body).toMatch(/APPROVAL_REQUIRED/);
    expect(held.body).toMatch(/delete_without_where/);
    expect(products().size).toBe(5);
  });

  it('a masked field cannot steer a WHERE', async () => {
    const r = await query(
      'masked',
      `SELECT c.name FROM ${KS}.\`customers\` AS c WHERE c.email = 'ada@example.com'`,
    );
    expect(r.statusCode, r.body).toBe(403);
    expect(r.body).toMatch(/MASKED_COLUMN_PREDICATE/);
  });

  it('masks a document field by name wherever it sits in the document', async () => {
    const r = await query('masked', `SELECT META(c).id AS __id, c.* FROM ${KS}.\`customers\` AS c`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows[0]).toMatchObject({ __id: 'c1', name: 'Ada', email: '****' });
    expect(r.json().rows[0].address).toEqual({ city: 'London', zip: 'N1', email: '****' });
    // SELECT * nests the whole document under the keyspace name: masked inside it too.
    const star = await query('masked', `SELECT * FROM ${KS}.\`customers\``);
    expect(star.statusCode, star.body).toBe(200);
    expect(star.json().rows[0].customers).toMatchObject({ name: 'Ada', email: '****' });
    const path = await query('masked', `SELECT c.address FROM ${KS}.\`customers\` AS c`);
    expect(path.json().rows[0].address.email).toBe('****');
    for (const body of [r.body, star.body, path.body]) expect(body).not.toMatch(/@example\.com/);
  });

  it('object rules hide a keyspace: refused in statements and left out of the object list', async () => {
    const r = await query('hidden', `SELECT * FROM ${KS}.\`secrets\``, {}, ALICE);
    expect(r.statusCode, r.body).toBe(403);
    const list = await h.post('/api/db/objects/list', { connectionId: 'hidden' }, ALICE);
    expect(list.statusCode, list.body).toBe(200);
    const names = list.json().objects.map((o: { name: string }) => o.name);
    expect(names).toContain('products');
    expect(names).not.toContain('secrets');
  });
});
