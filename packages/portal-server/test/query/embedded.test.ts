// /api/db/* on the in-process engines: SQLite (better-sqlite3 in a worker), libSQL files (libsql's driver in a
// worker) and DuckDB (a file and in-memory). Same behaviours as the server engines: parameters, auto-limit,
// plans and refusals, timeout, scripts, transactions, cancel, object surface, export and health.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB, eventually, type Harness, harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h?.close());

const ENGINES_ALL = [
  { type: 'sqlite', database: 'shop.sqlite', paramStyle: '?' },
  { type: 'libsql', database: 'shop.libsql.db', paramStyle: '?' },
  { type: 'duckdb', database: 'shop.duckdb', paramStyle: '$n' },
] as const;
const ENGINES = ENGINES_ALL.filter((e) => e.type === (process.env.ONLY_ENGINE ?? e.type));

describe.each(ENGINES)('$type', (engine) => {
  const connection = {
    id: `${engine.type}-shop`,
    name: 'shop',
    type: engine.type,
    database: engine.database,
  };
  const p = (n: number) => (engine.paramStyle === '?' ? '?' : `$${n}`);
  const q = (body: Record<string, unknown>, user = ALICE) =>
    h.post('/api/db/query', { connection, ...body }, user);
  const run = async (sql: string) => {
    const r = await q({ sql });
    expect(r.statusCode, `${sql}: ${r.body}`).toBe(200);
    return r.json();
  };

  beforeAll(async () => {
    await run('CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL, price DOUBLE)');
    await run(
      engine.type === 'duckdb'
        ? "INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM range(1, 1201) t(i)"
        : "WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < 1200) INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM g",
    );
    await run(
      'CREATE TABLE orders (id INTEGER PRIMARY KEY, item_id INTEGER NOT NULL REFERENCES items(id), qty INTEGER)',
    );
    await run('CREATE UNIQUE INDEX orders_item_qty ON orders (item_id, qty)');
    await run('CREATE VIEW cheap AS SELECT id, name FROM items WHERE price < 10');
    await run('CREATE TABLE notes (id INTEGER, body VARCHAR)');
  });

  it('binds parameters by the driver, quotes included', async () => {
    const r = await q({
      sql: `SELECT name FROM items WHERE id = ${p(1)} AND name <> ${p(2)}`,
      params: [3, "x' OR '1'='1"],
    });
    expect(r.json().rows).toEqual([{ name: 'item 3' }]);
    const v = await q({
      sql: `SELECT CAST(${p(1)} AS VARCHAR) AS a, ${p(2)} AS b`,
      params: ['it\'s "q"', null],
    });
    expect(v.json().rows).toEqual([{ a: 'it\'s "q"', b: null }]);
  });

  it('binds a JSON integer as INTEGER and a fraction as REAL, in queries and owned transactions', async () => {
    const want =
      engine.type === 'duckdb'
        ? [{ a: 'INTEGER', b: 'DOUBLE', c: 'BIGINT' }]
        : [{ a: 'integer', b: 'real', c: 'integer' }];
    const sql = `SELECT typeof(${p(1)}) AS a, typeof(${p(2)}) AS b, typeof(${p(3)}) AS c`;
    const params = [42, 4.5, 2 ** 40];
    const r = await q({ sql, params });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows).toEqual(want);
    // Integer arithmetic shows it too: 7 / 2 is 3 on INTEGER operands, 3.5 on REAL ones.
    const d = await q({ sql: `SELECT ${p(1)} / ${p(2)} AS d`, params: [7, 2] });
    expect(d.json().rows).toEqual([{ d: engine.type === 'duckdb' ? 3.5 : 3 }]);
    const begun = await h.post('/api/db/transaction', { connection, action: 'begin' }, ALICE);
    expect(begun.statusCode, begun.body).toBe(200);
    const { transactionId } = begun.json();
    const tx = { connection, transactionId, action: 'query', sql, params };
    const inTx = await h.post('/api/db/transaction', tx, ALICE);
    expect(inTx.statusCode, inTx.body).toBe(200);
    expect(inTx.json().rows).toEqual(want);
    await h.post('/api/db/transaction', { connection, transactionId, action: 'rollback' }, ALICE);
  });

  it('auto-limits and pages with an exact hasMore', async () => {
    const r = await q({ sql: 'SELECT id FROM items ORDER BY id' });
    expect(r.json().rows).toHaveLength(500);
    expect(r.json().pagination).toEqual({
      limit: 500,
      offset: 0,
      hasMore: true,
      totalReturned: 500,
      wasLimited: true,
    });
    const last = await q({ sql: 'SELECT id FROM items ORDER BY id', options: { limit: 100, offset: 1100 } });
    expect(last.json().pagination).toMatchObject({ hasMore: false, totalReturned: 100 });
    expect(last.json().rows[0]).toEqual({ id: 1101 });
    const own = await q({ sql: 'SELECT id FROM items LIMIT 2' });
    expect(own.json().pagination.wasLimited).toBe(false);
  });

  it('answers engine errors as 400 QUERY_ERROR and refuses transaction control', async () => {
    const e = await q({ sql: 'SELECT * FROM nope' });
    expect(e.statusCode).toBe(400);
    expect(e.json().code).toBe('QUERY_ERROR');
    expect(e.json().error).toMatch(/nope/);
    for (const text of ['BEGIN', 'COMMIT', 'ROLLBACK', 'END', 'SAVEPOINT s'])
      expect((await q({ sql: text })).statusCode, text).toBe(400);
  });

  it('answers 408 and stays usable after a timeout', async () => {
    const slow =
      engine.type === 'duckdb'
        ? 'SELECT count(*) FROM range(1000000000) a, range(1000000) b WHERE a.range + b.range < 0'
        : 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000000000) SELECT count(*) FROM r';
    const t = await q({ connection: { ...connection, queryTimeout: 300 }, sql: slow });
    expect(t.statusCode).toBe(408);
    // The next statement gets the default timeout: a fresh engine process may take a while to start on a
    // loaded machine, and what matters is that the connection is usable again.
    const after = await q({ connection, sql: 'SELECT count(*) AS n FROM items' });
    expect(after.json().rows).toEqual([{ n: 1200 }]);
  });

  it('builds estimate plans, refuses non-SELECT plans and (SQLite dialect) analyze plans', async () => {
    const est = await q({
      sql: `SELECT * FROM items WHERE id = ${p(1)}`,
      params: [1],
      explain: { mode: 'estimate' },
    });
    expect(est.statusCode).toBe(200);
    expect(est.json().explainFormat).toBe(engine.type === 'duckdb' ? 'duckdb-json' : 'sqlite-query-plan');
    const an = await q({ sql: 'SELECT count(*) FROM items', explain: { mode: 'analyze' } });
    if (engine.type === 'duckdb') {
      expect(an.json().explainFormat).toBe('duckdb-json-analyze');
    } else {
      expect(an.statusCode).toBe(400);
      expect(an.json().code).toBe('EXPLAIN_NOT_SUPPORTED');
    }
    const del = await q({ sql: 'DELETE FROM items', explain: { mode: 'estimate' } });
    expect(del.statusCode).toBe(400);
    expect(del.json().code).toBe('EXPLAIN_NOT_SELECT');
    expect((await run('SELECT count(*) AS n FROM items')).rows).toEqual([{ n: 1200 }]);
  });

  it('runs scripts to the first error and keeps what ran', async () => {
    const r = await h.post('/api/db/multi-query', {
      connection,
      sql: `INSERT INTO notes VALUES (1, 'a;b'); SELECT body FROM notes WHERE id = ${p(1)}; SELECT * FROM missing; INSERT INTO notes VALUES (2, 'never')`,
      params: [1],
    });
    expect(r.json().executedCount).toBe(2);
    expect(r.json().statements.map((s: { status: string }) => s.status)).toEqual(['done', 'done', 'failed']);
    expect(r.json().statements[1].rows).toEqual([{ body: 'a;b' }]);
    expect((await run('SELECT count(*) AS n FROM notes')).rows).toEqual([{ n: 1 }]);
  });

  it('owns transactions per session and rolls back', async () => {
    const { transactionId } = (await h.post('/api/db/transaction', { connection, action: 'begin' })).json();
    const ins = await h.post('/api/db/transaction', {
      action: 'query',
      transactionId,
      sql: "INSERT INTO notes VALUES (5, 'tx')",
    });
    expect(ins.statusCode, ins.body).toBe(200);
    const inside = await h.post('/api/db/transaction', {
      action: 'query',
      transactionId,
      sql: 'SELECT count(*) AS n FROM notes',
    });
    expect(inside.json().rows).toEqual([{ n: 2 }]);
    expect((await h.post('/api/db/transaction', { action: 'commit', transactionId }, BOB)).statusCode).toBe(
      404,
    );
    expect((await h.post('/api/db/transaction', { action: 'rollback', transactionId })).json().status).toBe(
      'rolled_back',
    );
    expect((await run('SELECT count(*) AS n FROM notes')).rows).toEqual([{ n: 1 }]);
  });

  it('cancels the owner’s running statement', async () => {
    const slow =
      engine.type === 'duckdb'
        ? 'SELECT count(*) FROM range(1000000000) a, range(1000000) b WHERE a.range + b.range < 0'
        : 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000000000) SELECT count(*) FROM r';
    const running = q({ sql: slow, queryId: `${engine.type}-c` });
    await eventually(async () => h.deps.running.size() > 0);
    // Queued behind the slow statement on the same connection: it must survive the cancel.
    const queued = q({ sql: 'SELECT count(*) AS n FROM items' }, BOB);
    expect((await h.post('/api/db/cancel', { queryId: `${engine.type}-c` }, BOB)).statusCode).toBe(404);
    expect((await h.post('/api/db/cancel', { queryId: `${engine.type}-c` })).statusCode).toBe(200);
    const r = await running;
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
    expect((await queued).json().rows).toEqual([{ n: 1200 }]);
  });

  it('answers the object surface shapes', async () => {
    const list = (await h.post('/api/db/objects/list', { connection })).json().objects;
    const schema = list.find((o: { name: string }) => o.name === 'items').path[0];
    expect(list.find((o: { name: string }) => o.name === 'cheap')).toMatchObject({
      path: [schema, 'cheap'],
      name: 'cheap',
      kind: 'view',
    });
    const counts = (await h.post('/api/db/objects/counts', { connection })).json().counts;
    expect(counts).toContainEqual({ path: [schema], kind: 'table', count: 3 });
    const inv = (await h.post('/api/db/objects/inventory', { connection })).json();
    expect(inv.containers).toContainEqual({ path: [schema], name: schema, kind: 'schema' });
    const d = (await h.post('/api/db/objects/describe', { connection, path: [schema, 'orders'] })).json();
    expect(d.object).toMatchObject({ path: [schema, 'orders'], name: 'orders', kind: 'table' });
    expect(d.columns.map((c: { name: string; isPrimary: boolean }) => [c.name, c.isPrimary])).toEqual([
      ['id', true],
      ['item_id', false],
      ['qty', false],
    ]);
    expect(d.columns[1]).toMatchObject({ nullable: false, type: expect.stringMatching(/INT/i) });
    expect(d.indexes).toContainEqual({ name: 'orders_item_qty', columns: ['item_id', 'qty'], unique: true });
    expect(d.foreignKeys).toEqual([
      expect.objectContaining({
        columnName: 'item_id',
        referencedTable: 'items',
        referencedColumn: 'id',
        referencedPath: [schema, 'items'],
      }),
    ]);
    expect(
      (await h.post('/api/db/objects/describe', { connection, path: [schema, 'nope'] })).statusCode,
    ).toBe(404);
  });

  it('narrows an object listing by a name search and a limit, and says when more matched', async () => {
    const list = async (extra: Record<string, unknown>) => {
      const r = await h.post('/api/db/objects/list', { connection, ...extra });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { objects: Array<{ name: string }>; truncated?: boolean };
    };
    const names = (o: { objects: Array<{ name: string }> }) => o.objects.map((x) => x.name).sort();
    expect(await list({ search: 'ITEM' })).toMatchObject({ truncated: false });
    expect(names(await list({ search: 'ITEM' }))).toEqual(['items']);
    expect(names(await list({ search: 'e' }))).toEqual(['cheap', 'items', 'notes', 'orders']);
    // The exact name leads, then names starting with the text.
    expect((await list({ search: 'notes' })).objects[0].name).toBe('notes');
    expect((await list({ search: 'o' })).objects[0].name).toBe('orders');
    const capped = await list({ search: 'e', limit: 2 });
    expect(capped.objects).toHaveLength(2);
    expect(capped.truncated).toBe(true);
    const schema = (await list({ search: 'items' })).objects[0] as unknown as { path: string[] };
    expect(names(await list({ path: schema.path.slice(0, -1), search: 'ord', limit: 5 }))).toEqual([
      'orders',
    ]);
    // Without search or limit the answer is the plain listing, with no `truncated`.
    expect((await list({})).truncated).toBeUndefined();
    for (const bad of [{ limit: 0 }, { limit: '5' }, { limit: 1.5 }, { search: '' }, { search: 7 }]) {
      const r = await h.post('/api/db/objects/list', { connection, ...bad });
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json().error, JSON.stringify(bad)).toMatch(/^(limit|search) /);
    }
  });

  it('exports CSV with exact quoting and refuses writes', async () => {
    await run(`INSERT INTO notes VALUES (40, 'say "hi", then\nleave')`);
    const r = await h.post('/api/db/export', {
      connection,
      sql: 'SELECT id, body FROM notes WHERE id = 40',
      format: 'csv',
    });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('id,body\r\n40,"say ""hi"", then\nleave"\r\n');
    const big = await h.post('/api/db/export', {
      connection,
      sql: 'SELECT * FROM items',
      format: 'sql-insert',
      tabName: 'items_copy',
    });
    expect(big.headers['x-export-rows']).toBe('1200');
    expect(big.body.split('\n')[0]).toMatch(
      /^INSERT INTO "items_copy" \("id", "name", "price"\) VALUES \(1, 'item 1', 1\.5\);$/,
    );
    expect(
      (await h.post('/api/db/export', { connection, sql: 'DELETE FROM notes', format: 'csv' })).statusCode,
    ).toBe(400);
  });

  it('answers a health reading with the embedded engine’s facts', async () => {
    const r = await h.post('/api/db/health', { connection });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      activeConnections: expect.any(Number),
      databaseSize: expect.stringMatching(/\d+(\.\d+)? ?(bytes|kB|KiB|MB|MiB)/),
      cacheHitRatio: 'n/a',
      slowQueries: [],
      activeSessions: [],
    });
  });

  it('offers the engine’s maintenance operations to administrators', async () => {
    const meta = (await h.post('/api/db/provider-meta', { type: engine.type })).json();
    const offered = meta.capabilities.maintenanceOperations.map((o: { type: string }) => o.type);
    if (engine.type === 'libsql') expect(offered).toEqual(['reindex', 'integrity_check']);
    const op = engine.type === 'duckdb' ? 'checkpoint' : 'integrity_check';
    const r = await h.post('/api/db/maintenance', { connection, type: op }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    if (engine.type === 'libsql')
      expect((await h.post('/api/db/maintenance', { connection, type: 'vacuum' }, ADMIN)).statusCode).toBe(
        400,
      );
  });
});

