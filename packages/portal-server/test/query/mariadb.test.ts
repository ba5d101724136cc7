// /api/db/* against the real MariaDB of the kit harness (engine id `mysql`): parameters, auto-limit and paging,
// plans, timeout, transaction control, scripts, owned transactions, cancel, the object surface, export, health.
import { createMariadbDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN, ALICE, BOB, descriptorFromUrl, eventually, type Harness, harness } from './harness.js';

let h: Harness;
let url: string;
let connection: ReturnType<typeof descriptorFromUrl>;

async function sql(text: string, params: unknown[] = []) {
  const c = await mysql.createConnection(url);
  try {
    const [rows] = await c.query(text, params);
    return rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  url = await createMariadbDatabase(inject('services').mariadbUrl);
  await sql(
    "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(50) NOT NULL, price DECIMAL(10,2), created DATE DEFAULT '2024-01-02') ENGINE=InnoDB",
  );
  await sql(
    "INSERT INTO items (id, name, price) SELECT seq, CONCAT('item ', seq), seq * 1.5 FROM seq_1_to_1200",
  );
  await sql(
    'CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, item_id INT NOT NULL, qty INT, UNIQUE KEY orders_item_qty (item_id, qty), CONSTRAINT fk_item FOREIGN KEY (item_id) REFERENCES items(id) ON DELETE CASCADE) ENGINE=InnoDB',
  );
  await sql('CREATE VIEW cheap AS SELECT id, name FROM items WHERE price < 10');
  await sql('CREATE TABLE notes (id INT, body TEXT) ENGINE=InnoDB');
  connection = descriptorFromUrl(url, 'mysql');
  h = await harness();
});
afterAll(() => h?.close());

const q = (body: Record<string, unknown>, user = ALICE) =>
  h.post('/api/db/query', { connection, ...body }, user);

