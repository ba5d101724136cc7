// The ClickHouse engine against the real clickhouse-server of the vitest global setup (Debian's 18.16, HTTP
// interface) through the HTTP routes: results (64-bit integers exact, arrays as JSON, duplicate names),
// auto-limit and paging, explicit FORMAT/SETTINGS sent unchanged with wasLimited false, mutations with
// rowCount 0, governance (read-only refusal with the data unchanged, ALTER TABLE … DELETE/UPDATE guardrails,
// DROP/TRUNCATE holds, masking, object rules), export, objects, health, maintenance, cancel, the deadline,
// and the bot API.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

const base = inject('services').clickhouseUrl;
const DB = `portal_${process.pid}_${Date.now().toString(36)}`;
const u = new URL(base);
const connection = { type: 'clickhouse', host: u.hostname, port: Number(u.port), database: DB };

/** A statement straight to the server (not through the portal), answered as text. */
async function direct(sql: string): Promise<string> {
  const res = await fetch(`${base}/?database=${DB}`, { method: 'POST', body: sql });
  const text = await res.text();
  if (!res.ok) throw new Error(text);
  return text.trim();
}

let h: GovernedHarness;
/** Endless but gentle: 10 rows a block, 10 ms a row, stopped only by the portal (or after 120 s by the server). */
const SLOW =
  'SELECT count() FROM system.numbers WHERE sleepEachRow(0.01) = 0 SETTINGS max_block_size = 10, max_execution_time = 120';

beforeAll(async () => {
  await fetch(`${base}/`, { method: 'POST', body: `CREATE DATABASE ${DB}` });
  await direct(
    'CREATE TABLE people (id UInt64, name String, email String, tags Array(String)) ENGINE = MergeTree ORDER BY id',
  );
  await direct(
    "INSERT INTO people VALUES (1, 'ann', 'ann@corp.example', ['a','b']), (2, 'ben', 'ben@corp.example', []), (18446744073709551615, 'max', 'max@corp.example', ['z'])",
  );
  await direct('CREATE TABLE numbers_copy (n UInt32) ENGINE = MergeTree ORDER BY n');
  await direct('INSERT INTO numbers_copy SELECT toUInt32(number) FROM system.numbers LIMIT 1200');
  await direct('CREATE VIEW small_people AS SELECT id, name FROM people WHERE id < 10');
  h = await governed([
    managedDs('ro', connection, { readOnly: true }),
    managedDs('rw', connection, { guardrails: false }),
    managedDs('guarded', connection, {}),
    managedDs('masked', connection, {
      guardrails: false,
      masking: [{ column: 'people.email', rule: 'partial' }],
    }),
    managedDs('rules', connection, {
      guardrails: false,
      objectRules: { hidden: [`${DB}.people`], defaultSchema: DB },
    }),
  ]);
});

afterAll(async () => {
  await h?.close();
  await fetch(`${base}/`, { method: 'POST', body: `DROP DATABASE IF EXISTS ${DB}` });
});

const query = (
  connectionId: string,
  sql: string,
  extra: Record<string, unknown> = {},
  user: { username: string; role: 'admin' | 'user' } = ADMIN,
) => h.post('/api/db/query', { connectionId, sql, ...extra }, user);

