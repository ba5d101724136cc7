// The ClickHouse adversarial corpus (issue 27): table functions that reach files, URLs and other servers,
// ALTER commands that empty or drop data without DELETE (CLEAR COLUMN, DETACH/DROP/REPLACE/MOVE PARTITION),
// DETACH, CREATE OR REPLACE, EXCHANGE, SYSTEM, whole-row serialisers over a masked table, the system
// catalogs and hidden tables — each sent as a user to a read-only, a write-approval, a guardrails-only and an
// object-rules-and-masking datasource on the real ClickHouse the suite starts, the server read directly
// before and after; harmless reads (ARRAY JOIN, PREWHERE, LIMIT n BY, WITH 1 AS x, array literals, EXISTS
// TABLE, …) run. Also: a read-only datasource's requests carry `readonly=2`, so the server refuses writes.
import { createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readOnlyProvider } from '../../src/governance/read-only.js';
import { createProvider } from '../../src/providers/clickhouse/index.js';
import type { Provider } from '../../src/providers/types.js';
import type { BotHarness } from '../bot/harness.js';
import {
  change,
  corpusPortal,
  engineEntries,
  type Form,
  leak,
  listingsHide,
  post,
  read,
  runCorpus,
  w,
} from './adversarial-harness.js';

const DB = `adv_${process.pid}_${Date.now().toString(36)}`;
const EMAILS = ['ann@corp.example', 'bob@corp.example'];
let base = '';