describe('POST /api/db/query on MariaDB', () => {
  it('binds ? parameters by the driver, values with quotes included', async () => {
    const r = await q({ sql: 'SELECT ? AS a, ? AS b, ? AS c', params: ['it\'s \\ "quoted"', 7, null] });
    expect(r.statusCode).toBe(200);
    expect(r.json().rows).toEqual([{ a: 'it\'s \\ "quoted"', b: 7, c: null }]);
    const f = await q({
      sql: 'SELECT name FROM items WHERE id = ? AND name <> ?',
      params: [3, "x' OR '1'='1"],
    });
    expect(f.json().rows).toEqual([{ name: 'item 3' }]);
  });

  it('binds a JSON integer as an integer and a fraction as a double', async () => {
    // A DOUBLE parameter would make `? DIV 1` and `LIMIT ?` behave differently; the result type shows it.
    const r = await q({ sql: 'SELECT ? AS i, ? AS f', params: [42, 4.5] });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows).toEqual([{ i: 42, f: 4.5 }]);
    expect(r.json().columnTypes).toEqual({ i: 'BIGINT', f: 'DOUBLE' });
    const l = await q({ sql: 'SELECT id FROM items ORDER BY id LIMIT ?', params: [2] });
    expect(l.statusCode, l.body).toBe(200);
    expect(l.json().rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('auto-limits with exact hasMore and pages with offset', async () => {
    const r = await q({ sql: 'SELECT id, created FROM items ORDER BY id' });
    expect(r.json().rows).toHaveLength(500);
    expect(r.json().rows[0]).toEqual({ id: 1, created: '2024-01-02' });
    expect(r.json().pagination).toEqual({
      limit: 500,
      offset: 0,
      hasMore: true,
      totalReturned: 500,
      wasLimited: true,
    });
    const page = await q({ sql: 'SELECT id FROM items ORDER BY id', options: { limit: 100, offset: 1100 } });
    expect(page.json().pagination).toMatchObject({ hasMore: false, totalReturned: 100, offset: 1100 });
    expect(page.json().rows[0]).toEqual({ id: 1101 });
  });

  it('answers engine errors, writes and 408', async () => {
    const e = await q({ sql: 'SELECT * FROM nope' });
    expect(e.statusCode).toBe(400);
    expect(e.json().code).toBe('QUERY_ERROR');
    expect(e.json().error).toMatch(/nope' doesn't exist/);
    const w = await q({ sql: 'INSERT INTO notes VALUES (?, ?)', params: [1, 'a'] });
    expect(w.json()).toMatchObject({ rowCount: 1, fields: [] });
    const t = await q({ connection: { ...connection, queryTimeout: 500 }, sql: 'SELECT SLEEP(5)' });
    expect(t.statusCode).toBe(408);
  });

  it('refuses transaction control, including MySQL forms', async () => {
    for (const text of [
      'BEGIN',
      'START TRANSACTION READ ONLY',
      'COMMIT',
      'ROLLBACK',
      'SAVEPOINT x',
      'RELEASE SAVEPOINT x',
      'SET autocommit = 0',
      "XA START 'x'",
    ]) {
      const r = await q({ sql: text });
      expect(r.statusCode, text).toBe(400);
    }
  });

  it('builds plans in both modes; analyze runs inside a rolled-back transaction', async () => {
    const est = await q({
      sql: 'SELECT * FROM items WHERE id = ?',
      params: [3],
      explain: { mode: 'estimate' },
    });
    expect(est.json().explainFormat).toBe('mysql-json');
    expect(est.json().rows[0].EXPLAIN.query_block).toBeDefined();
    const an = await q({ sql: 'SELECT count(*) FROM items', explain: { mode: 'analyze' } });
    expect(an.statusCode).toBe(200);
    expect(an.json().explainFormat).toBe('mariadb-analyze-json');
    const notSelect = await q({ sql: 'DELETE FROM notes', explain: { mode: 'analyze' } });
    expect(notSelect.statusCode).toBe(400);
    expect(await sql('SELECT COUNT(*) AS n FROM notes')).toEqual([{ n: 1 }]);
  });
});

describe('scripts, transactions and cancel on MariaDB', () => {
  it('runs a script and stops at the first error', async () => {
    const r = await h.post('/api/db/multi-query', {
      connection,
      sql: "INSERT INTO notes VALUES (10, 'a;b'); SELECT body FROM notes WHERE id = ?; SELECT * FROM missing; INSERT INTO notes VALUES (11, 'never')",
      params: [10],
    });
    expect(r.json().executedCount).toBe(2);
    expect(r.json().statements.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'failed']);
    expect(r.json().statements[1].rows).toEqual([{ body: 'a;b' }]);
    expect(await sql('SELECT id FROM notes WHERE id >= 10')).toEqual([{ id: 10 }]);
  });

  it('owns transactions per session', async () => {
    const { transactionId } = (await h.post('/api/db/transaction', { connection, action: 'begin' })).json();
    await h.post('/api/db/transaction', {
      connection,
      action: 'query',
      transactionId,
      sql: "INSERT INTO notes VALUES (20, 'tx')",
    });
    expect(await sql('SELECT COUNT(*) AS n FROM notes WHERE id = 20')).toEqual([{ n: 0 }]);
    expect((await h.post('/api/db/transaction', { action: 'rollback', transactionId }, BOB)).statusCode).toBe(
      404,
    );
    expect((await h.post('/api/db/transaction', { action: 'commit', transactionId })).json().status).toBe(
      'committed',
    );
    expect(await sql('SELECT COUNT(*) AS n FROM notes WHERE id = 20')).toEqual([{ n: 1 }]);
  });

  it('cancels the owner’s running statement with KILL QUERY', async () => {
    const running = q({ sql: "SELECT BENCHMARK(20000000000, MD5('cancel-me')) AS b", queryId: 'm-1' });
    await eventually(
      async () =>
        (
          await sql(
            "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%cancel-me%' AND INFO NOT LIKE '%PROCESSLIST%'",
          )
        ).length > 0,
    );
    expect((await h.post('/api/db/cancel', { queryId: 'm-1' }, BOB)).statusCode).toBe(404);
    expect((await h.post('/api/db/cancel', { queryId: 'm-1' })).statusCode).toBe(200);
    const r = await running;
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
  });
});

describe('object surface, export and health on MariaDB', () => {
  it('lists and describes objects', async () => {
    const db = connection.database;
    const list = (await h.post('/api/db/objects/list', { connection })).json().objects;
    expect(list.find((o: { name: string }) => o.name === 'items')).toMatchObject({
      path: [db, 'items'],
      kind: 'table',
      rowCount: expect.any(Number),
      sizeBytes: expect.any(Number),
    });
    expect(list.find((o: { name: string }) => o.name === 'cheap')).toEqual({
      path: [db, 'cheap'],
      name: 'cheap',
      kind: 'view',
    });
    const counts = (await h.post('/api/db/objects/counts', { connection })).json().counts;
    expect(counts).toContainEqual({ path: [db], kind: 'table', count: 3 });
    const inv = (await h.post('/api/db/objects/inventory', { connection })).json();
    expect(inv.containers).toEqual([{ path: [db], name: db, kind: 'database' }]);
    const d = (await h.post('/api/db/objects/describe', { connection, path: [db, 'orders'] })).json();
    expect(d.columns).toEqual([
      { name: 'id', type: 'int(11)', nullable: false, isPrimary: true },
      { name: 'item_id', type: 'int(11)', nullable: false, isPrimary: false },
      { name: 'qty', type: 'int(11)', nullable: true, isPrimary: false, defaultValue: 'NULL' },
    ]);
    expect(d.indexes).toContainEqual({ name: 'orders_item_qty', columns: ['item_id', 'qty'], unique: true });
    expect(d.foreignKeys).toEqual([
      {
        columnName: 'item_id',
        constraintName: 'fk_item',
        referencedPath: [db, 'items'],
        referencedTable: 'items',
        referencedColumn: 'id',
        onUpdate: 'RESTRICT',
        onDelete: 'CASCADE',
      },
    ]);
  });

  it('exports CSV with exact quoting, streamed', async () => {
    await sql(`INSERT INTO notes VALUES (40, 'say "hi", then\nleave')`);
    const r = await h.post('/api/db/export', {
      connection,
      sql: 'SELECT id, body FROM notes WHERE id = 40',
      format: 'csv',
    });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('id,body\r\n40,"say ""hi"", then\nleave"\r\n');
    const bound = await h.post('/api/db/export', {
      connection,
      sql: 'SELECT id, body FROM notes WHERE id = ?',
      params: [40],
      format: 'json',
    });
    expect(JSON.parse(bound.body)).toEqual([{ id: 40, body: 'say "hi", then\nleave' }]);
    const all = await h.post('/api/db/export', { connection, sql: 'SELECT id FROM items', format: 'json' });
    expect(all.headers['x-export-rows']).toBe('1200');
    expect(JSON.parse(all.body)).toHaveLength(1200);
  });

  it('answers a health reading and admin maintenance', async () => {
    const r = (await h.post('/api/db/health', { connection })).json();
    expect(r.activeConnections).toBeGreaterThanOrEqual(1);
    expect(r.databaseSize).toMatch(/\d+ (bytes|kB|MB)/);
    expect(r.cacheHitRatio).toMatch(/^(\d+\.\d\d%|n\/a)$/);
    expect(Array.isArray(r.activeSessions)).toBe(true);
    const m = await h.post('/api/db/maintenance', { connection, type: 'analyze', target: 'items' }, ADMIN);
    expect(m.statusCode).toBe(200);
    expect(m.json().fields).toContain('Msg_text');
    expect((await h.post('/api/db/maintenance', { connection, type: 'optimize' }, ADMIN)).statusCode).toBe(
      400,
    );
  });
});