describe('clickhouse: results', () => {
  it('answers rows in column order with exact 64-bit integers and arrays as JSON', async () => {
    const r = await query('rw', 'SELECT id, name, tags FROM people ORDER BY id');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.fields).toEqual(['id', 'name', 'tags']);
    expect(body.rows).toEqual([
      { id: 1, name: 'ann', tags: ['a', 'b'] },
      { id: 2, name: 'ben', tags: [] },
      { id: '18446744073709551615', name: 'max', tags: ['z'] },
    ]);
    expect(body.columnTypes).toMatchObject({ id: 'UInt64', tags: 'Array(String)' });
    expect(body.pagination).toMatchObject({ wasLimited: true, hasMore: false });
  });

  it('disambiguates duplicate output names', async () => {
    // ClickHouse itself refuses two identical aliases; the same column twice arrives twice.
    const same = await query('rw', 'SELECT name, name FROM people WHERE id = 1');
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().fields).toEqual(['name', 'name (2)']);
    expect(same.json().rows).toEqual([{ name: 'ann', 'name (2)': 'ann' }]);
  });

  it('auto-limits a plain SELECT and pages with offset', async () => {
    const first = await query('rw', 'SELECT n FROM numbers_copy ORDER BY n');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().rows).toHaveLength(500);
    expect(first.json().pagination).toMatchObject({ wasLimited: true, hasMore: true });
    const page = await query('rw', 'SELECT n FROM numbers_copy ORDER BY n', { options: { offset: 1000 } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().rows[0]).toEqual({ n: 1000 });
    expect(page.json().rows).toHaveLength(200);
    expect(page.json().pagination.hasMore).toBe(false);
  });

  it('sends a statement ending in FORMAT or SETTINGS unchanged, with wasLimited false', async () => {
    const fmt = await query('rw', 'SELECT n FROM numbers_copy ORDER BY n FORMAT JSONEachRow');
    expect(fmt.statusCode, fmt.body).toBe(200);
    expect(fmt.json().pagination.wasLimited).toBe(false);
    expect(fmt.json().rows[0]).toEqual({ n: 0 });
    const csv = await query('ro', "SELECT id, name FROM people WHERE name = 'ann' FORMAT CSV");
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.json()).toMatchObject({ fields: ['output'], rows: [{ output: '1,"ann"' }] });
    expect(csv.json().pagination.wasLimited).toBe(false);
    const settings = await query('ro', 'SELECT count() AS c FROM numbers_copy SETTINGS max_threads = 1');
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().rows).toEqual([{ c: 1200 }]);
    expect(settings.json().pagination.wasLimited).toBe(false);
  });

  it('reports a mutation with rowCount 0 and applies it', async () => {
    await direct('CREATE TABLE scratch (id UInt32, v String) ENGINE = MergeTree ORDER BY id');
    const ins = await query('rw', "INSERT INTO scratch VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    expect(ins.statusCode, ins.body).toBe(200);
    const upd = await query('rw', "ALTER TABLE scratch UPDATE v = 'z' WHERE id = 2");
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().rowCount).toBe(0);
    const del = await query('rw', 'ALTER TABLE scratch DELETE WHERE id = 3');
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().rowCount).toBe(0);
    // Mutations run in the background: wait for the server to finish them.
    for (let i = 0; i < 200; i++) {
      if ((await direct('SELECT count() FROM system.mutations WHERE is_done = 0')) === '0') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await direct('SELECT id, v FROM scratch ORDER BY id FORMAT CSV')).toBe('1,"a"\n2,"z"');
  });

  it('answers the engine message as 400 QUERY_ERROR and refuses positional params', async () => {
    const bad = await query('rw', 'SELECT nosuch FROM people');
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().code).toBe('QUERY_ERROR');
    expect(bad.json().error).toMatch(/nosuch/);
    expect(bad.json().error).not.toMatch(/e\.what\(\)/);
    const params = await query('rw', 'SELECT 1', { params: [1] });
    expect(params.statusCode).toBe(400);
  });

  it('stops a statement at queryTimeout with 408 and the server stops it', async () => {
    const r = await h.post(
      '/api/db/query',
      {
        connection: { id: 'slow', ...connection, queryTimeout: 300 },
        sql: `${SLOW} /* slow-one */`,
      },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(408);
    // The deadline's KILL QUERY ends it on the server too.
    let left = '1';
    for (let i = 0; i < 300 && left !== '0'; i++) {
      left = await direct(
        "SELECT count() FROM system.processes WHERE query LIKE '%slow-one%' AND query NOT LIKE '%system.processes%'",
      );
      if (left !== '0') await new Promise((res) => setTimeout(res, 50));
    }
    expect(left).toBe('0');
  });

  it('cancels a running statement through /api/db/cancel', async () => {
    const running = query('rw', `${SLOW.replace('SETTINGS', '/* cancel-me */ SETTINGS')}`, {
      queryId: 'ch-1',
    });
    for (let i = 0; i < 300; i++) {
      const n = await direct(
        "SELECT count() FROM system.processes WHERE query LIKE '%cancel-me%' AND query NOT LIKE '%system.processes%'",
      );
      if (n !== '0') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await h.post('/api/db/cancel', { queryId: 'ch-1' }, ADMIN)).statusCode).toBe(200);
    const r = await running;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
  });
});

