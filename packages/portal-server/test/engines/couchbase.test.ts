// The Couchbase engine against the REST test double (test/doubles/couchbase.ts: a management port whose
// cluster map advertises a separate query port), through the HTTP routes: SQL++ results with the key as
// __id, auto-limit and paging, exact 64-bit integers, the no-index error with its remedy, request-plus
// consistency, governance (read-only refusal with data unchanged, guardrails held, masking by field,
// object rules hiding a keyspace), export with flattened fields, objects, health, maintenance with a target,
// the query timeout (408) and the classifier's corpus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { parseExactJson } from '../../src/providers/couchbase/client.js';
import { selectFacts } from '../../src/providers/couchbase/statement.js';
import { CouchbaseDouble } from '../doubles/couchbase.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE, eventually } from '../query/harness.js';

const BIG = 9007199254740993n;
const cb = new CouchbaseDouble({
  user: 'portal',
  password: 'secret-pw',
  bucket: 'shop',
  data: {
    inventory: {
      products: {
        p1: { name: 'Lamp', price: 20, stock: BIG as unknown as number },
        p2: { name: 'Desk', price: 150, stock: 3 },
        p3: { name: 'Chair', price: 80, stock: 7 },
        p4: { name: 'Shelf', price: 60, stock: 1 },
        p5: { name: 'Rug', price: 35, stock: 0 },
      },
      customers: {
        c1: {
          name: 'Ada',
          email: 'ada@example.com',
          address: { city: 'London', zip: 'N1', email: 'home@example.com' },
        },
        c2: { name: 'Grace', email: 'grace@example.com', address: { city: 'Arlington', zip: '22201' } },
      },
      secrets: { s1: { token: 'do-not-show' } },
      noidx: { n1: { v: 1 } },
      slow: { x: { v: 1 } },
    },
  },
  unindexed: ['inventory.noidx'],
});
let connection: Record<string, unknown>;
let h: GovernedHarness;
const KS = '`shop`.`inventory`';

beforeAll(async () => {
  await cb.start();
  connection = {
    type: 'couchbase',
    host: '127.0.0.1',
    port: cb.mgmtPort,
    user: 'portal',
    password: 'secret-pw',
    database: 'shop',
  };
  h = await governed(
    [
      managedDs('rw', connection, { guardrails: false }),
      managedDs('ro', connection, { readOnly: true }),
      managedDs('guarded', connection, {}),
      managedDs('masked', connection, { guardrails: false, masking: [{ column: '*.email', rule: 'full' }] }),
      managedDs('hidden', connection, { guardrails: false, objectRules: { hidden: ['inventory.secrets'] } }),
    ],
    { storage: true },
  );
});

afterAll(async () => {
  await h?.close();
  await cb.stop();
});

const query = (
  connectionId: string,
  sql: string,
  extra: Record<string, unknown> = {},
  user: typeof ADMIN | typeof ALICE = ADMIN,
) => h.post('/api/db/query', { connectionId, sql, ...extra }, user);
const products = () => cb.collection({ bucket: 'shop', scope: 'inventory', collection: 'products' })!;