const forms = (): Form[] => [
  // Data emptied or dropped without the words the old guardrails read.
  w('ALTER TABLE t CLEAR COLUMN name', 'update_without_where'),
  w('ALTER TABLE t CLEAR COLUMN name IN PARTITION tuple()', 'update_without_where'),
  w('alter table t clear column name', 'update_without_where'),
  w('ALTER TABLE t CLEAR INDEX i', 'update_without_where'),
  w('DETACH TABLE t', 'drop'),
  w('DETACH TABLE t PERMANENTLY', 'drop'),
  w(`DETACH TABLE ${DB}.t`, 'drop'),
  w('DETACH DATABASE db', 'drop'),
  w('ALTER TABLE t DETACH PARTITION tuple()', 'drop'),
  w("ALTER TABLE t DETACH PARTITION ID 'all'", 'drop'),
  w('ALTER TABLE t DROP PARTITION tuple()', 'drop'),
  w('ALTER TABLE t REPLACE PARTITION tuple() FROM t2', 'drop'),
  w('ALTER TABLE t MOVE PARTITION tuple() TO TABLE t2', 'drop'),
  w('ALTER TABLE t DROP DETACHED PARTITION tuple()', 'drop'),
  w("ALTER TABLE t MODIFY TTL toDate('2000-01-01')", 'delete_without_where'),
  w('ALTER TABLE t MODIFY COLUMN name UInt8', 'update_without_where'),
  w('ALTER TABLE t DROP COLUMN name', 'drop'),
  w('CREATE OR REPLACE TABLE t (id UInt32) ENGINE = Memory', 'drop'),
  w('REPLACE TABLE t (id UInt32) ENGINE = Memory', 'drop'),
  w('EXCHANGE TABLES t AND t2', 'drop'),
  w('ALTER TABLE t DELETE WHERE 1', 'delete_without_where'),
  w('ALTER TABLE t DELETE WHERE id = id', 'delete_without_where'),
  w('ALTER TABLE t DELETE WHERE 1 SETTINGS mutations_sync = 1', 'delete_without_where'),
  w("ALTER TABLE t UPDATE name = '' WHERE 1", 'update_always_true'),
  w('DROP TABLE t', 'drop'),
  w('TRUNCATE TABLE t', 'truncate'),
  w('SYSTEM DROP MARK CACHE', 'drop'),
  w('SYSTEM STOP MERGES', 'drop'),
  w('KILL QUERY WHERE 1', 'drop'),
  w('ATTACH TABLE t3 (id UInt8) ENGINE = Memory', 'drop'),
  w("INSERT INTO FUNCTION file('adv.csv', 'CSV', 'a String') VALUES ('a')", 'drop'),
  w("CREATE TABLE z ENGINE = URL('http://127.0.0.1:1/', CSV) AS SELECT 1", 'drop'),
  w("CREATE TABLE z2 AS remote('127.0.0.1', system, one)", 'drop'),
  w("CREATE USER adv IDENTIFIED WITH plaintext_password BY 'x'"),
  w('CREATE FUNCTION f AS (x) -> x', 'drop'),
  w('SELECT myUdf(1)', 'drop'),
  w('SELECT `toString`(1)', 'drop'),
  w('SELECT db.fn(1)', 'drop'),
  // Ordinary writes.
  change('RENAME TABLE t TO t9'),
  change('OPTIMIZE TABLE t FINAL'),
  change("INSERT INTO t (id, name, tags) VALUES (9, 'x', [])"),
  change('INSERT INTO t SELECT * FROM t'),
  change('SET readonly = 0'),
  change('ALTER TABLE t FREEZE'),
  // Files, URLs and other servers (the portal must not become a fetch or file-read API).
  leak("SELECT * FROM file('/etc/passwd', 'TSV', 'l String')"),
  leak("SELECT * FROM file('../../../../etc/passwd', 'TSV', 'l String')"),
  leak("SELECT * FROM FILE('/etc/passwd', 'TSV', 'l String')"),
  leak("SELECT * FROM url('http://127.0.0.1:1/', CSV, 'a String')"),
  leak(`SELECT * FROM url('${base}/?query=SELECT+*+FROM+${DB}.hush_vault', TSV, 'a String')`),
  leak(`SELECT * FROM URL('${base}/?query=SELECT+email+FROM+${DB}.users', TSV, 'a String')`),
  leak(`SELECT * FROM remote('127.0.0.1', ${'`'}${DB}${'`'}, hush_vault)`),
  leak(`SELECT * FROM remoteSecure('127.0.0.1', ${DB}, hush_vault)`),
  leak("SELECT * FROM cluster('default', system, one)"),
  leak("SELECT * FROM s3('http://127.0.0.1:1/b/k', 'CSV', 'a String')"),
  leak("SELECT * FROM mysql('127.0.0.1:3306', 'mysql', 'user', 'root', '')"),
  leak("SELECT * FROM postgresql('127.0.0.1:5432', 'postgres', 'pg_authid', 'postgres', '')"),
  leak("SELECT * FROM hdfs('hdfs://127.0.0.1:1/x', 'TSV', 'a String')"),
  leak("SELECT * FROM jdbc('jdbc:x', 'y')"),
  leak("SELECT * FROM odbc('DSN=x', 'y')"),
  leak("SELECT * FROM input('a String')"),
  leak("SELECT * FROM executable('cat /etc/passwd', 'TSV', 'l String')"),
  leak("SELECT id FROM t WHERE id IN (SELECT 1 FROM url('http://127.0.0.1:1/', CSV, 'a String'))"),
  // Whole rows of a masked table, catalogs and hidden tables.
  leak('SELECT toString(tuple(*)) FROM users'),
  leak('SELECT tuple(*) FROM users'),
  leak('SELECT toString(tuple(users.*)) FROM users'),
  leak("SELECT formatRow('TSV', *) FROM users"),
  leak("SELECT COLUMNS('em') FROM users"),
  leak('SELECT * APPLY(toString) FROM users'),
  leak('SELECT * FROM system.columns'),
  leak(`SELECT name, default_expression FROM system.columns WHERE database = '${DB}'`),
  leak('SELECT name FROM system.tables'),
  leak('SELECT * FROM system.parts'),
  leak('SELECT * FROM system.query_log'),
  leak('SELECT query FROM system.processes'),
  leak('SELECT * FROM system.mutations'),
  leak('SELECT * FROM information_schema.tables'),
  leak('SHOW TABLES'),
  leak("SELECT * FROM merge(currentDatabase(), '^hush')"),
  leak("SELECT dictGet('d', 'v', toUInt64(1))"),
  leak("SELECT getSetting('readonly')"),
  leak('SELECT currentUser()'),
  leak('SELECT * FROM hush_vault'),
  leak('SELECT (SELECT any(hush_code) FROM hush_vault)'),
  leak('SELECT number FROM numbers(3) WHERE number IN (SELECT id FROM hush_vault)'),
  leak('SELECT * FROM t ARRAY JOIN tags AS x WHERE id IN (SELECT id FROM hush_vault)'),
  leak('EXISTS TABLE hush_vault'),
  leak('DESCRIBE TABLE hush_vault'),
  leak('SHOW CREATE TABLE hush_vault'),
  // Harmless reads run (ARRAY JOIN, PREWHERE, LIMIT n BY, WITH 1 AS x, array literals and EXISTS TABLE were refused).
  read('SELECT id, x FROM t ARRAY JOIN tags AS x'),
  read('SELECT id FROM t LEFT ARRAY JOIN tags AS x'),
  read('SELECT * FROM t PREWHERE id > 1'),
  read('SELECT * FROM t PREWHERE id > 1 WHERE id < 10'),
  read('SELECT id FROM t ORDER BY id LIMIT 1 BY id'),
  read('SELECT id FROM t ORDER BY id LIMIT 2 BY id LIMIT 5'),
  read('WITH 1 AS x SELECT x'),
  read('WITH 2 AS x, 3 AS y SELECT x + y'),
  read('SELECT [1, 2, 3] AS a'),
  read('SELECT [1, 2][1]'),
  read('SELECT tags[1] FROM t'),
  read('EXISTS TABLE t'),
  read('EXISTS t'),
  read('SELECT count() FROM t'),
  read('SELECT uniq(id), sumIf(id, id > 1) FROM t'),
  read('SELECT groupArray(id) FROM t'),
  read('SELECT toDate(now())'),
  read('SELECT arrayMap(x -> x * 2, [1, 2])'),
  read('SELECT number FROM numbers(5)'),
  read('SELECT 1 SETTINGS max_threads = 1'),
  read('SELECT lower(name), length(name) FROM t'),
  read("SELECT if(id > 1, 'a', 'b') FROM t"),
  read("SELECT multiIf(id = 1, 'one', 'other') FROM t"),
  read('SELECT toString(id) FROM t'),
  read('SELECT any(name), argMax(name, id) FROM t'),
  read('SELECT quantile(0.5)(id) FROM t'),
  read('SELECT round(1.55, 1)'),
  read("SELECT concat('a', 'b')"),
  read('SELECT substring(name, 1, 2) FROM t'),
  read('SELECT DISTINCT name FROM t'),
  read('SELECT name, count() FROM t GROUP BY name ORDER BY name'),
  read('SELECT formatReadableSize(1024)'),
  read('SELECT toStartOfDay(now())'),
  read('DESCRIBE TABLE t'),
  read('SELECT version()'),
  read("SELECT count() FROM t WHERE has(tags, 'a')"),
  // Join strictness and GLOBAL choose matches and where a subquery runs, never what is reached.
  read('SELECT a.id FROM t AS a ANY LEFT JOIN t2 AS b ON a.id = b.id'),
  read('SELECT a.id FROM t AS a ALL INNER JOIN t2 AS b ON a.id = b.id'),
  read('SELECT id FROM t WHERE id GLOBAL IN (SELECT id FROM t2)'),
  read('SELECT id FROM t WHERE id GLOBAL NOT IN (SELECT id FROM t2)'),
  leak('SELECT id FROM t WHERE id GLOBAL IN (SELECT id FROM hush_vault)'),
  leak('SELECT * FROM t AS a ANY LEFT JOIN hush_vault AS b ON a.id = b.id'),
];

