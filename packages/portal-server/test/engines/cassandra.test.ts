// The wide-column engine (cassandra-driver) against the CQL native-protocol v4 double of
// test/doubles/cassandra.ts (no Cassandra server installs here): descriptor validation, typed values (blob
// hex, bigint/varint/decimal digit strings), paging through the driver's paging state with the auto-limit,
// no OFFSET, prepared statements for params, errors (syntax/invalid/unauthorized → 400, server read timeout
// and a statement that never answers → 408, bad credentials → 503), the object surface from system_schema,
// health from system tables, and governance through the HTTP routes: read-only refusal, guardrail →
// approval (DELETE, TRUNCATE, DROP, GRANT, a BATCH holding a DELETE), masking, object rules, export and the
// bot API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { type CassandraDouble, startCassandraDouble } from '../doubles/cassandra.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

let db: CassandraDouble;
let h: GovernedHarness;
let connection: Record<string, unknown>;
let bot: BotHarness;
let secret: string;

const SETUP = [
  "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
  'CREATE TABLE shop.users (id int PRIMARY KEY, name text, email text, avatar blob, balance decimal, visits bigint, big varint, uid uuid, active boolean, seen timestamp)',
  'CREATE TABLE shop.events (day text, seq int, what text, PRIMARY KEY ((day), seq))',
  'CREATE INDEX users_email ON shop.users (email)',
  "INSERT INTO shop.users (id, name, email, avatar, balance, visits, big, uid, active, seen) VALUES (1, 'Ada', 'ada@example.com', 0xcafe, 12345678901234567890.125, 9007199254740993, 123456789012345678901234567890, 6f1c2a3e-1b2c-4d3e-8f4a-5b6c7d8e9f00, true, 1700000000000)",
  "INSERT INTO shop.users (id, name, email) VALUES (2, 'Grace', 'grace@example.com')",
];

beforeAll(async () => {
  db = await startCassandraDouble();
  for (const s of SETUP) db.state.run(s, null, []);
  for (let i = 0; i < 25; i++)
    db.state.run(`INSERT INTO shop.events (day, seq, what) VALUES ('mon', ${i}, 'e${i}')`, null, []);
  db.state.views.push({
    keyspace: 'shop',
    name: 'users_by_email',
    base: 'users',
    where: 'email IS NOT NULL AND id IS NOT NULL',
  });
  connection = {
    type: 'cassandra',
    host: '127.0.0.1',
    port: db.port,
    database: 'shop',
    localDataCenter: 'dc1',
  };
  h = await governed(
    [
      managedDs('ro', connection, { readOnly: true }),
      managedDs('rw', connection, { guardrails: false }),
      managedDs('guarded', connection, {}),
      managedDs('masked', connection, {
        guardrails: false,
        masking: [{ column: 'users.email', rule: 'partial' }],
        objectRules: { hidden: ['shop.events'], defaultSchema: 'shop' },
      }),
    ],
    {},
  );
  bot = await botPortal({
    datasources: () =>
      [
        '  - id: cass',
        '    type: cassandra',
        '    host: 127.0.0.1',
        `    port: ${db.port}`,
        '    database: shop',
        '    localDataCenter: dc1',
        '    roles: [admin, user]',
        '    policy: { writeApproval: true, masking: [{ column: "*.email", rule: partial }] }',
        '',
      ].join('\n'),
  });
  secret = (await bot.token({ name: 'cass-bot' })).secret;
}, 60_000);

afterAll(async () => {
  await bot?.close();
  await h?.close();
  await db?.close();
});

const query = (connectionId: string, sql: string, extra: Record<string, unknown> = {}) =>
  h.post('/api/db/query', { connectionId, sql, ...extra }, ADMIN);

