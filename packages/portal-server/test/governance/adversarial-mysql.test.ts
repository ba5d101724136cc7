// The MariaDB adversarial corpus (issue 27): dynamic SQL, files, user variables, statistics and catalogs,
// upserts that rewrite every row, routines and events, locks and session state, hidden objects — each sent
// as a user to a read-only, a write-approval, a guardrails-only and an object-rules-and-masking datasource on
// the real MariaDB the suite starts, the database read directly before and after; harmless reads (NATURAL
// JOIN, CHECKSUM TABLE, …) run. Also: pooled sessions are reset between requests (no `@v` or USE survives),
// and a read-only datasource's session refuses writes in the engine itself.
import { existsSync, readFileSync } from 'node:fs';
import { createMariadbDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readOnlyProvider } from '../../src/governance/read-only.js';
import { createProvider } from '../../src/providers/mysql/index.js';
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

const OUTFILE = `/tmp/portal-adv-${process.pid}-${Date.now().toString(36)}`;
const EMAILS = ['ann@corp.example', 'bob@corp.example'];

const FORMS: Form[] = [
  // Dynamic SQL and code that runs later: the most dangerous class.
  w("EXECUTE IMMEDIATE CONCAT('DROP TABLE ', 't')", 'drop'),
  w("EXECUTE IMMEDIATE 'DELETE FROM t'", 'drop'),
  w("execute immediate concat('TRUNC', 'ATE t')", 'drop'),
  w('PREPARE s FROM @v', 'drop'),
  w("PREPARE s FROM 'DELETE FROM t'", 'drop'),
  w("PREPARE s FROM CONCAT('DELETE ', 'FROM t')", 'drop'),
  w('EXECUTE s', 'drop'),
  w('DEALLOCATE PREPARE s', 'drop'),
  w('CALL purge_all()', 'drop'),
  w('CALL shop.purge()', 'drop'),
  w('BEGIN NOT ATOMIC DELETE FROM t; END', 'drop'),
  w("DO GET_LOCK('x', 1)", 'drop'),
  w('DO 1', 'drop'),
  w('CREATE EVENT ev ON SCHEDULE EVERY 1 HOUR DO DELETE FROM t', 'drop'),
  w('CREATE TRIGGER tr BEFORE INSERT ON u FOR EACH ROW DELETE FROM t', 'drop'),
  w('CREATE PROCEDURE p2() DELETE FROM t', 'drop'),
  w('CREATE FUNCTION f2() RETURNS INT RETURN 1', 'drop'),
  w('HANDLER hush_vault OPEN', 'drop'),
  w("INSTALL SONAME 'ha_blackhole'", 'drop'),
  w('SELECT f1(1)', 'drop'),
  w('SELECT `f1`(1)', 'drop'),
  w('SELECT f1 (1)', 'drop'),
  w('SELECT id FROM t WHERE f1(id) = 1', 'drop'),
  w("SELECT benchmark(1000, md5('a'))", 'drop'),
  w("SELECT sys_exec('id')", 'drop'),
  w("SELECT name_const('a', 1)", 'drop'),
  // Files of the database server.
  leak("SELECT LOAD_FILE('/etc/passwd')"),
  leak("SELECT load_file(CONCAT('/etc/', 'passwd'))"),
  leak("SELECT LoAd_FiLe('/etc/passwd')"),
  leak("SELECT load_file/**/('/etc/passwd')"),
  leak("SELECT CONVERT(LOAD_FILE('/etc/passwd') USING utf8)"),
  leak("SELECT HEX(LOAD_FILE('/etc/passwd'))"),
  leak("SELECT id FROM t WHERE LOAD_FILE('/etc/passwd') LIKE 'root%'"),
  leak("SELECT (SELECT LOAD_FILE('/etc/passwd'))"),
  leak("SELECT /*!LOAD_FILE('/etc/passwd')*/"),
  w(`SELECT * FROM t INTO OUTFILE '${OUTFILE}-a'`, 'drop'),
  w(`SELECT name FROM t LIMIT 1 INTO DUMPFILE '${OUTFILE}-b'`, 'drop'),
  w(`SELECT * INTO OUTFILE '${OUTFILE}-c' FROM t`, 'drop'),
  w("LOAD DATA INFILE '/etc/passwd' INTO TABLE t", 'drop'),
  w("LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t", 'drop'),
  w("LOAD XML INFILE '/etc/passwd' INTO TABLE t", 'drop'),
  // User variables: state that could carry a masked value into the next statement.
  w("SET @v := 'DROP TABLE t'", 'drop'),
  w('SET @v = 1', 'drop'),
  w('SELECT @m := email FROM users', 'drop'),
  w('SELECT email INTO @m FROM users LIMIT 1', 'drop'),
  w('SELECT @m', 'drop'),
  w('SELECT @`m`', 'drop'),
  w('SELECT 1 INTO @x', 'drop'),
  w('SELECT id FROM users WHERE (@m := email) IS NOT NULL', 'drop'),
  w('SET @a = (SELECT email FROM users LIMIT 1)', 'drop'),
  // Upserts and replacements that can rewrite every row.
  w('INSERT INTO t SELECT * FROM t ON DUPLICATE KEY UPDATE a = a + 1', 'update_always_true'),
  w('INSERT INTO t (id, a) SELECT id, a FROM t ON DUPLICATE KEY UPDATE a = 0', 'update_always_true'),
  w('INSERT t SELECT * FROM t ON DUPLICATE KEY UPDATE name = NULL', 'update_always_true'),
  w('REPLACE INTO t SELECT * FROM t', 'delete'),
  w('REPLACE t SELECT * FROM t', 'delete'),
  w('REPLACE INTO t (id, a, b, name) SELECT id, 0, b, name FROM t', 'delete'),
  w('CREATE OR REPLACE TABLE t (id int)', 'drop'),
  w('CREATE OR REPLACE TABLE u (t_id int)', 'drop'),
  // The classic guardrails, for completeness.
  w('DELETE FROM t', 'delete_without_where'),
  w('UPDATE t SET a = 1', 'update_without_where'),
  w('DROP TABLE t', 'drop'),
  w('TRUNCATE t', 'truncate'),
  w('ALTER TABLE t DROP COLUMN a', 'drop'),
  w("GRANT ALL ON *.* TO 'x'@'%'", 'grant'),
  w("CREATE USER 'adv'@'%'", 'grant'),
  w("SET PASSWORD = PASSWORD('x')", 'grant'),
  // Ordinary writes and state changes (refused read-only, held under write approval).
  change('SELECT nextval(seq)'),
  change("SELECT GET_LOCK('x', 0)"),
  change('SELECT * FROM t WHERE id = 1 FOR UPDATE'),
  change('SELECT * FROM t LOCK IN SHARE MODE'),
  change('LOCK TABLES t WRITE'),
  change('ANALYZE TABLE t PERSISTENT FOR ALL'),
  change('OPTIMIZE TABLE t'),
  change('FLUSH TABLES'),
  change('RENAME TABLE t TO t9'),
  change("REPLACE INTO t VALUES (1, 1, 'x', 'y')"),
  change("INSERT INTO t VALUES (99, 1, 'x', 'y')"),
  change("SET SESSION sql_mode = ''"),
  change('SET max_statement_time = 100'),
  // Statistics and statement texts hold values; catalogs name hidden objects.
  leak('SELECT * FROM mysql.column_stats'),
  leak("SELECT min_value, max_value FROM mysql.column_stats WHERE table_name = 'users'"),
  leak('SELECT * FROM mysql.table_stats'),
  leak('SELECT * FROM mysql.index_stats'),
  leak('SELECT * FROM information_schema.COLUMNS'),
  leak('SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = DATABASE()'),
  leak('SELECT * FROM information_schema.STATISTICS'),
  leak('SELECT table_name FROM information_schema.TABLES'),
  leak('SELECT * FROM INFORMATION_SCHEMA.`TABLES`'),
  leak('SELECT * FROM information_schema.PROCESSLIST'),
  leak('SELECT * FROM performance_schema.events_statements_history'),
  leak('SHOW TABLES'),
  leak('SHOW FULL TABLES'),
  leak('SHOW TABLE STATUS'),
  leak('SHOW PROCESSLIST'),
  leak('SELECT * FROM hush_vault'),
  leak('SELECT id FROM t WHERE EXISTS (SELECT 1 FROM hush_vault)'),
  leak('SELECT (SELECT hush_code FROM hush_vault LIMIT 1)'),
  leak('SELECT * FROM t JOIN hush_vault ON 1 = 1'),
  leak('SELECT * FROM t NATURAL JOIN hush_vault'),
  leak('CHECKSUM TABLE hush_vault'),
  // Harmless reads run (NATURAL JOIN and CHECKSUM TABLE were refused before).
  read('SELECT * FROM t NATURAL JOIN u2'),
  read('SELECT * FROM t NATURAL LEFT JOIN u2'),
  read('CHECKSUM TABLE t'),
  read('CHECKSUM TABLE t EXTENDED'),
  read('SELECT count(*) FROM t'),
  read("SELECT CONCAT(name, '!') FROM t"),
  read("SELECT DATE_FORMAT(NOW(), '%Y')"),
  read("SELECT JSON_OBJECT('a', 1)"),
  read('SELECT a, ROW_NUMBER() OVER (ORDER BY a) FROM t'),
  read('WITH c AS (SELECT id FROM t) SELECT * FROM c'),
  read('SELECT CAST(a AS CHAR) FROM t'),
  read("SELECT IF(a > 10, 'big', 'small') FROM t"),
  read('SELECT COALESCE(NULL, 1)'),
  read('SELECT UPPER(name), LENGTH(name) FROM t'),
  read('SELECT * FROM t WHERE id IN (SELECT id FROM u2)'),
  read('SELECT EXISTS(SELECT 1 FROM t)'),
  read('SHOW COLUMNS FROM t'),
  read('DESCRIBE t'),
  read('EXPLAIN SELECT * FROM t'),
  read('SELECT SUM(a), AVG(a), GROUP_CONCAT(name) FROM t'),
  read('SELECT ROUND(1.234, 2), FLOOR(2.5)'),
  read('SELECT t.id FROM t LEFT JOIN u2 USING (id)'),
  // MariaDB's ANALYZE runs the statement it explains: a read when that statement only reads.
  read('ANALYZE SELECT * FROM t'),
  read('ANALYZE FORMAT=JSON SELECT id FROM t WHERE id < 3'),
  w('ANALYZE DELETE FROM t', 'delete_without_where'),
  w('ANALYZE UPDATE t SET a = a + 1', 'update_without_where'),
  leak('ANALYZE SELECT * FROM hush_vault'),
  read("SELECT SUBSTRING_INDEX('a.b.c', '.', 2)"),
  read('SELECT VERSION(), DATABASE()'),
  read('SELECT a DIV 3, a MOD 3 FROM t'),
  read("SELECT REGEXP_REPLACE(name, 'row', 'r') FROM t"),
  read('SELECT GREATEST(1, 2), LEAST(1, 2)'),
  read("SELECT HEX('a'), MD5('a'), SHA2('a', 256)"),
  read('SELECT CAST(a AS DECIMAL(10, 2)) FROM t'),
];