describe('couchbase engine: queries over REST', () => {
  it('discovers the query port from the cluster map and sends request-plus consistency', async () => {
    const r = await query(
      'rw',
      `SELECT META(p).id AS __id, p.name FROM ${KS}.\`products\` AS p WHERE p.name = 'Desk'`,
    );
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().fields).toEqual(['__id', 'name']);
    expect(r.json().rows).toEqual([{ __id: 'p2', name: 'Desk' }]);
    expect(cb.queryPort).not.toBe(cb.mgmtPort);
    const sent = cb.requests.at(-1)!;
    expect(sent.scan_consistency).toBe('request_plus');
    expect(sent.readonly).toBe(true);
    expect(sent.timeout).toBe('60000ms');
  });

  it('SELECT * nests the document; integers beyond 2^53 arrive as exact strings', async () => {
    const r = await query('rw', `SELECT * FROM ${KS}.\`products\` USE KEYS 'p1'`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().fields).toEqual(['products']);
    expect(r.json().rows[0].products).toEqual({ name: 'Lamp', price: 20, stock: BIG.toString() });
    expect(parseExactJson('{"a":"12345678901234567890","b":12345678901234567890,"c":1.5}')).toEqual({
      a: '12345678901234567890',
      b: '12345678901234567890',
      c: 1.5,
    });
  });

  it('auto-limits with LIMIT/OFFSET and pages with hasMore', async () => {
    const sql = `SELECT META(p).id AS __id, p.price FROM ${KS}.\`products\` AS p`;
    const first = await query('rw', sql, { options: { limit: 2 } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().rows.map((x: { __id: string }) => x.__id)).toEqual(['p1', 'p2']);
    expect(first.json().pagination).toMatchObject({ hasMore: true, wasLimited: true, limit: 2 });
    expect(String(cb.requests.at(-1)!.statement)).toMatch(/\nLIMIT 3$/);
    const last = await query('rw', sql, { options: { limit: 2, offset: 4 } });
    expect(last.json().rows.map((x: { __id: string }) => x.__id)).toEqual(['p5']);
    expect(last.json().pagination).toMatchObject({ hasMore: false, offset: 4 });
    const own = await query('rw', `${sql} LIMIT 1`);
    expect(own.json().rows).toHaveLength(1);
    expect(own.json().pagination.wasLimited).toBe(false);
    expect(selectFacts(`${sql} ORDER BY p.price`)).toMatchObject({
      kind: 'select',
      hasOrderBy: true,
      hasLimit: false,
    });
  });

  it('a keyspace without a usable index is 400 QUERY_ERROR carrying the create-index remedy', async () => {
    const r = await query('rw', `SELECT * FROM ${KS}.\`noidx\` WHERE v = 1`);
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code ?? r.body).toMatch(/QUERY_ERROR/);
    expect(r.body).toMatch(/CREATE PRIMARY INDEX ON/);
  });

  it('writes: UPSERT, UPDATE with USE KEYS and DELETE with WHERE answer their mutation counts', async () => {
    const up = await query(
      'rw',
      `UPSERT INTO ${KS}.\`products\` (KEY, VALUE) VALUES ('p9', {"name": "Vase", "price": 12})`,
    );
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().rowCount).toBe(1);
    const upd = await query('rw', `UPDATE ${KS}.\`products\` USE KEYS 'p9' SET price = 13`);
    expect(upd.json().rowCount).toBe(1);
    expect(products().get('p9')).toEqual({ name: 'Vase', price: 13 });
    const del = await query('rw', `DELETE FROM ${KS}.\`products\` WHERE name = 'Vase'`);
    expect(del.statusCode, del.body).toBe(200);
    expect(products().has('p9')).toBe(false);
  });

  it('stops a statement at queryTimeout with 408 and the engine request is gone', async () => {
    const r = await h.post(
      '/api/db/query',
      {
        connection: { id: 'slowconn', ...connection, queryTimeout: 300 },
        sql: `SELECT * FROM ${KS}.\`slow\``,
      },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(408);
    await eventually(async () => cb.active.size === 0);
  });

  it('cancel stops a running statement on the server; explain answers the plan', async () => {
    const running = h.post(
      '/api/db/query',
      {
        connection: { id: 'cancelconn', ...connection, queryTimeout: 120_000 },
        sql: `SELECT * FROM ${KS}.\`slow\``,
        queryId: 'cb-cancel-1',
      },
      ADMIN,
    );
    await eventually(async () => cb.active.size === 1);
    const c = await h.post('/api/db/cancel', { queryId: 'cb-cancel-1' }, ADMIN);
    expect(c.statusCode, c.body).toBe(200);
    const r = await running;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.body).toMatch(/QUERY_CANCELLED/);
    await eventually(async () => cb.active.size === 0);
    const ex = await query('rw', `SELECT p.name FROM ${KS}.\`products\` AS p`, {
      explain: { mode: 'estimate' },
    });
    expect(ex.statusCode, ex.body).toBe(200);
    expect(ex.json().explainFormat).toBe('json');
    expect(String(cb.requests.at(-1)!.statement)).toMatch(/^EXPLAIN SELECT p\.name/);
  });

  it('bad credentials are 503 AUTHENTICATION_ERROR; a missing bucket 400', async () => {
    const bad = await h.post(
      '/api/db/test-connection',
      { connection: { id: 'bad', ...connection, password: 'nope' } },
      ADMIN,
    );
    expect(bad.statusCode, bad.body).toBe(503);
    expect(bad.body).not.toMatch(/nope/);
    const noBucket = await h.post(
      '/api/db/test-connection',
      { connection: { id: 'nb', ...connection, database: '' } },
      ADMIN,
    );
    expect(noBucket.statusCode).toBe(400);
  });
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