describe('cassandra engine: descriptor and connection', () => {
  it('refuses a descriptor without localDataCenter, with a connection string, or with a bad keyspace (400)', async () => {
    const base = { id: 'x', type: 'cassandra', host: '127.0.0.1', port: db.port };
    for (const conn of [
      base,
      { ...base, localDataCenter: '  ' },
      { ...base, localDataCenter: 'dc1', connectionString: 'cassandra://x' },
      { ...base, localDataCenter: 'dc1', database: 'a;b' },
    ]) {
      const r = await h.post('/api/db/query', { connection: conn, sql: 'SELECT * FROM system.local' }, ADMIN);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe('CONFIGURATION_ERROR');
    }
  });

  it('test-connection reads system.local; a closed port is 503', async () => {
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/Cassandra 4\.1\.5/);
    const down = await h.post(
      '/api/db/query',
      { connection: { id: 'down', ...connection, port: 1 }, sql: 'SELECT * FROM users' },
      ADMIN,
    );
    expect(down.statusCode, down.body).toBe(503);
  });

  it('authenticates with PasswordAuthenticator and answers bad credentials as 503 AUTHENTICATION_ERROR', async () => {
    const secured = await startCassandraDouble({ credentials: { user: 'portal', password: 's3cret' } });
    try {
      for (const s of SETUP.slice(0, 2)) secured.state.run(s, null, []);
      const conn = { ...connection, port: secured.port, user: 'portal' };
      const ok = await h.post(
        '/api/db/query',
        { connection: { id: 'auth-ok', ...conn, password: 's3cret' }, sql: 'SELECT id FROM users' },
        ADMIN,
      );
      expect(ok.statusCode, ok.body).toBe(200);
      const bad = await h.post(
        '/api/db/query',
        { connection: { id: 'auth-bad', ...conn, password: 'nope' }, sql: 'SELECT id FROM users' },
        ADMIN,
      );
      expect(bad.statusCode, bad.body).toBe(503);
      expect(bad.json().code).toBe('AUTHENTICATION_ERROR');
      expect(bad.body).not.toMatch(/nope/);
    } finally {
      await secured.close();
    }
  });

  it('provider-meta states the truthful flags', async () => {
    const r = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    for (const flag of ['supportsExplain', 'supportsCancel', 'supportsMaintenance', 'supportsTransactions'])
      expect(r.body).toMatch(new RegExp(`"${flag}":false`));
    expect(r.body).toMatch(/"supportsPositionalParams":true/);
    expect(r.json().connectionFields).toEqual([
      expect.objectContaining({ name: 'localDataCenter', required: true }),
    ]);
  });
});

describe('cassandra engine: statements and values', () => {
  it('normalises values: blob hex, big numbers as exact digit strings, uuid and timestamp text', async () => {
    const r = await query('rw', 'SELECT * FROM users WHERE id = 1');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.fields).toEqual([
      'id',
      'name',
      'email',
      'avatar',
      'balance',
      'visits',
      'big',
      'uid',
      'active',
      'seen',
    ]);
    expect(body.rows[0]).toEqual({
      id: 1,
      name: 'Ada',
      email: 'ada@example.com',
      avatar: '0xcafe',
      balance: '12345678901234567890.125',
      visits: '9007199254740993',
      big: '123456789012345678901234567890',
      uid: '6f1c2a3e-1b2c-4d3e-8f4a-5b6c7d8e9f00',
      active: true,
      seen: '2023-11-14T22:13:20.000Z',
    });
    expect(body.columnTypes).toMatchObject({
      avatar: 'blob',
      visits: 'bigint',
      big: 'varint',
      balance: 'decimal',
    });
  });

  it('auto-limits with LIMIT and reads past driver pages through the paging state; OFFSET is refused', async () => {
    const r = await query('rw', 'SELECT seq FROM events', { options: { limit: 10 } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows).toHaveLength(10);
    expect(r.json().pagination).toMatchObject({ wasLimited: true, hasMore: true, totalReturned: 10 });
    expect(db.state.log.at(-1)).toMatch(/LIMIT 11$/);
    const all = await query('rw', 'SELECT seq FROM events', { options: { limit: 100 } });
    expect(all.json().rows).toHaveLength(25);
    expect(all.json().pagination.hasMore).toBe(false);
    const second = await query('rw', 'SELECT seq FROM events', { options: { limit: 10, offset: 10 } });
    expect(second.statusCode, second.body).toBe(400);
    expect(second.body).toMatch(/no OFFSET/);
  });

  it('binds params through a prepared statement', async () => {
    const r = await query('rw', 'SELECT name FROM users WHERE id = ?', { params: [2] });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows).toEqual([{ name: 'Grace' }]);
  });

  it('writes report no row count; errors are 400 QUERY_ERROR with the server message', async () => {
    const w = await query('rw', "INSERT INTO users (id, name) VALUES (3, 'Linus')");
    expect(w.statusCode, w.body).toBe(200);
    expect(w.json().rowCount).toBe(0);
    expect((await query('rw', 'SELECT name FROM users WHERE id = 3')).json().rows).toEqual([
      { name: 'Linus' },
    ]);
    const syntax = await query('rw', 'SELEKT * FROM users');
    expect(syntax.statusCode).toBe(400);
    const invalid = await query('rw', 'SELECT * FROM nosuch');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toMatch(/unconfigured table nosuch/);
  });

  it('a server read timeout and a statement that never answers are 408', async () => {
    const t = await query('rw', 'SELECT * FROM read_timeout');
    expect(t.statusCode, t.body).toBe(408);
    const stall = await h.post(
      '/api/db/query',
      { connection: { id: 'slow', ...connection, queryTimeout: 300 }, sql: 'SELECT * FROM stall' },
      ADMIN,
    );
    expect(stall.statusCode, stall.body).toBe(408);
    // No cancel in the protocol: a running statement registers nothing for /api/db/cancel to stop.
    const pending = h.post(
      '/api/db/query',
      {
        connection: { id: 'slow2', ...connection, queryTimeout: 3_000 },
        sql: 'SELECT id FROM stall',
        queryId: 'cass-q1',
      },
      ADMIN,
    );
    await expect
      .poll(() => db.state.log.some((l) => l.startsWith('SELECT id FROM stall')), { timeout: 20_000 })
      .toBe(true);
    expect((await h.post('/api/db/cancel', { queryId: 'cass-q1' }, ADMIN)).statusCode).toBe(404);
    expect((await pending).statusCode).toBe(408);
  });
});