/** Harmless reads the export's own SELECT reader refused (issue 27): exported now, judged by the allowlist. */
const EXPORTED_READS = [
  'SELECT * FROM t PREWHERE id > 1',
  'WITH 2 AS x SELECT x',
  'EXISTS t',
  'EXISTS TABLE t',
  'SELECT arrayMap(x -> x * 2, [1, 2, 3]) AS a',
  'SELECT a.id FROM t AS a ANY LEFT JOIN t2 AS b ON a.id = b.id',
  'SELECT id FROM t WHERE id GLOBAL IN (SELECT id FROM t2)',
  'SELECT id, x FROM t ARRAY JOIN tags AS x',
  'SELECT id FROM t ORDER BY id LIMIT 1 BY id',
];

let h: BotHarness;
let before = '';
let passwdLine = '';
const direct = () => createClient({ url: base, database: DB });

async function snapshot(): Promise<string> {
  const c = direct();
  try {
    const text = async (q: string) => (await c.query({ query: q, format: 'TabSeparated' })).text();
    const tables = (await text(`SELECT name FROM system.tables WHERE database = '${DB}' ORDER BY name`))
      .split('\n')
      .filter(Boolean);
    const parts = [
      tables.join(','),
      await text(
        `SELECT table, name, type FROM system.columns WHERE database = '${DB}' ORDER BY table, name`,
      ),
      await text(`SELECT count() FROM system.mutations WHERE database = '${DB}'`),
      await text(`SELECT count() FROM system.parts WHERE database = '${DB}' AND active`),
    ];
    for (const t of tables) parts.push(`${t}:${await text(`SELECT * FROM ${DB}.${t} ORDER BY tuple(*)`)}`);
    return parts.join('\n');
  } finally {
    await c.close();
  }
}