describe('clickhouse: governance', () => {
  it('classifies mutations as the DELETE/UPDATE they are, and a FORMAT/SETTINGS tail as a read', async () => {
    const c = async (sql: string) => classifyScript(sql, 'clickhouse');
    expect((await c('ALTER TABLE t DELETE WHERE id = 1')).guardrails).toEqual(['delete']);
    expect((await c('ALTER TABLE t DELETE WHERE 1 = 1')).guardrails).toEqual([
      'delete_without_where',
      'delete',
    ]);
    expect((await c("ALTER TABLE t UPDATE v = 'x' WHERE 1")).guardrails).toEqual(['update_always_true']);
    expect((await c("ALTER TABLE t UPDATE v = 'x', w = 2 WHERE id = 2")).guardrails).toEqual([]);
    expect((await c("ALTER TABLE t UPDATE v = 'x' WHERE id = 2")).isWrite).toBe(true);
    expect((await c('SELECT * FROM t FORMAT CSV')).isWrite).toBe(false);
    expect((await c('SELECT * FROM t SETTINGS max_threads = 1 FORMAT JSON')).isWrite).toBe(false);
    // Shapes not read exactly stay doubtful writes held by every keyword guardrail.
    const multi = await c('ALTER TABLE t DELETE WHERE id = 1, DROP COLUMN v');
    expect(multi.isWrite).toBe(true);
    expect(multi.guardrails).toEqual(expect.arrayContaining(['drop', 'delete']));
    expect((await c('SELECT 1 FORMAT JSON; DROP TABLE x')).guardrails).toEqual(['drop']);
    expect((await c('GRANT SELECT ON db.* TO u')).guardrails).toEqual(['grant']);
  });

  const writes = [
    "INSERT INTO people VALUES (9, 'eve', 'e@x', [])",
    'ALTER TABLE people DELETE WHERE id = 1',
    "ALTER TABLE people UPDATE name = 'x' WHERE id = 1",
    'TRUNCATE TABLE people',
    'DROP TABLE people',
    'SELECT 1; DROP TABLE people',
    'OPTIMIZE TABLE people FINAL',
    'CREATE TABLE evil (x UInt8) ENGINE = Memory',
    "SELECT * FROM people FORMAT CSV; INSERT INTO people VALUES (9, 'eve', 'e@x', [])",
  ];
  it.each(writes)('a read-only datasource refuses %j and nothing changes', async (sql) => {
    const r = sql.includes(';')
      ? await h.post('/api/db/multi-query', { connectionId: 'ro', sql }, ADMIN)
      : await query('ro', sql);
    expect(r.statusCode, r.body).toBe(403);
    expect(await direct('SELECT count() FROM people')).toBe('3');
    expect(
      await direct("SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'evil'"),
    ).toBe('0');
  });

  it('holds DELETE, always-true UPDATE, DROP, TRUNCATE and GRANT for approval on a guarded datasource', async () => {
    const cases: Array<[string, string]> = [
      ['ALTER TABLE people DELETE WHERE id = 1', 'delete'],
      ['ALTER TABLE people DELETE WHERE 1', 'delete_without_where'],
      ["ALTER TABLE people UPDATE name = 'x' WHERE 1 = 1", 'update_always_true'],
      ['DROP TABLE people', 'drop'],
      ['TRUNCATE TABLE people', 'truncate'],
      ['GRANT SELECT ON *.* TO default', 'grant'],
    ];
    for (const [sql, guardrail] of cases) {
      const r = await query('guarded', sql, {}, ALICE);
      expect(r.statusCode, sql).toBe(403);
      expect(r.json(), sql).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail });
    }
    expect(await direct('SELECT count() FROM people')).toBe('3');
    expect(await direct('SELECT name FROM people WHERE id = 1')).toBe('ann');
  });

  it('masks columns by rule and hides objects by rule', async () => {
    const m = await query('masked', 'SELECT id, email FROM people WHERE id = 1', {}, ALICE);
    expect(m.statusCode, m.body).toBe(200);
    expect(m.json().rows).toEqual([{ id: 1, email: 'a***@corp.example' }]);
    // Object rules bind users (administrators see everything).
    const hidden = await query('rules', 'SELECT * FROM people', {}, ALICE);
    expect(hidden.statusCode, hidden.body).toBe(403);
    expect(hidden.json().code).toBe('OBJECT_FORBIDDEN');
    const fine = await query('rules', 'SELECT count() AS c FROM numbers_copy', {}, ALICE);
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('exports json and csv with masked rows, refuses a write and the SQL formats say why', async () => {
    const csv = await h.post(
      '/api/db/export',
      { connectionId: 'masked', sql: 'SELECT id, email FROM people ORDER BY id', format: 'csv' },
      ADMIN,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('3');
    expect(csv.body).toContain('a***@corp.example');
    expect(csv.body).not.toContain('ann@corp.example');
    expect(csv.body).toContain('18446744073709551615');
    const json = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT id, tags FROM people ORDER BY id', format: 'json' },
      ADMIN,
    );
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.body)[0]).toEqual({ id: 1, tags: ['a', 'b'] });
    const write = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'ALTER TABLE people DELETE WHERE id = 1', format: 'csv' },
      ADMIN,
    );
    expect(write.statusCode).toBe(400);
    expect(await direct('SELECT count() FROM people')).toBe('3');
  });
});