describe('cassandra engine: governance', () => {
  it('a read-only datasource reads and refuses every write kind; nothing changes', async () => {
    expect((await query('ro', 'SELECT id FROM users')).statusCode).toBe(200);
    for (const sql of [
      "INSERT INTO users (id, name) VALUES (9, 'x')",
      "UPDATE users SET name = 'x' WHERE id = 1",
      'DELETE FROM users WHERE id = 1',
      'TRUNCATE users',
      'DROP TABLE users',
      'GRANT SELECT ON KEYSPACE shop TO bob',
      "BEGIN BATCH INSERT INTO users (id, name) VALUES (9, 'x') APPLY BATCH",
    ]) {
      const r = await query('ro', sql);
      expect(r.statusCode, `${sql}: ${r.body}`).toBe(403);
    }
    const script = await h.post(
      '/api/db/multi-query',
      { connectionId: 'ro', sql: "SELECT id FROM users; INSERT INTO users (id, name) VALUES (9, 'x')" },
      ADMIN,
    );
    expect(script.statusCode, script.body).toBe(403);
    expect(db.state.table('shop', 'users').rows.has('9')).toBe(false);
    expect(db.state.table('shop', 'users').rows.size).toBeGreaterThanOrEqual(2);
    expect((await query('rw', 'SELECT name FROM users WHERE id = 1')).json().rows).toEqual([{ name: 'Ada' }]);
  });

  it('classifies CQL: DELETE → delete, TRUNCATE → truncate, DROP → drop, GRANT → grant, a BATCH holding a DELETE → delete', async () => {
    const g = async (sql: string) => (await classifyScript(sql, 'cassandra')).guardrails;
    expect(await g('DELETE FROM users WHERE id = 1')).toContain('delete');
    expect(await g('TRUNCATE users')).toContain('truncate');
    expect(await g('DROP TABLE users')).toContain('drop');
    expect(await g('GRANT SELECT ON KEYSPACE shop TO bob')).toContain('grant');
    expect(await g('BEGIN BATCH DELETE FROM users WHERE id = 1 APPLY BATCH')).toContain('delete');
    const read = await classifyScript('SELECT * FROM users WHERE id = 1', 'cassandra');
    expect(read.isWrite).toBe(false);
    expect(read.transactionControl).toBe(false);
    expect((await classifyScript('BEGIN BATCH APPLY BATCH', 'cassandra')).transactionControl).toBe(false);
  });

  it('a guarded datasource holds DELETE, TRUNCATE, DROP and GRANT for approval; a batch runs whole once allowed', async () => {
    for (const sql of [
      'DELETE FROM users WHERE id = 2',
      'TRUNCATE users',
      'DROP TABLE users',
      'GRANT SELECT ON KEYSPACE shop TO bob',
    ]) {
      const r = await query('guarded', sql);
      expect(r.statusCode, `${sql}: ${r.body}`).toBe(403);
      expect(r.body).toMatch(/APPROVAL_REQUIRED/);
    }
    expect(db.state.table('shop', 'users').rows.size).toBeGreaterThanOrEqual(2);
    const batch = await query(
      'rw',
      "BEGIN BATCH INSERT INTO users (id, name) VALUES (20, 'b1') INSERT INTO users (id, name) VALUES (21, 'b2') APPLY BATCH",
    );
    expect(batch.statusCode, batch.body).toBe(200);
    expect((await query('rw', 'SELECT name FROM users WHERE id IN (20, 21)')).json().rows).toHaveLength(2);
    const grant = await query('rw', 'GRANT SELECT ON KEYSPACE shop TO bob');
    expect(grant.statusCode, grant.body).toBe(400);
    expect(grant.body).toMatch(/AUTHORIZE permission/);
  });

  it('masks columns and enforces object rules', async () => {
    const r = await query('masked', 'SELECT id, email FROM users WHERE id = 1');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows[0].email).not.toBe('ada@example.com');
    for (const sql of [
      'SELECT "email" FROM users WHERE id = 1',
      'SELECT email AS e FROM users WHERE id = 1',
      'SELECT * FROM users WHERE id = 1',
      'SELECT id, email FROM users WHERE id = 1 ALLOW FILTERING',
    ]) {
      const m = await h.post('/api/db/query', { connectionId: 'masked', sql }, ALICE);
      expect(m.statusCode, m.body).toBe(200);
      expect(m.body, sql).not.toMatch(/ada@example\.com/);
    }
    // Object rules bind users (administrators are exempt by design).
    const hidden = await h.post(
      '/api/db/query',
      { connectionId: 'masked', sql: 'SELECT * FROM events' },
      ALICE,
    );
    expect(hidden.statusCode, hidden.body).toBe(403);
  });

  it('exports json and csv through the governed path; sql formats are refused', async () => {
    const csv = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT seq, what FROM events', format: 'csv' },
      ADMIN,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('25');
    expect(csv.body.split('\n')[0]).toMatch(/seq.*what/);
    const json = await h.post(
      '/api/db/export',
      { connectionId: 'masked', sql: 'SELECT id, email FROM users', format: 'json' },
      ADMIN,
    );
    expect(json.statusCode, json.body).toBe(200);
    expect(json.body).not.toMatch(/ada@example\.com/);
    const sqlFormat = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT id FROM users', format: 'sql-insert' },
      ADMIN,
    );
    expect(sqlFormat.statusCode, sqlFormat.body).toBe(400);
    const write = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'TRUNCATE users', format: 'csv' },
      ADMIN,
    );
    expect(write.statusCode).toBe(400);
  });
});

