// The object surface, health reading and connection routes (test-connection, provider-meta, pool-stats,
// disconnect, profile, monitoring, maintenance) against the real PostgreSQL of the kit harness.
import { createPostgresDatabase } from '@app/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { declared } from '../datasources/declare.js';
import { ADMIN, descriptorFromUrl, type Harness, harness } from './harness.js';

let h: Harness;
let url: string;
let connection: ReturnType<typeof descriptorFromUrl>;

async function sql(text: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  url = await createPostgresDatabase(inject('services').postgresUrl);
  await sql(
    `CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, price numeric(10,2), created date DEFAULT '2024-01-02')`,
  );
  await sql(
    `INSERT INTO items (id, name, price) SELECT g, 'item ' || g, g * 1.5 FROM generate_series(1, 1200) g`,
  );
  await sql(
    `CREATE TABLE orders (id serial PRIMARY KEY, item_id int NOT NULL REFERENCES items(id) ON DELETE CASCADE, qty int)`,
  );
  await sql(`CREATE UNIQUE INDEX orders_item_qty ON orders (item_id, qty)`);
  await sql(`CREATE VIEW cheap AS SELECT id, name FROM items WHERE price < 10`);
  await sql(`CREATE TABLE notes (id int, body text)`);
  connection = descriptorFromUrl(url, 'postgres');
  h = await harness({
    managed: [{ ...declared('capped', connection, { maxRows: 50 }), name: 'Capped' }],
  });
});
afterAll(() => h?.close());

