// Masking on every session path that returns rows, against real PostgreSQL, MariaDB and SQLite datasources:
// /api/db/query, /api/db/multi-query, /api/db/transaction and /api/db/export (csv and json), aliases and
// expressions included, engine messages that could echo a masked value withheld, and `reveal` honoured for
// administrators only.
import { join } from 'node:path';
import { createMariadbDatabase, createPostgresDatabase, tempDir } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManagedDatasource } from '../../src/datasources/types.js';
import { declared } from '../datasources/declare.js';
import { ADMIN, ALICE, descriptorFromUrl } from '../query/harness.js';
import { type GovernedHarness, governed } from './policy-harness.js';

const MASKING = [
  { column: 'customers.email', rule: 'partial' },
  { column: 'customers.ssn', rule: 'full' },
  { column: '*.phone', rule: 'hash' },
];
const SEED = [
  "INSERT INTO customers VALUES (1, 'Ann', 'ann@example.com', '123-45-6789', '+1 555 0101')",
  "INSERT INTO customers VALUES (2, 'Ben', 'ben@example.org', '987-65-4321', '+1 555 0102')",
];
const SECRETS = ['ann@example.com', 'ben@example.org', '123-45-6789', '987-65-4321', '+1 555 0101'];

type Who = { username: string; role: 'admin' | 'user' };

let h: GovernedHarness;
let pgUrl = '';
let myUrl = '';
let sqliteFile = '';

beforeAll(async () => {
  pgUrl = await createPostgresDatabase(inject('services').postgresUrl);
  myUrl = await createMariadbDatabase(inject('services').mariadbUrl);
  const create =
    'CREATE TABLE customers (id int PRIMARY KEY, name varchar(50), email varchar(100), ssn varchar(20), phone varchar(30))';
  const pc = new pg.Client({ connectionString: pgUrl });
  await pc.connect();
  for (const s of [create, ...SEED]) await pc.query(s);
  await pc.end();
  const mc = await mysql.createConnection(myUrl);
  for (const s of [create, ...SEED]) await mc.query(s);
  await mc.end();
  sqliteFile = join(tempDir('portal-mask-'), 'mask.sqlite');
  const managed = (id: string, connection: Record<string, unknown>): ManagedDatasource =>
    declared(id, connection, { masking: MASKING, guardrails: false });
  h = await governed([
    managed('pg', descriptorFromUrl(pgUrl, 'postgres')),
    managed('maria', descriptorFromUrl(myUrl, 'mysql')),
    managed('lite', { type: 'sqlite', database: sqliteFile }),
  ]);
  // The SQLite file is created through the portal itself (an ordinary write on a datasource without gates).
  const made = await h.post(
    '/api/db/multi-query',
    { connectionId: 'lite', sql: [create, ...SEED].join(';\n') },
    ADMIN,
  );
  expect(made.json().executedCount).toBe(3);
});
afterAll(() => h?.close());

const noSecrets = (text: string) => {
  for (const s of SECRETS) expect(text).not.toContain(s);
};