let url = '';
let h: BotHarness;
let before = '';
let passwdLine = '';

async function snapshot(): Promise<string> {
  const c = await mysql.createConnection(url);
  try {
    const [tables] = await c.query('SHOW FULL TABLES');
    const names = (tables as Record<string, string>[]).map((r) => Object.values(r)[0]).sort();
    const parts = [JSON.stringify(tables)];
    for (const n of names) {
      const [rows] = await c.query(`SELECT * FROM \`${n}\``);
      parts.push(`${n}:${JSON.stringify((rows as unknown[]).map((r) => JSON.stringify(r)).sort())}`);
    }
    // (Index cardinality is an estimate InnoDB refreshes in the background: left out.)
    const [indexes] = await c.query('SHOW INDEX FROM t');
    parts.push(
      JSON.stringify((indexes as Record<string, unknown>[]).map(({ Cardinality: _, ...rest }) => rest)),
    );
    for (const q of [
      'SELECT user, host FROM mysql.user ORDER BY 1, 2',
      'SHOW GRANTS',
      'SELECT event_name FROM information_schema.EVENTS WHERE event_schema = DATABASE()',
      'SELECT trigger_name FROM information_schema.TRIGGERS WHERE trigger_schema = DATABASE()',
      'SELECT routine_name FROM information_schema.ROUTINES WHERE routine_schema = DATABASE() ORDER BY 1',
    ])
      parts.push(JSON.stringify((await c.query(q))[0]));
    parts.push(JSON.stringify(['a', 'b', 'c'].map((s) => existsSync(`${OUTFILE}-${s}`))));
    return parts.join('\n');
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  url = await createMariadbDatabase(inject('services').mariadbUrl, 'adv');
  const c = await mysql.createConnection(url);
  for (const s of [
    'CREATE TABLE t (id int PRIMARY KEY, a int, b varchar(20), name varchar(50))',
    "INSERT INTO t SELECT seq, seq * 10, 'x', CONCAT('row ', seq) FROM seq_1_to_20",
    'CREATE TABLE u (t_id int)',
    'CREATE TABLE u2 (id int)',
    'INSERT INTO u2 VALUES (1), (2)',
    'CREATE TABLE users (id int PRIMARY KEY, email varchar(80))',
    `INSERT INTO users VALUES (1, '${EMAILS[0]}'), (2, '${EMAILS[1]}')`,
    'CREATE TABLE hush_vault (id int, hush_code varchar(40))',
    "INSERT INTO hush_vault VALUES (1, 'TOP-SECRET-ROW')",
    'CREATE SEQUENCE seq',
    'CREATE FUNCTION f1(x int) RETURNS int DETERMINISTIC RETURN x',
    'CREATE PROCEDURE purge_all() DELETE FROM t',
    // Statistics of the masked table, so mysql.column_stats holds its values.
    'ANALYZE TABLE users PERSISTENT FOR ALL',
  ])
    await c.query(s);
  await c.end();
  passwdLine = readFileSync('/etc/passwd', 'utf8').split('\n')[0];
  const u = new URL(url);
  const entry = (id: string, policy: string) =>
    [
      `  - id: ${id}`,
      '    type: mysql',
      `    host: ${u.hostname}`,
      `    port: ${u.port}`,
      `    user: ${decodeURIComponent(u.username)}`,
      `    password: "${decodeURIComponent(u.password)}"`,
      `    database: ${u.pathname.slice(1)}`,
      '    roles: [admin, user]',
      `    policy: ${policy}`,
      '',
    ].join('\n');
  h = await corpusPortal(
    engineEntries('my', entry, {
      hidden: [`${u.pathname.slice(1)}.hush_vault`],
      defaultSchema: u.pathname.slice(1),
      masked: 'users.email',
    }),
  );
  before = await snapshot();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('mariadb adversarial corpus', () => {
  it('object listings name no hidden object to a user', async () => {
    expect(await listingsHide(h, 'my', 'hush_vault')).toEqual([]);
  });

  it('holds at least one hundred forms across the classes', () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(100);
    for (const kind of ['write', 'change', 'leak', 'read'])
      expect(FORMS.some((f) => f.kind === kind)).toBe(true);
  });

  it('refuses or holds every write and leak, runs every harmless read; the database is unchanged', async () => {
    const out = await runCorpus(h, 'my', FORMS, {
      anywhere: [passwdLine],
      rules: [...EMAILS, 'TOP-SECRET-ROW', 'hush_code'],
    });
    expect(out.failures).toEqual([]);
    expect(await snapshot()).toBe(before);
    // (Reported in the closing note.)
    console.log(`mariadb corpus: ${JSON.stringify({ ...out, failures: out.failures.length })}`);
  }, 300_000);
});

describe('mariadb exports', () => {
  it('export NATURAL JOIN and ANALYZE SELECT (reads the SELECT reader refused); refuse ANALYZE of a write', async () => {
    for (const sql of [
      'SELECT * FROM t NATURAL JOIN u2',
      'SELECT * FROM t NATURAL LEFT JOIN u2',
      'ANALYZE SELECT * FROM t',
      'ANALYZE FORMAT=JSON SELECT id FROM t WHERE id < 3',
    ]) {
      const r = await post(h, '/api/db/export', { connectionId: 'my-ro', sql, format: 'json' });
      expect(r.statusCode, `${sql} ${r.body.slice(0, 200)}`).toBe(200);
    }
    for (const sql of ['ANALYZE DELETE FROM t', 'ANALYZE SELECT * FROM t FOR UPDATE']) {
      const r = await post(h, '/api/db/export', { connectionId: 'my-guard', sql, format: 'json' });
      expect(r.statusCode, sql).toBe(400);
      expect(r.json().code).toBe('EXPORT_NOT_READ_ONLY');
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('mariadb sessions', () => {
  let provider: Provider;
  beforeAll(async () => {
    const u = new URL(url);
    provider = await createProvider({
      descriptor: {
        type: 'mysql',
        host: u.hostname,
        port: Number(u.port),
        user: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
        database: u.pathname.slice(1),
      },
      host: u.hostname,
      port: Number(u.port),
      connectTimeoutMs: 10_000,
      queryTimeoutMs: 30_000,
    } as unknown as Parameters<typeof createProvider>[0]);
  });
  afterAll(async () => provider?.close());

  it('resets every pooled connection: no user variable, session setting or USE outlives its request', async () => {
    await Promise.all(
      Array.from({ length: 12 }, () => provider.query("SET @v := 'carried'", [], { maxRows: 10 })),
    );
    await Promise.all(
      Array.from({ length: 12 }, () =>
        provider.query("SET SESSION sql_mode = 'ANSI_QUOTES'", [], { maxRows: 10 }),
      ),
    );
    await provider.query('USE mysql', [], { maxRows: 10 });
    for (let i = 0; i < 24; i++) {
      const r = await provider.query('SELECT @v AS v, @@session.sql_mode AS m, DATABASE() AS d', [], {
        maxRows: 10,
      });
      expect(r.rows[0].v).toBeNull();
      expect(String(r.rows[0].m)).not.toBe('ANSI_QUOTES');
      expect(r.rows[0].d).toBe(new URL(url).pathname.slice(1));
    }
    const s = await provider.openSession();
    await s.query('SET @w := 1', [], { maxRows: 1 });
    await s.close();
    const r = await provider.query('SELECT @w AS w', [], { maxRows: 1 });
    expect(r.rows[0].w).toBeNull();
  });

  it('a read-only datasource runs in a session where the engine refuses writes and DDL', async () => {
    const ro = readOnlyProvider(provider);
    await expect(ro.query("INSERT INTO t VALUES (500, 1, 'x', 'y')", [], { maxRows: 1 })).rejects.toThrow();
    await expect(ro.query('UPDATE t SET a = 0', [], { maxRows: 1 })).rejects.toThrow();
    const c = await mysql.createConnection(url);
    const [[row]] = (await c.query('SELECT count(*) AS n, min(a) AS a FROM t')) as unknown as [
      [{ n: number; a: number }],
    ];
    await c.end();
    expect(Number(row.n)).toBe(20);
    expect(Number(row.a)).toBe(10);
  });
});
