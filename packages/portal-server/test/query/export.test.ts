// POST /api/db/export against real PostgreSQL: every format with exact quoting, the row bound, the headers,
// read-only enforcement and the governance hooks (export rule first, then masking per row).
import { HttpError } from '@app/kit';
import { createPostgresDatabase } from '@app/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allowAllGovernance } from '../../src/execution/contracts.js';
import { declared } from '../datasources/declare.js';
import { descriptorFromUrl, type Harness, harness } from './harness.js';

let h: Harness;
let url: string;
let connection: ReturnType<typeof descriptorFromUrl>;

beforeAll(async () => {
  url = await createPostgresDatabase(inject('services').postgresUrl);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE TABLE t (id int, label text, amount numeric(6,2), ok boolean, doc jsonb)`);
  await c.query(
    `INSERT INTO t VALUES (1, 'plain', 1.50, true, '{"a":1}'), (2, 'comma, and "quote"', NULL, false, NULL),
                          (3, E'line\\nbreak', 3.00, NULL, '[1,"x"]'), (4, 'semi;colon', 4.25, true, NULL)`,
  );
  await c.query(`CREATE TABLE big AS SELECT g AS n FROM generate_series(1, 250) g`);
  await c.end();
  connection = descriptorFromUrl(url, 'postgres');
  h = await harness({
    managed: [{ ...declared('small', connection, { maxRows: 100 }), name: 'Small' }],
  });
});
afterAll(() => h?.close());

const exp = (body: Record<string, unknown>) => h.post('/api/db/export', { connection, ...body });

describe('POST /api/db/export', () => {
  it('writes RFC 4180 CSV with exact quoting and the export headers', async () => {
    const r = await exp({
      sql: 'SELECT id, label, amount, ok, doc FROM t ORDER BY id',
      format: 'csv',
      tabName: 'my report',
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-disposition']).toBe('attachment; filename="my_report.csv"');
    expect(r.headers['x-export-rows']).toBe('4');
    expect(r.headers['x-export-extension']).toBe('csv');
    expect(r.body).toBe(
      'id,label,amount,ok,doc\r\n' +
        '1,plain,1.50,true,"{""a"":1}"\r\n' +
        '2,"comma, and ""quote""",,false,\r\n' +
        '3,"line\nbreak",3.00,,"[1,""x""]"\r\n' +
        '4,semi;colon,4.25,true,\r\n',
    );
  });

  it('honours csvDelimiter', async () => {
    const r = await exp({
      sql: 'SELECT id, label FROM t WHERE id IN (1, 4) ORDER BY id',
      format: 'csv',
      csvDelimiter: ';',
    });
    expect(r.body).toBe('id;label\r\n1;plain\r\n4;"semi;colon"\r\n');
    expect((await exp({ sql: 'SELECT 1', format: 'csv', csvDelimiter: '"' })).statusCode).toBe(400);
    expect((await exp({ sql: 'SELECT 1', format: 'csv', csvDelimiter: ';;' })).statusCode).toBe(400);
  });

  it('writes a JSON array of row objects', async () => {
    const r = await exp({
      sql: 'SELECT id, label, amount, ok, doc FROM t WHERE id <= 2 ORDER BY id',
      format: 'json',
    });
    expect(r.headers['x-export-extension']).toBe('json');
    expect(JSON.parse(r.body)).toEqual([
      { id: 1, label: 'plain', amount: '1.50', ok: true, doc: { a: 1 } },
      { id: 2, label: 'comma, and "quote"', amount: null, ok: false, doc: null },
    ]);
    const empty = await exp({ sql: 'SELECT id FROM t WHERE false', format: 'json' });
    expect(JSON.parse(empty.body)).toEqual([]);
    expect(empty.headers['x-export-rows']).toBe('0');
  });

  it('writes INSERT statements and DDL that load back into the engine', async () => {
    const ins = await exp({
      sql: 'SELECT id, label, ok FROM t ORDER BY id',
      format: 'sql-insert',
      tabName: 'copy',
    });
    expect(ins.headers['x-export-extension']).toBe('sql');
    expect(ins.body.split('\n')[1]).toBe(
      `INSERT INTO "copy" ("id", "label", "ok") VALUES (2, 'comma, and "quote"', FALSE);`,
    );
    const ddl = await exp({
      sql: 'SELECT id, label, amount FROM t ORDER BY id',
      format: 'sql-ddl',
      tabName: 'copy2',
    });
    expect(
      ddl.body.startsWith(
        'CREATE TABLE "copy2" (\n  "id" integer,\n  "label" text,\n  "amount" numeric\n);\n',
      ),
    ).toBe(true);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(ddl.body);
      const back = await c.query('SELECT label FROM copy2 ORDER BY id');
      expect(back.rows.map((x) => x.label)).toEqual([
        'plain',
        'comma, and "quote"',
        'line\nbreak',
        'semi;colon',
      ]);
    } finally {
      await c.end();
    }
  });

  it('is bounded by the datasource maximum rows', async () => {
    const r = await h.post('/api/db/export', {
      connectionId: 'small',
      sql: 'SELECT n FROM big',
      format: 'csv',
    });
    expect(r.headers['x-export-rows']).toBe('100');
    expect(r.body.trimEnd().split('\r\n')).toHaveLength(101);
    const own = await h.post('/api/db/export', {
      connectionId: 'small',
      sql: 'SELECT n FROM big LIMIT 200',
      format: 'csv',
    });
    expect(own.headers['x-export-rows']).toBe('100');
  });

  it('streams several cursor batches in order, and a failure or timeout mid-stream frees the connection', async () => {
    // 12,000 rows are three FETCHes of 5,000 (the provider gathers each batch from pg's row events).
    const many = await exp({ sql: 'SELECT g AS n FROM generate_series(1, 12000) g', format: 'csv' });
    expect(many.statusCode).toBe(200);
    expect(many.headers['x-export-rows']).toBe('12000');
    const lines = many.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(12001);
    expect(lines[5000]).toBe('5000');
    expect(lines[5001]).toBe('5001');
    expect(lines[12000]).toBe('12000');
    // The second FETCH divides by zero: an error in the portal's shape, not a truncated file.
    const broken = await exp({
      sql: 'SELECT 1 / (g - 7000) AS n FROM generate_series(1, 12000) g',
      format: 'csv',
    });
    expect(broken.statusCode).toBeGreaterThanOrEqual(400);
    expect(broken.statusCode).toBeLessThan(500);
    expect(broken.json().error).toMatch(/division by zero/);
    expect(broken.headers['x-export-rows']).toBeUndefined();
    // Failing mid-stream again and again (a write of the spool in flight each time) raises no uncaught
    // exception: before the spool kept an error listener for its whole life, this killed the process.
    const escaped: unknown[] = [];
    const onUncaught = (err: unknown) => escaped.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 20; i++) {
        const again = await exp({
          sql: `SELECT repeat('x', 200) || (1 / (g - ${5001 + i * 37})) AS n FROM generate_series(1, 12000) g`,
          format: 'csv',
        });
        expect(again.statusCode).toBe(400);
      }
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(escaped).toEqual([]);
    const slow = await exp({
      connection: { ...connection, queryTimeout: 500 },
      sql: 'SELECT pg_sleep(5)',
      format: 'csv',
    });
    expect(slow.statusCode).toBe(408);
    expect(slow.json().code).toBe('QUERY_TIMEOUT');
    // The same connection identity exports again: the failed streams released their clients.
    for (let i = 0; i < 12; i++) {
      const again = await exp({ sql: 'SELECT id FROM t ORDER BY id', format: 'csv' });
      expect(again.statusCode).toBe(200);
      expect(again.headers['x-export-rows']).toBe('4');
    }
  });

  it('refuses a statement that does not only read, and binds parameters', async () => {
    for (const sql of [
      'DELETE FROM t',
      'SELECT * FROM t FOR UPDATE',
      'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d',
      'SELECT 1; SELECT 2',
    ]) {
      const r = await exp({ sql, format: 'csv' });
      expect(r.statusCode, sql).toBe(400);
    }
    const p = await exp({
      sql: 'SELECT label FROM t WHERE label = $1',
      params: ['comma, and "quote"'],
      format: 'csv',
    });
    expect(p.body).toBe('label\r\n"comma, and ""quote"""\r\n');
    expect((await exp({ sql: 'SELECT 1', format: 'xml' })).statusCode).toBe(400);
    expect(
      (await h.post('/api/db/export', { connectionId: 'unknown', sql: 'SELECT 1', format: 'csv' }))
        .statusCode,
    ).toBe(404);
  });

  it('applies the export rule before anything runs and masks every exported row', async () => {
    const seen: string[] = [];
    const gated = await harness({
      governance: {
        ...allowAllGovernance,
        checkExport(ctx) {
          seen.push(ctx.route);
          if (ctx.session.username === 'alice')
            throw new HttpError(403, 'Export not allowed', 'EXPORT_NOT_ALLOWED');
        },
        exportRowMasker: (_ctx, fields) => {
          const i = fields.indexOf('label');
          return (row) => row.map((v, k) => (k === i ? '***' : v));
        },
      },
    });
    try {
      const denied = await gated.post('/api/db/export', { connection, sql: 'DELETE FROM t', format: 'csv' });
      expect(denied.statusCode).toBe(403);
      const ok = await gated.post(
        '/api/db/export',
        { connection, sql: 'SELECT id, label FROM t WHERE id = 1', format: 'csv' },
        { username: 'carol', role: 'user' },
      );
      expect(ok.body).toBe('id,label\r\n1,***\r\n');
      expect(seen).toEqual(['export', 'export']);
      expect(gated.events.map((e) => e.type)).toEqual(['query_execution', 'data_export']);
      expect(gated.events[0]).toMatchObject({ action: 'export', format: 'csv', rowCount: 1 });
    } finally {
      await gated.close();
    }
  });
});