describe.each(['pg', 'maria', 'lite'])('masking on %s', (id) => {
  const q = (sql: string, user: Who = ALICE) => h.post('/api/db/query', { connectionId: id, sql }, user);

  it('masks query results by column and through aliases and expressions', async () => {
    const r = await q('SELECT id, name, email, ssn, phone FROM customers ORDER BY id');
    expect(r.statusCode).toBe(200);
    const rows = r.json().rows;
    expect(rows[0]).toMatchObject({ id: 1, name: 'Ann', email: 'a***@example.com', ssn: '****' });
    expect(rows[0].phone).toMatch(/^hash:[0-9a-f]{16}$/);
    noSecrets(r.body);
    const star = await q('SELECT * FROM customers');
    noSecrets(star.body);
    const derived = await q(
      'SELECT upper(email) AS e, lower(ssn) AS s, name AS n FROM customers ORDER BY id',
    );
    expect(derived.json().rows[0]).toEqual({ e: 'A***@EXAMPLE.COM', s: '****', n: 'Ann' });
    // A masked column inside a subquery would feed the outer query unmasked: refused (see the next test).
    const sub = await q('SELECT x FROM (SELECT ssn AS x FROM customers) t');
    expect(sub.statusCode).toBe(403);
    noSecrets(sub.body);
    // Administrators are masked too (only an export may be revealed, by an administrator).
    noSecrets((await q('SELECT email, ssn FROM customers', ADMIN)).body);
  });

  it('refuses masked columns that would steer the result (WHERE probes, ORDER BY, JOIN ON), on every route', async () => {
    const probes = [
      "SELECT id FROM customers WHERE email LIKE 'a%'",
      "SELECT count(*) AS n FROM customers WHERE ssn > '5'",
      'SELECT id, name FROM customers ORDER BY phone',
      'SELECT c.id FROM customers c JOIN customers d ON d.ssn = c.ssn',
      'SELECT email FROM customers ORDER BY 1',
    ];
    for (const sql of probes) {
      for (const who of [ALICE, ADMIN]) {
        const r = await q(sql, who);
        expect(r.statusCode, `${sql}: ${r.body}`).toBe(403);
        expect(r.json()).toMatchObject({ code: 'MASKED_COLUMN_PREDICATE', statusCode: 403 });
        expect(r.json().error).toMatch(/masked/);
      }
    }
    const script = await h.post('/api/db/multi-query', {
      connectionId: id,
      sql: "SELECT 1 AS one; SELECT id FROM customers WHERE email LIKE 'b%'",
    });
    expect(script.statusCode).toBe(403);
    expect(script.json().code).toBe('MASKED_COLUMN_PREDICATE');
    const exp = await h.post('/api/db/export', {
      connectionId: id,
      sql: "SELECT id FROM customers WHERE email LIKE 'a%'",
      format: 'csv',
    });
    expect(exp.statusCode).toBe(403);
    // An administrator's revealed export sees the values anyway, so it may filter by them.
    const revealed = await h.post(
      '/api/db/export',
      {
        connectionId: id,
        sql: "SELECT id FROM customers WHERE email LIKE 'a%'",
        format: 'csv',
        reveal: true,
      },
      ADMIN,
    );
    expect(revealed.statusCode).toBe(200);
    expect(revealed.body.trim().split(/\r?\n/)).toEqual(['id', '1']);
    expect(h.events.some((e) => e.type === 'permission_denied' && e.code === 'MASKED_COLUMN_PREDICATE')).toBe(
      true,
    );
    // Unmasked columns still filter and sort as usual.
    const ok = await q("SELECT email FROM customers WHERE name = 'Ben' ORDER BY id");
    expect(ok.statusCode).toBe(200);
    expect(ok.json().rows).toEqual([{ email: 'b***@example.org' }]);
  });

  it('masks every statement of a script and rows read inside a transaction', async () => {
    const s = await h.post('/api/db/multi-query', {
      connectionId: id,
      sql: 'SELECT id FROM customers WHERE id = 1; SELECT email AS e FROM customers; SELECT name FROM customers',
    });
    expect(s.statusCode).toBe(200);
    const [first, second, third] = s.json().statements;
    expect(first.rows).toEqual([{ id: 1 }]);
    expect(second.rows.map((r: { e: string }) => r.e).sort()).toEqual([
      'a***@example.com',
      'b***@example.org',
    ]);
    expect(third.rows.map((r: { name: string }) => r.name).sort()).toEqual(['Ann', 'Ben']);
    noSecrets(s.body);

    const begin = await h.post('/api/db/transaction', {
      connectionId: id,
      connection: { id },
      action: 'begin',
    });
    const txId = begin.json().transactionId;
    const inTx = await h.post('/api/db/transaction', {
      action: 'query',
      transactionId: txId,
      sql: 'SELECT ssn, phone FROM customers',
    });
    expect(inTx.statusCode).toBe(200);
    noSecrets(inTx.body);
    await h.post('/api/db/transaction', { action: 'rollback', transactionId: txId });
  });

  it('masks exports row by row; reveal is honoured for administrators only', async () => {
    for (const format of ['csv', 'json', 'sql-insert']) {
      const r = await h.post('/api/db/export', { connectionId: id, sql: 'SELECT * FROM customers', format });
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-export-rows']).toBe('2');
      noSecrets(r.body);
    }
    const asked = await h.post('/api/db/export', {
      connectionId: id,
      sql: 'SELECT email AS e FROM customers',
      format: 'csv',
      reveal: true,
    });
    noSecrets(asked.body);
    const revealed = await h.post(
      '/api/db/export',
      { connectionId: id, sql: 'SELECT email FROM customers ORDER BY id', format: 'csv', reveal: true },
      ADMIN,
    );
    expect(revealed.body).toContain('ann@example.com');
    expect(h.events.find((e) => e.action === 'export' && e.revealed === true)).toBeDefined();
  });

  it('withholds engine messages that could echo a masked value', async () => {
    const cast =
      id === 'lite'
        ? 'SELECT json_extract(email, "$") FROM customers'
        : 'SELECT CAST(email AS int) FROM customers';
    const r = await q(id === 'pg' ? 'SELECT email::int FROM customers' : cast);
    if (id === 'pg') expect(r.statusCode).toBe(400);
    if (r.statusCode === 200) {
      // MariaDB and SQLite cast without failing: the values are still masked.
      noSecrets(r.body);
    } else {
      expect(r.json().code).toBe('QUERY_ERROR');
      expect(r.json().error).toMatch(/withheld/);
      noSecrets(r.body);
    }
    // Statements that do not read masked columns keep the engine's message.
    const plain = await q('SELECT name FROM no_such_table');
    expect(plain.json().error).not.toMatch(/withheld/);
  });
});