describe('cassandra engine: objects and health', () => {
  it('lists keyspace tables and views from system_schema and describes keys and indexes', async () => {
    const list = await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN);
    expect(list.statusCode, list.body).toBe(200);
    const objects = list.json().objects as Array<Record<string, unknown>>;
    expect(objects).toEqual(
      expect.arrayContaining([
        { path: ['shop', 'users'], name: 'users', kind: 'table' },
        { path: ['shop', 'events'], name: 'events', kind: 'table' },
        { path: ['shop', 'users_by_email'], name: 'users_by_email', kind: 'materialized_view' },
      ]),
    );
    for (const o of objects) expect(o).not.toHaveProperty('rowCount');
    const d = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: ['shop', 'events'] },
      ADMIN,
    );
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().columns.slice(0, 2)).toEqual([
      { name: 'day', type: 'text', nullable: false, isPrimary: true },
      { name: 'seq', type: 'int', nullable: false, isPrimary: true },
    ]);
    const u = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: ['shop', 'users'] },
      ADMIN,
    );
    expect(u.json().indexes).toEqual([{ name: 'users_email', columns: ['email'], unique: false }]);
  });

  it('answers health from system tables, never zero-filled', async () => {
    const r = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().activeConnections).toBeGreaterThanOrEqual(1);
    expect(r.json().databaseSize).toMatch(/not reported/);
    const m = await h.post('/api/db/monitoring', { connectionId: 'rw' }, ADMIN);
    expect(m.statusCode, m.body).toBe(200);
    expect(m.json()).toMatchObject({ releaseVersion: '4.1.5', dataCenter: 'dc1', nodes: 1 });
  });
});

describe('cassandra engine: bot API', () => {
  const submit = (statement: string) =>
    bot.submit(secret, { datasourceId: 'cass', statement, onBehalfOf: 'alice@example.com' });

  it('a read runs at once with masked rows', async () => {
    const res = await submit('SELECT id, email FROM users WHERE id = 2');
    expect(res.statusCode, res.body).toBe(200);
    const e = res.json().execution.execution;
    expect(e).toMatchObject({ status: 'done', rowCount: 1, fields: ['id', 'email'] });
    expect(e.rows[0].email).not.toBe('grace@example.com');
  });

  it('a DELETE waits for a reviewer, changes nothing when rejected, and runs once approved', async () => {
    const held = await submit('DELETE FROM users WHERE id = 2');
    expect(held.statusCode, held.body).toBe(202);
    const rec = held.json().execution;
    expect(rec.guardrail).toBe('delete');
    expect((await bot.decide(rec.approvalId, 'reject')).statusCode).toBe(200);
    await bot.drain();
    expect(db.state.run('SELECT id FROM shop.users WHERE id = 2', null, [])).toMatchObject({ rows: [[2]] });
    const again = (await submit('DELETE FROM users WHERE id = 2')).json().execution;
    expect((await bot.decide(again.approvalId, 'approve')).statusCode).toBe(200);
    await bot.drain();
    expect((await bot.read(secret, again.id)).json().execution).toMatchObject({ status: 'done' });
    expect(db.state.run('SELECT id FROM shop.users WHERE id = 2', null, [])).toMatchObject({ rows: [] });
  });
});