describe('clickhouse: objects, health, maintenance, connection', () => {
  it('lists, counts and describes objects from the system tables', async () => {
    const list = await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN);
    expect(list.statusCode, list.body).toBe(200);
    const objects = list.json().objects as Array<Record<string, unknown>>;
    expect(objects.find((o) => o.name === 'people')).toMatchObject({
      path: [DB, 'people'],
      kind: 'table',
      rowCount: 3,
      sizeBytes: expect.any(Number),
    });
    expect(objects.find((o) => o.name === 'small_people')).toEqual({
      path: [DB, 'small_people'],
      name: 'small_people',
      kind: 'view',
    });
    const counts = await h.post('/api/db/objects/counts', { connectionId: 'rw' }, ADMIN);
    expect(counts.json().counts).toContainEqual({ path: [DB], kind: 'view', count: 1 });
    const d = await h.post('/api/db/objects/describe', { connectionId: 'rw', path: [DB, 'people'] }, ADMIN);
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().columns).toEqual([
      { name: 'id', type: 'UInt64', nullable: false, isPrimary: true },
      { name: 'name', type: 'String', nullable: false, isPrimary: false },
      { name: 'email', type: 'String', nullable: false, isPrimary: false },
      { name: 'tags', type: 'Array(String)', nullable: false, isPrimary: false },
    ]);
    expect(d.json().foreignKeys).toEqual([]);
  });

  it('answers health, test-connection and provider-meta from the server', async () => {
    const health = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json().activeConnections).toBeGreaterThanOrEqual(1);
    expect(health.json().databaseSize).toMatch(/\d/);
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/18\.16/);
    const meta = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(meta.statusCode, meta.body).toBe(200);
    expect(meta.body).toMatch(/"supportsPositionalParams":false/);
    expect(meta.body).toMatch(/"supportsCancel":true/);
    expect(meta.body).toMatch(/"optimize"/);
    const down = await h.post(
      '/api/db/query',
      { connection: { id: 'down', type: 'clickhouse', host: '127.0.0.1', port: 1 }, sql: 'SELECT 1' },
      ADMIN,
    );
    expect(down.statusCode, down.body).toBe(503);
  });

  it('runs optimize, analyze and kill; an unknown operation is 400', async () => {
    const opt = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'optimize', target: 'people' },
      ADMIN,
    );
    expect(opt.statusCode, opt.body).toBe(200);
    const an = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'analyze', target: 'people' },
      ADMIN,
    );
    expect(an.statusCode, an.body).toBe(200);
    expect(an.json().rows.map((r: { column: string }) => r.column)).toEqual(['id', 'name', 'email', 'tags']);
    const kill = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'kill', target: 'no-such-query' },
      ADMIN,
    );
    expect(kill.statusCode, kill.body).toBe(200);
    const bad = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'vacuum', target: 'people' },
      ADMIN,
    );
    expect(bad.statusCode).toBe(400);
  });

  it('EXPLAIN is refused by an 18.16 server with its own syntax error', async () => {
    const r = await query('rw', 'SELECT * FROM people', { explain: { mode: 'estimate' } });
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_ERROR');
    expect(r.json().error).toMatch(/Syntax error/);
    const an = await query('rw', 'SELECT * FROM people', { explain: { mode: 'analyze' } });
    expect(an.statusCode).toBe(400);
  });
});

describe('clickhouse: bot API', () => {
  let bot: BotHarness;
  let secret: string;
  beforeAll(async () => {
    const entry = (id: string, policy: string) =>
      [
        `  - id: ${id}`,
        '    type: clickhouse',
        `    host: ${u.hostname}`,
        `    port: ${u.port}`,
        `    database: ${DB}`,
        '    roles: [admin, user]',
        `    policy: ${policy}`,
        '',
      ].join('\n');
    bot = await botPortal({
      datasources: () =>
        entry('chdb', '{ writeApproval: true, masking: [{ column: "*.email", rule: partial }] }') +
        entry('chro', '{ readOnly: true }'),
    });
    secret = (await bot.token({ name: 'ch-bot' })).secret;
  });
  afterAll(() => bot?.close());

  const submit = (datasourceId: string, statement: string) =>
    bot.submit(secret, { datasourceId, statement, onBehalfOf: 'alice@example.com' });

  it('a read runs at once with masked rows', async () => {
    const r = await submit('chdb', 'SELECT id, email FROM people WHERE id = 1');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().execution.execution).toMatchObject({
      status: 'done',
      rowCount: 1,
      rows: [{ id: 1, email: 'a***@corp.example' }],
    });
  });

  it('a mutation waits for a reviewer; a rejected one changes nothing; a read-only write is 403', async () => {
    const held = await submit('chdb', 'ALTER TABLE people DELETE WHERE 1');
    expect(held.statusCode, held.body).toBe(202);
    const rec = held.json().execution;
    expect(rec.guardrail).toBe('delete_without_where');
    expect((await bot.decide(rec.approvalId, 'reject')).statusCode).toBe(200);
    await bot.drain();
    expect(await direct('SELECT count() FROM people')).toBe('3');
    const ro = await submit('chro', 'SELECT 1; TRUNCATE TABLE people');
    expect(ro.statusCode).toBe(403);
    expect(await direct('SELECT count() FROM people')).toBe('3');
  });
});