beforeAll(async () => {
  base = inject('services').clickhouseUrl;
  const admin = createClient({ url: base });
  await admin.command({ query: `CREATE DATABASE ${DB}` });
  await admin.close();
  const c = direct();
  for (const q of [
    'CREATE TABLE t (id UInt32, name String, tags Array(String)) ENGINE = MergeTree ORDER BY id',
    "INSERT INTO t VALUES (1, 'one', ['a', 'b']), (2, 'two', ['c']), (3, 'three', [])",
    'CREATE TABLE t2 (id UInt32, name String, tags Array(String)) ENGINE = MergeTree ORDER BY id',
    'CREATE TABLE users (id UInt32, email String) ENGINE = MergeTree ORDER BY id',
    `INSERT INTO users VALUES (1, '${EMAILS[0]}'), (2, '${EMAILS[1]}')`,
    'CREATE TABLE hush_vault (id UInt32, hush_code String) ENGINE = MergeTree ORDER BY id',
    "INSERT INTO hush_vault VALUES (1, 'TOP-SECRET-ROW')",
  ])
    await c.command({ query: q });
  await c.close();
  const { readFileSync } = await import('node:fs');
  passwdLine = readFileSync('/etc/passwd', 'utf8').split('\n')[0];
  const u = new URL(base);
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
  h = await corpusPortal(
    engineEntries('ch', entry, { hidden: [`${DB}.hush_vault`], defaultSchema: DB, masked: 'users.email' }),
  );
  before = await snapshot();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('clickhouse adversarial corpus', () => {
  it('object listings name no hidden object to a user', async () => {
    expect(await listingsHide(h, 'ch', 'hush_vault')).toEqual([]);
  });

  it('holds at least one hundred forms across the classes', () => {
    expect(forms().length).toBeGreaterThanOrEqual(100);
  });

  it('refuses or holds every write and leak, runs every harmless read; the server is unchanged', async () => {
    const out = await runCorpus(h, 'ch', forms(), {
      anywhere: [passwdLine],
      rules: [...EMAILS, 'TOP-SECRET-ROW', 'hush_code'],
    });
    expect(out.failures).toEqual([]);
    expect(await snapshot()).toBe(before);
    console.log(`clickhouse corpus: ${JSON.stringify({ ...out, failures: out.failures.length })}`);
  }, 300_000);
});

describe('clickhouse exports', () => {
  it('export the harmless reads the SELECT reader does not know, on a read-only datasource', async () => {
    const refused: string[] = [];
    for (const sql of EXPORTED_READS) {
      const r = await post(h, '/api/db/export', { connectionId: 'ch-ro', sql, format: 'json' });
      if (r.statusCode !== 200) refused.push(`${sql} → ${r.statusCode} ${r.body.slice(0, 120)}`);
    }
    expect(refused).toEqual([]);
    const e = await post(h, '/api/db/export', { connectionId: 'ch-ro', sql: 'EXISTS t', format: 'json' });
    expect(JSON.parse(e.body)).toEqual([{ result: 1 }]);
  });

  it('refuse a write and a table function the allowlist does not know, whatever the reader says', async () => {
    for (const sql of ["SELECT * FROM url('http://127.0.0.1:1/x', CSV)", 'SELECT * FROM t; DROP TABLE t']) {
      const r = await post(h, '/api/db/export', { connectionId: 'ch-guard', sql, format: 'json' });
      expect([400, 403], sql).toContain(r.statusCode);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('clickhouse read-only requests', () => {
  let provider: Provider;
  beforeAll(async () => {
    const u = new URL(base);
    provider = await createProvider({
      descriptor: { type: 'clickhouse', host: u.hostname, port: Number(u.port), database: DB },
      host: u.hostname,
      port: Number(u.port),
      connectTimeoutMs: 10_000,
      queryTimeoutMs: 30_000,
    } as unknown as Parameters<typeof createProvider>[0]);
  });
  afterAll(async () => provider?.close());

  it('carry readonly=2: the server refuses writes, DDL and lifting readonly, and still reads with settings', async () => {
    const ro = readOnlyProvider(provider);
    for (const sql of [
      "INSERT INTO t VALUES (7, 'x', [])",
      'CREATE TABLE z9 (a UInt8) ENGINE = Memory',
      'ALTER TABLE t DELETE WHERE 1',
      'SELECT 1 SETTINGS readonly = 0',
      'SET readonly = 0',
    ])
      await expect(ro.query(sql, [], { maxRows: 10 }), sql).rejects.toThrow(/readonly/i);
    const s = await ro.openSession();
    await expect(s.query('DROP TABLE t', [], { maxRows: 1 })).rejects.toThrow(/readonly/i);
    await s.close();
    const r = await ro.query('SELECT count() AS n FROM t SETTINGS max_threads = 1', [], { maxRows: 10 });
    expect(Number(r.rows[0].n)).toBe(3);
    expect(await snapshot()).toBe(before);
  });
});