describe('embedded engine files', () => {
  it('test-connection on a file that does not exist says so and creates nothing', async () => {
    const dir = tempDir('missing-');
    for (const type of ['sqlite', 'libsql', 'duckdb']) {
      const file = join(dir, `nope-${type}.db`);
      const r = await h.post(
        '/api/db/test-connection',
        { connection: { id: `m-${type}`, type, database: file } },
        ADMIN,
      );
      expect(r.statusCode, `${type}: ${r.body}`).toBe(400);
      expect(r.json()).toMatchObject({ code: 'DATABASE_FILE_NOT_FOUND', statusCode: 400 });
      expect(r.json().error).toMatch(/does not exist/);
      expect(existsSync(file), type).toBe(false);
      // Once the file exists (a statement created it: the explicit choice), the check connects.
      const made = await h.post(
        '/api/db/query',
        { connection: { id: `m-${type}`, type, database: file }, sql: 'CREATE TABLE t (id INTEGER)' },
        ADMIN,
      );
      expect(made.statusCode, made.body).toBe(200);
      const ok = await h.post(
        '/api/db/test-connection',
        { connection: { id: `m-${type}`, type, database: file } },
        ADMIN,
      );
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().success).toBe(true);
    }
    // A relative path in the portal's own folder, as a user would type it.
    const rel = await h.post('/api/db/test-connection', {
      connection: { id: 'rel', type: 'sqlite', database: 'never-made.sqlite' },
    });
    expect(rel.statusCode).toBe(400);
    expect(rel.json().code).toBe('DATABASE_FILE_NOT_FOUND');
    // DuckDB in memory has no file to miss.
    const mem = await h.post('/api/db/test-connection', {
      connection: { id: 'mem', type: 'duckdb', database: ':memory:' },
    });
    expect(mem.statusCode, mem.body).toBe(200);
  });

  it('keeps a user inside the portal folder; administrators may open absolute paths', async () => {
    const elsewhere = join(tempDir('elsewhere-'), 'x.db');
    for (const type of ['sqlite', 'libsql', 'duckdb']) {
      const connection = { id: `abs-${type}`, type, database: elsewhere.replace('x.db', `${type}.db`) };
      const user = await h.post('/api/db/query', { connection, sql: 'SELECT 1 AS one' });
      expect(user.statusCode, type).toBe(400);
      expect(user.json().code).toBe('CONFIGURATION_ERROR');
      const admin = await h.post('/api/db/query', { connection, sql: 'SELECT 1 AS one' }, ADMIN);
      expect(admin.json().rows, type).toEqual([{ one: 1 }]);
    }
    expect(
      (
        await h.post('/api/db/query', {
          connection: { id: 'up', type: 'sqlite', database: '../escape.db' },
          sql: 'SELECT 1',
        })
      ).statusCode,
    ).toBe(400);
  });

  it('refuses ATTACH for users on SQLite', async () => {
    const connection = { id: 'att', type: 'sqlite', database: 'att.db' };
    const r = await h.post('/api/db/query', { connection, sql: "ATTACH DATABASE '/etc/hosts' AS x" });
    expect(r.statusCode).toBe(403);
  });

  it('opens DuckDB in memory without external file access', async () => {
    const connection = { id: 'mem', type: 'duckdb', database: ':memory:' };
    const r = await h.post('/api/db/query', {
      connection,
      sql: 'SELECT 42::BIGINT AS n, 12345678901234567890::HUGEINT AS big',
    });
    expect(r.json().rows).toEqual([{ n: 42, big: '12345678901234567890' }]);
    const file = await h.post('/api/db/query', { connection, sql: "SELECT * FROM read_csv('/etc/passwd')" });
    expect(file.statusCode).toBe(400);
  });

  it('needs a database path', async () => {
    const r = await h.post('/api/db/query', { connection: { id: 'none', type: 'sqlite' }, sql: 'SELECT 1' });
    expect(r.statusCode).toBe(400);
  });
});