describe('couchbase engine: export, objects, health, maintenance', () => {
  it('exports json and csv with nested fields flattened; sql formats are refused', async () => {
    const sql = `SELECT META(c).id AS __id, c.* FROM ${KS}.\`customers\` AS c`;
    const csv = await h.post('/api/db/export', { connectionId: 'masked', sql, format: 'csv' }, ADMIN);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('2');
    const [head, first] = csv.body.split(/\r?\n/);
    expect(head.split(',')).toEqual([
      '__id',
      'name',
      'email',
      'address.city',
      'address.zip',
      'address.email',
    ]);
    expect(first).toBe('c1,Ada,****,London,N1,****');
    const star = await h.post(
      '/api/db/export',
      { connectionId: 'masked', sql: `SELECT * FROM ${KS}.\`customers\``, format: 'csv' },
      ADMIN,
    );
    expect(star.statusCode, star.body).toBe(200);
    expect(star.body.split(/\r?\n/)[0]).toBe(
      'customers.name,customers.email,customers.address.city,customers.address.zip,customers.address.email',
    );
    expect(star.body).not.toMatch(/@example\.com/);
    const json = await h.post('/api/db/export', { connectionId: 'rw', sql, format: 'json' }, ADMIN);
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.body)[1]).toMatchObject({ __id: 'c2', 'address.city': 'Arlington' });
    const ddl = await h.post('/api/db/export', { connectionId: 'rw', sql, format: 'sql-ddl' }, ADMIN);
    expect(ddl.statusCode, ddl.body).toBe(400);
    const write = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: `DELETE FROM ${KS}.\`products\``, format: 'csv' },
      ADMIN,
    );
    expect(write.statusCode).toBe(400);
    expect(products().size).toBe(5);
  });

  it('lists scopes and collections, counts them and describes one with its key, fields and indexes', async () => {
    const inv = await h.post('/api/db/objects/inventory', { connectionId: 'rw' }, ADMIN);
    expect(inv.statusCode, inv.body).toBe(200);
    expect(inv.json().containers).toEqual([{ path: ['inventory'], name: 'inventory', kind: 'schema' }]);
    expect(inv.json().objects).toContainEqual({
      path: ['inventory', 'customers'],
      name: 'customers',
      kind: 'collection',
    });
    const counts = await h.post('/api/db/objects/counts', { connectionId: 'rw' }, ADMIN);
    expect(counts.json().counts ?? counts.json()).toEqual(
      expect.arrayContaining([{ path: ['inventory'], kind: 'collection', count: 5 }]),
    );
    const d = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: ['inventory', 'customers'] },
      ADMIN,
    );
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().columns.map((c: { name: string }) => c.name)).toEqual([
      '__id',
      'name',
      'email',
      'address',
    ]);
    expect(d.json().columns[0]).toMatchObject({ isPrimary: true });
    expect(d.json().indexes).toEqual([{ name: '#primary', columns: ['__id'], unique: true }]);
    const missing = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: ['inventory', 'nope'] },
      ADMIN,
    );
    expect(missing.statusCode).toBe(404);
  });

  it('health and monitoring come from the cluster, the bucket and the query service', async () => {
    const health = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json()).toMatchObject({
      activeConnections: 0,
      databaseSize: '5120 kB',
      cacheHitRatio: '95.00%',
    });
    expect(health.json().slowQueries.length).toBeGreaterThan(0);
    const mon = await h.post('/api/db/monitoring', { connectionId: 'rw' }, ADMIN);
    if (mon.statusCode !== 404) expect(mon.statusCode, mon.body).toBe(200);
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/7\.2\.4/);
    const meta = await h.post('/api/db/provider-meta', { type: 'couchbase' }, ADMIN);
    expect(meta.statusCode, meta.body).toBe(200);
    expect(meta.json().capabilities).toMatchObject({
      supportsExplain: true,
      supportsCreateTable: false,
      supportsTransactions: false,
      supportsMaintenance: true,
    });
    expect(meta.json().capabilities.maintenanceOperations.map((o: { type: string }) => o.type)).toEqual([
      'analyze',
      'reindex',
      'kill',
    ]);
  });

  const maintenance = (type: string, target?: string) =>
    h.post('/api/db/maintenance', { connectionId: 'rw', type, ...(target ? { target } : {}) }, ADMIN);

  it('reindex builds deferred indexes; analyze says the cluster is community; every operation needs a target', async () => {
    const create = await query(
      'rw',
      `CREATE INDEX ix_stock ON ${KS}.\`products\`(stock) WITH {"defer_build": true}`,
    );
    expect(create.statusCode, create.body).toBe(200);
    expect(cb.indexes.find((i) => i.name === 'ix_stock')?.state).toBe('deferred');
    const r = await maintenance('reindex', 'inventory.products');
    expect(r.statusCode, r.body).toBe(200);
    expect(cb.indexes.find((i) => i.name === 'ix_stock')?.state).toBe('online');
    const a = await maintenance('analyze', 'inventory.products');
    expect(a.statusCode).toBe(400);
    expect(a.body).toMatch(/Enterprise/);
    expect(a.body).toMatch(/Community/);
    for (const type of ['analyze', 'reindex', 'kill']) expect((await maintenance(type)).statusCode).toBe(400);
  });

  it('kill stops a running request by its requestID', async () => {
    const running = h.post(
      '/api/db/query',
      {
        connection: { id: 'longconn', ...connection, queryTimeout: 120_000 },
        sql: `SELECT * FROM ${KS}.\`slow\``,
      },
      ADMIN,
    );
    await eventually(async () => cb.active.size === 1);
    const id = [...cb.active.values()][0].requestId;
    const k = await maintenance('kill', id);
    expect(k.statusCode, k.body).toBe(200);
    expect(k.json().rowCount).toBe(1);
    const r = await running;
    expect(r.statusCode).toBe(400);
    expect(cb.active.size).toBe(0);
  });
});
