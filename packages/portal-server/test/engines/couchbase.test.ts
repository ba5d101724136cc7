// The Couchbase engine against the REST test double (test/doubles/couchbase.ts: a management port whose
// cluster map advertises a separate query port), through the HTTP routes: SQL++ results with the key as
// __id, auto-limit and paging, exact 64-bit integers, the no-index error with its remedy, request-plus
// consistency, timeout (408) and cancel, export with flattened fields, objects, health and maintenance with
// a target. Governance is in couchbase-governance.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectFacts } from '../../src/providers/couchbase/statement.js';
import { parseExactJson } from '../../src/providers/exact-json.js';
import { ADMIN, eventually } from '../query/harness.js';
import { BIG, type CouchbaseFixture, couchbaseFixture, KS } from './couchbase-fixture.js';

let f: CouchbaseFixture;
let cb: CouchbaseFixture['cb'];
let h: CouchbaseFixture['h'];
let connection: Record<string, unknown>;
let query: CouchbaseFixture['query'];
let products: CouchbaseFixture['products'];

beforeAll(async () => {
  f = await couchbaseFixture();
  ({ cb, h, connection, query, products } = f);
});

afterAll(async () => {
  await f?.close();
});

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
    await eventually(async () => cb.active.size === 0, 1200);
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
    await eventually(async () => cb.active.size === 1, 1200);
    const c = await h.post('/api/db/cancel', { queryId: 'cb-cancel-1' }, ADMIN);
    expect(c.statusCode, c.body).toBe(200);
    const r = await running;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.body).toMatch(/QUERY_CANCELLED/);
    await eventually(async () => cb.active.size === 0, 1200);
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
    await eventually(async () => cb.active.size === 1, 1200);
    const id = [...cb.active.values()][0].requestId;
    const k = await maintenance('kill', id);
    expect(k.statusCode, k.body).toBe(200);
    expect(k.json().rowCount).toBe(1);
    const r = await running;
    expect(r.statusCode).toBe(400);
    expect(cb.active.size).toBe(0);
  });
});