describe('libSQL client backend (the network code path, driven over a file: URL)', () => {
  it('runs statements, transactions and streams through @libsql/client', async () => {
    const { LibsqlClientBackend, libsqlCapabilities, libsqlUrl } = await import(
      '../../src/providers/libsql/index.js'
    );
    const { SqliteFamilyProvider } = await import('../../src/providers/sqlite/provider.js');
    expect(libsqlUrl({ id: 'n', type: 'libsql', connectionString: 'libsql://db.example.test' })).toBe(
      'libsql://db.example.test',
    );
    expect(libsqlUrl({ id: 'n', type: 'libsql', database: 'https://db.example.test' })).toBe(
      'https://db.example.test',
    );
    expect(libsqlUrl({ id: 'n', type: 'libsql', database: 'local.db' })).toBeUndefined();
    const backend = new LibsqlClientBackend(
      `file:${join(tempDir('libsql-client-'), 'c.db')}`,
      undefined,
      5000,
    );
    const p = new SqliteFamilyProvider('libsql', libsqlCapabilities, backend);
    try {
      await p.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)', [], { maxRows: 0 });
      expect(
        (await p.query('INSERT INTO t (v) VALUES (?), (?)', ["it's", 'b'], { maxRows: 0 })).rowCount,
      ).toBe(2);
      const typed = await p.query('SELECT typeof(?) AS a, typeof(?) AS b', [42, 4.5], { maxRows: 1 });
      expect(typed.rows).toEqual([{ a: 'integer', b: 'real' }]);
      const r = await p.query('SELECT id, v FROM t ORDER BY id', [], { maxRows: 1 });
      expect(r).toMatchObject({ fields: ['id', 'v'], rows: [{ id: 1, v: "it's" }], truncated: true });
      const s = await p.openSession();
      await s.begin();
      await s.query("INSERT INTO t (v) VALUES ('rolled back')", [], { maxRows: 0 });
      await s.rollback();
      await s.close();
      expect((await p.query('SELECT count(*) AS n FROM t', [], { maxRows: 1 })).rows).toEqual([{ n: 2 }]);
      const batches = [];
      for await (const b of p.stream('SELECT v FROM t ORDER BY id', [], { maxRows: 10, batchSize: 1 }))
        batches.push(b.rows);
      expect(batches).toEqual([[["it's"]], [['b']]]);
    } finally {
      await p.close();
    }
  });
});