describe('object surface, health and connection routes on PostgreSQL', () => {
  it('lists objects and containers in the DatabaseObject shape', async () => {
    const list = (await h.post('/api/db/objects/list', { connection, path: ['public'] })).json();
    const items = list.objects.find((o: { name: string }) => o.name === 'items');
    expect(items).toMatchObject({ path: ['public', 'items'], name: 'items', kind: 'table' });
    expect(items.sizeBytes).toBeGreaterThan(0);
    expect(list.objects.find((o: { name: string }) => o.name === 'cheap')).toEqual({
      path: ['public', 'cheap'],
      name: 'cheap',
      kind: 'view',
    });
    const inv = (await h.post('/api/db/objects/inventory', { connection })).json();
    expect(inv.containers).toContainEqual({ path: ['public'], name: 'public', kind: 'schema' });
    expect(inv.truncated).toBe(false);
    const counts = (await h.post('/api/db/objects/counts', { connection })).json().counts;
    expect(counts).toContainEqual({ path: ['public'], kind: 'table', count: 3 });
    expect(counts).toContainEqual({ path: ['public'], kind: 'view', count: 1 });
  });

  it('describes a table with columns, indexes and foreign keys', async () => {
    const d = (await h.post('/api/db/objects/describe', { connection, path: ['public', 'orders'] })).json();
    expect(d.object).toMatchObject({ path: ['public', 'orders'], name: 'orders', kind: 'table' });
    expect(d.columns).toEqual([
      {
        name: 'id',
        type: 'integer',
        nullable: false,
        isPrimary: true,
        defaultValue: "nextval('orders_id_seq'::regclass)",
      },
      { name: 'item_id', type: 'integer', nullable: false, isPrimary: false },
      { name: 'qty', type: 'integer', nullable: true, isPrimary: false },
    ]);
    expect(d.indexes).toContainEqual({ name: 'orders_item_qty', columns: ['item_id', 'qty'], unique: true });
    expect(d.foreignKeys).toEqual([
      {
        columnName: 'item_id',
        constraintName: 'orders_item_id_fkey',
        referencedPath: ['public', 'items'],
        referencedTable: 'items',
        referencedColumn: 'id',
        onUpdate: 'NO ACTION',
        onDelete: 'CASCADE',
      },
    ]);
    const view = (await h.post('/api/db/objects/describe', { connection, path: ['public', 'cheap'] })).json();
    expect(view.definition).toMatch(/price < /);
    expect(
      (await h.post('/api/db/objects/describe', { connection, path: ['public', 'nope'] })).statusCode,
    ).toBe(404);
    expect((await h.post('/api/db/objects/describe', { connection, path: 'items' })).statusCode).toBe(400);
  });

  it('answers a health reading, and 503 CONNECTION_ERROR when the server is unreachable', async () => {
    const r = await h.post('/api/db/health', { connection });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual([
      'activeConnections',
      'activeSessions',
      'cacheHitRatio',
      'databaseSize',
      'slowQueries',
    ]);
    expect(body.activeConnections).toBeGreaterThanOrEqual(1);
    expect(body.databaseSize).toMatch(/\d+ (bytes|kB|MB|GB)/);
    expect(body.cacheHitRatio).toMatch(/^(\d+\.\d\d%|n\/a)$/);
    const bad = await h.post('/api/db/health', { connection: { ...connection, id: 'dead', port: 1 } });
    expect(bad.statusCode).toBe(503);
    expect(bad.json().code).toBe('CONNECTION_ERROR');
    expect((await h.post('/api/db/health', { connection }, null)).statusCode).toBe(401);
  });

  it('tests a connection, reports provider metadata, pool statistics and disconnects', async () => {
    const t = (await h.post('/api/db/test-connection', { connection })).json();
    expect(t).toMatchObject({ success: true, engine: 'postgres' });
    expect(t.serverVersion).toMatch(/PostgreSQL/);
    const wrong = await h.post('/api/db/test-connection', {
      connection: { ...connection, database: 'no_such_database' },
    });
    expect(wrong.statusCode).toBe(503);
    const meta = (await h.post('/api/db/provider-meta', { type: 'postgres' })).json();
    expect(meta.capabilities).toMatchObject({
      supportsExplain: true,
      parameterStyle: '$n',
      supportsPositionalParams: true,
      declaresForeignKeys: true,
    });
    expect(
      (await h.post('/api/db/provider-meta', {})).json().engines.map((e: { engine: string }) => e.engine),
    ).toEqual(expect.arrayContaining(['postgres', 'mysql', 'sqlite', 'libsql', 'duckdb', 'mssql', 'oracle']));
    const pools = (await h.post('/api/db/pool-stats', { connection })).json().pools;
    expect(pools).toHaveLength(1);
    expect(pools[0].pool.total).toBeGreaterThanOrEqual(1);
    expect((await h.post('/api/db/pool-stats', {})).statusCode).toBe(403);
    expect((await h.post('/api/db/pool-stats', {}, ADMIN)).json().pools.length).toBeGreaterThanOrEqual(1);
    expect((await h.post('/api/db/disconnect', { connection })).json()).toEqual({
      disconnected: true,
      transactionsRolledBack: 0,
    });
    expect((await h.post('/api/db/pool-stats', { connection })).json().pools).toEqual([]);
    const profile = (await h.post('/api/db/profile', { connection })).json();
    expect(profile).toMatchObject({ engine: 'postgres', currentSchema: 'public' });
  });

  it('runs maintenance for administrators only, target required where the engine says', async () => {
    expect((await h.post('/api/db/maintenance', { connection, type: 'analyze' })).statusCode).toBe(403);
    expect(
      (await h.post('/api/db/maintenance', { connection, type: 'analyze', target: 'public.items' }, ADMIN))
        .statusCode,
    ).toBe(200);
    expect((await h.post('/api/db/maintenance', { connection, type: 'vacuum' }, ADMIN)).statusCode).toBe(200);
    const noTarget = await h.post('/api/db/maintenance', { connection, type: 'reindex' }, ADMIN);
    expect(noTarget.statusCode).toBe(400);
    expect((await h.post('/api/db/maintenance', { connection, type: 'optimize' }, ADMIN)).statusCode).toBe(
      400,
    );
    const mon = await h.post('/api/db/monitoring', { connection }, ADMIN);
    expect(mon.json()).toMatchObject({
      activeConnections: expect.any(Number),
      maxConnections: expect.any(Number),
    });
    expect((await h.post('/api/db/monitoring', { connection })).statusCode).toBe(403);
  });
});
