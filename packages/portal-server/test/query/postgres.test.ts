// /api/db/* against the real PostgreSQL of the kit harness: parameters, auto-limit and paging, plans and
// their refusals, timeout, size limit, transaction control, scripts, owned transactions, cancel, the object
// surface, health and the connection routes.
import { createPostgresDatabase } from '@app/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { declared } from '../datasources/declare.js';
import { ALICE, BOB, descriptorFromUrl, eventually, type Harness, harness } from './harness.js';

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

const q = (body: Record<string, unknown>, user = ALICE) =>
  h.post('/api/db/query', { connection, ...body }, user);

describe('POST /api/db/query on PostgreSQL', () => {
  it('binds positional parameters by the driver, values with quotes included', async () => {
    const r = await q({
      sql: 'SELECT $1::text AS a, $2::int AS b, $3::boolean AS c, $4::text AS d',
      params: ['it\'s "quoted"; --', 42, true, null],
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().rows).toEqual([{ a: 'it\'s "quoted"; --', b: 42, c: true, d: null }]);
    expect(r.json().fields).toEqual(['a', 'b', 'c', 'd']);
    expect(r.json().columnTypes).toEqual({ a: 'text', b: 'integer', c: 'boolean', d: 'text' });
  });

  it('refuses parameters that are not scalar values', async () => {
    for (const params of [[{ a: 1 }], [[1]], 'x']) {
      const r = await q({ sql: 'SELECT $1', params });
      expect(r.statusCode).toBe(400);
    }
  });

  it('auto-limits a SELECT to 500 rows and reports more rows exactly', async () => {
    const r = await q({ sql: 'SELECT id FROM items ORDER BY id' });
    const body = r.json();
    expect(body.rows).toHaveLength(500);
    expect(body.pagination).toEqual({
      limit: 500,
      offset: 0,
      hasMore: true,
      totalReturned: 500,
      wasLimited: true,
    });
    const last = await q({ sql: 'SELECT id FROM items ORDER BY id', options: { limit: 500, offset: 1000 } });
    expect(
      last
        .json()
        .rows.map((x: { id: number }) => x.id)
        .slice(0, 2),
    ).toEqual([1001, 1002]);
    expect(last.json().pagination).toMatchObject({ offset: 1000, hasMore: false, totalReturned: 200 });
    const exact = await q({ sql: 'SELECT id FROM items', options: { limit: 1200 } });
    expect(exact.json().pagination).toMatchObject({ hasMore: false, totalReturned: 1200, wasLimited: true });
  });

  it('keeps a statement that has its own limit as written', async () => {
    const r = await q({ sql: 'SELECT id FROM items ORDER BY id LIMIT 3 -- top three' });
    expect(r.json().rows).toHaveLength(3);
    expect(r.json().pagination).toMatchObject({ wasLimited: false, hasMore: false });
  });

  it('caps options.limit and unlimited at the datasource maximum rows', async () => {
    const capped = await h.post('/api/db/query', {
      connection: { id: 'capped', type: 'postgres' },
      sql: 'SELECT id FROM items',
      options: { limit: 400 },
    });
    expect(capped.json().rows).toHaveLength(50);
    expect(capped.json().pagination).toMatchObject({ limit: 50, hasMore: true });
    const unlimited = await h.post('/api/db/query', {
      connectionId: 'capped',
      sql: 'SELECT id FROM items',
      options: { unlimited: true },
    });
    expect(unlimited.json().rows).toHaveLength(50);
    const own = await h.post('/api/db/query', {
      connectionId: 'capped',
      sql: 'SELECT id FROM items LIMIT 100',
    });
    expect(own.json().rows).toHaveLength(50);
    expect(own.json().pagination).toMatchObject({ hasMore: true, wasLimited: true });
  });

  it('reports rows affected by a write', async () => {
    const r = await q({ sql: 'INSERT INTO notes VALUES ($1, $2), ($3, $4)', params: [1, 'a', 2, 'b'] });
    expect(r.json()).toMatchObject({ rowCount: 2, fields: [], rows: [] });
  });

  it('answers an engine error as 400 QUERY_ERROR with the engine message', async () => {
    const r = await q({ sql: 'SELECT * FROM no_such_table' });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      error: 'relation "no_such_table" does not exist',
      code: 'QUERY_ERROR',
      statusCode: 400,
    });
  });

  it('answers 408 when the statement outlives queryTimeout', async () => {
    const r = await q({ connection: { ...connection, queryTimeout: 500 }, sql: 'SELECT pg_sleep(5)' });
    expect(r.statusCode).toBe(408);
    expect(r.json().code).toBe('QUERY_TIMEOUT');
    expect(r.json().error).toMatch(/simpler query|queryTimeout/);
  });

  it('refuses a queryTimeout out of range', async () => {
    const r = await q({ connection: { ...connection, queryTimeout: 2147483648 }, sql: 'SELECT 1' });
    expect(r.statusCode).toBe(400);
  });

  it('answers 413 over 1048576 characters on every execution route', async () => {
    const big = `SELECT 1 -- ${'x'.repeat(1048576)}`;
    for (const route of ['/api/db/query', '/api/db/multi-query', '/api/db/export']) {
      const r = await h.post(route, { connection, sql: big, format: 'csv' });
      expect(r.statusCode, route).toBe(413);
    }
  });

  it('refuses transaction control text', async () => {
    for (const text of [
      'BEGIN',
      'commit',
      '  /* c */ ROLLBACK',
      'SAVEPOINT a',
      'RELEASE SAVEPOINT a',
      'END',
      'START TRANSACTION',
    ]) {
      const r = await q({ sql: text });
      expect(r.statusCode, text).toBe(400);
      expect(r.json().code).toBe('TRANSACTION_CONTROL');
    }
    const script = await h.post('/api/db/multi-query', { connection, sql: 'SELECT 1; COMMIT' });
    expect(script.statusCode).toBe(400);
  });

  it('refuses more than one statement and points to the script route', async () => {
    const r = await q({ sql: 'SELECT 1; DELETE FROM notes' });
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('MULTIPLE_STATEMENTS');
    expect(await sql('SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 2 }]);
  });

  it('builds plans in both modes and never runs the statement as a fallback', async () => {
    const est = await q({
      sql: 'SELECT * FROM items WHERE id = $1',
      params: [5],
      explain: { mode: 'estimate' },
    });
    expect(est.statusCode).toBe(200);
    expect(est.json().explainFormat).toBe('postgres-json');
    expect(est.json().rows[0]['QUERY PLAN'][0].Plan['Node Type']).toBeTypeOf('string');
    const an = await q({ sql: 'SELECT count(*) FROM items', explain: { mode: 'analyze' } });
    expect(an.json().explainFormat).toBe('postgres-json-analyze');
    expect(an.json().rows[0]['QUERY PLAN'][0].Plan['Actual Rows']).toBe(1);
    const notSelect = await q({
      sql: "INSERT INTO notes VALUES (9, 'explained')",
      explain: { mode: 'analyze' },
    });
    expect(notSelect.statusCode).toBe(400);
    expect(notSelect.json().code).toBe('EXPLAIN_NOT_SELECT');
    const cte = await q({
      sql: 'WITH d AS (DELETE FROM notes RETURNING *) SELECT * FROM d',
      explain: { mode: 'estimate' },
    });
    expect(cte.statusCode).toBe(400);
    expect(await sql('SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 2 }]);
    for (const explain of [true, { mode: 'full' }, { mode: 'estimate', extra: 1 }, {}]) {
      expect((await q({ sql: 'SELECT 1', explain })).statusCode).toBe(400);
    }
  });

  it('trims the ticket to 120 characters and audits every execution', async () => {
    h.events.length = 0;
    await q({ sql: 'SELECT 1 AS one', ticket: `  ${'T'.repeat(200)}  ` });
    await q({ sql: 'SELECT * FROM nope' });
    expect(h.events).toHaveLength(2);
    expect(h.events[0]).toMatchObject({
      type: 'query_execution',
      actor: 'alice',
      result: 'success',
      ticket: 'T'.repeat(120),
      statement: 'SELECT 1 AS one',
    });
    expect(h.events[0]).toMatchObject({
      connection: 'postgres-test',
      connectionName: 'postgres test',
      engine: 'postgres',
    });
    expect(h.events[1]).toMatchObject({ type: 'query_execution', result: 'failure' });
  });

  it('needs a session', async () => {
    const r = await h.post('/api/db/query', { connection, sql: 'SELECT 1' }, null);
    expect(r.statusCode).toBe(401);
  });
});

describe('scripts, transactions and cancel on PostgreSQL', () => {
  it('runs a script in order and stops at the first error; what ran stays', async () => {
    const r = await h.post('/api/db/multi-query', {
      connection,
      sql: "INSERT INTO notes VALUES (10, 'one; two'); SELECT body FROM notes WHERE id = $1; INSERT INTO nope VALUES (1); INSERT INTO notes VALUES (11, 'never')",
      params: [10],
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.executedCount).toBe(2);
    expect(body.statements.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'failed']);
    expect(body.statements[1]).toMatchObject({
      index: 1,
      rowCount: 1,
      fields: ['body'],
      rows: [{ body: 'one; two' }],
    });
    expect(body.statements[2].error).toMatch(/nope/);
    expect(await sql('SELECT id FROM notes WHERE id >= 10 ORDER BY id')).toEqual([{ id: 10 }]);
  });

  it('keeps a transaction owned by its session until commit or rollback', async () => {
    const begin = await h.post('/api/db/transaction', { connection, action: 'begin' });
    expect(begin.statusCode).toBe(200);
    const { transactionId } = begin.json();
    const ins = await h.post('/api/db/transaction', {
      connection,
      action: 'query',
      transactionId,
      sql: "INSERT INTO notes VALUES (20, 'tx')",
    });
    expect(ins.json().rowCount).toBe(1);
    expect(await sql('SELECT count(*)::int AS n FROM notes WHERE id = 20')).toEqual([{ n: 0 }]);
    const other = await h.post('/api/db/transaction', { connection, action: 'commit', transactionId }, BOB);
    expect(other.statusCode).toBe(404);
    const tc = await h.post('/api/db/transaction', {
      connection,
      action: 'query',
      transactionId,
      sql: 'COMMIT',
    });
    expect(tc.statusCode).toBe(400);
    const commit = await h.post('/api/db/transaction', { connection, action: 'commit', transactionId });
    expect(commit.json()).toEqual({ transactionId, status: 'committed' });
    expect(await sql('SELECT count(*)::int AS n FROM notes WHERE id = 20')).toEqual([{ n: 1 }]);
    const again = await h.post('/api/db/transaction', {
      connection,
      action: 'query',
      transactionId,
      sql: 'SELECT 1',
    });
    expect(again.statusCode).toBe(404);

    const b2 = (await h.post('/api/db/transaction', { connection, action: 'begin' })).json();
    await h.post('/api/db/transaction', {
      connection,
      action: 'query',
      transactionId: b2.transactionId,
      sql: "INSERT INTO notes VALUES (21, 'gone')",
    });
    const rb = await h.post('/api/db/transaction', {
      connection,
      action: 'rollback',
      transactionId: b2.transactionId,
    });
    expect(rb.json().status).toBe('rolled_back');
    expect(await sql('SELECT count(*)::int AS n FROM notes WHERE id = 21')).toEqual([{ n: 0 }]);
  });

  it('rolls back an abandoned transaction after the idle timeout', async () => {
    const idle = await harness({ transactionIdleMs: 60_000 });
    try {
      const { transactionId } = (
        await idle.post('/api/db/transaction', { connection, action: 'begin' })
      ).json();
      await idle.post('/api/db/transaction', {
        connection,
        action: 'query',
        transactionId,
        sql: "INSERT INTO notes VALUES (30, 'abandoned')",
      });
      // Sweep as if the idle timeout had passed.
      (idle.deps.transactions as unknown as { now: () => number }).now = () => Date.now() + 61_000;
      expect(await idle.deps.transactions.sweep()).toBe(1);
      expect(
        (await idle.post('/api/db/transaction', { connection, action: 'commit', transactionId })).statusCode,
      ).toBe(404);
      expect(await sql('SELECT count(*)::int AS n FROM notes WHERE id = 30')).toEqual([{ n: 0 }]);
    } finally {
      await idle.close();
    }
  });

  it('cancels only the owner’s running statement', async () => {
    const running = q({ sql: "SELECT pg_sleep(30), 'cancel-me'", queryId: 'q-1' });
    await eventually(
      async () =>
        (
          await sql(
            `SELECT 1 FROM pg_stat_activity WHERE query LIKE '%cancel-me%' AND state = 'active' AND pid <> pg_backend_pid()`,
          )
        ).length > 0,
    );
    expect((await h.post('/api/db/cancel', { queryId: 'q-1' }, BOB)).statusCode).toBe(404);
    const c = await h.post('/api/db/cancel', { queryId: 'q-1' });
    expect(c.json()).toEqual({ cancelled: true });
    const r = await running;
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
    expect((await h.post('/api/db/cancel', { queryId: 'q-1' })).statusCode).toBe(404);
  });
});
