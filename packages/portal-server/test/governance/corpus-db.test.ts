// The Done-when corpus (issue 9): every guardrail value and every bypass form of the classifier corpus, per
// dialect family, sent through /api/db/query and /api/db/multi-query of the real portal to managed
// PostgreSQL, MariaDB and SQLite datasources declared in PORTAL_DATASOURCES — one with write approval
// (each statement is held: 403 APPROVAL_REQUIRED, with its guardrail where it has one) and one read-only
// (each is refused: 403 READ_ONLY). Refusals before governance (transaction control, several statements on
// the single-statement route) are 400 without running anything. The data is checksummed before and after.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMariadbDatabase, createPostgresDatabase, tempDir } from '@app/kit/testing';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { RateLimiter } from '../../src/auth/rate-limit.js';
import { EFFECT_GUARDRAILS, GUARDRAIL_VALUES } from '../../src/governance/classify/index.js';
import type { PortalServer } from '../../src/index.js';
import { ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';
import {
  type HeldCase,
  MYSQL_BYPASSES,
  MYSQL_GUARDRAILS,
  PG_BYPASSES,
  PG_GUARDRAILS,
  SQLITE_BYPASSES,
  SQLITE_GUARDRAILS,
} from './classify-corpus.js';

// Extra guardrail forms so that every value is exercised in every family.
const SQLITE_EXTRA: HeldCase[] = [
  // SQLite has no GRANT or TRUNCATE; text that names them is still held (and the engine would refuse it).
  ['GRANT SELECT ON t TO bob', 'grant'],
  ['TRUNCATE TABLE t', 'truncate'],
  ['DELETE FROM t WHERE id = 1 OR 1 = 1', 'delete_without_where'],
  ['UPDATE t SET a = 2 WHERE id = id', 'update_always_true'],
];
const MYSQL_EXTRA: HeldCase[] = [['GRANT SELECT ON shop.t TO bob', 'grant']];

interface Family {
  name: 'postgres' | 'mariadb' | 'sqlite';
  type: string;
  cases: HeldCase[];
  bypasses: number;
  setup(): Promise<Record<string, unknown>>;
  snapshot(): Promise<string>;
}

let pgUrl = '';
let myUrl = '';
let sqliteFile = '';

async function pgRun<T = Record<string, unknown>>(text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

const FAMILIES: Family[] = [
  {
    name: 'postgres',
    type: 'postgres',
    cases: [...PG_GUARDRAILS, ...PG_BYPASSES],
    bypasses: PG_BYPASSES.length,
    async setup() {
      pgUrl = await createPostgresDatabase(inject('services').postgresUrl);
      for (const s of [
        'CREATE TABLE t (id int PRIMARY KEY, a int, name text)',
        "INSERT INTO t SELECT g, g * 10, 'row ' || g FROM generate_series(1, 20) g",
        'CREATE TABLE u (t_id int)',
        'INSERT INTO u VALUES (1), (2)',
        'CREATE TABLE s (id int)',
        'CREATE SEQUENCE seq',
        'CREATE VIEW v AS SELECT id FROM t',
        'CREATE INDEX i ON t (a)',
        'CREATE FUNCTION f(int) RETURNS int LANGUAGE sql AS $$SELECT 1$$',
        'CREATE PROCEDURE purge() LANGUAGE sql AS $$DELETE FROM t$$',
      ])
        await pgRun(s);
      const u = new URL(pgUrl);
      return {
        host: u.hostname,
        port: Number(u.port),
        user: u.username,
        password: u.password,
        database: u.pathname.slice(1),
      };
    },
    async snapshot() {
      const tables = await pgRun<{ name: string }>(
        "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
      );
      const parts = [JSON.stringify(tables)];
      for (const { name } of tables) {
        const [row] = await pgRun(
          `SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${name} x`,
        );
        parts.push(`${name}:${row.h}`);
      }
      parts.push(JSON.stringify(await pgRun('SELECT last_value, is_called FROM seq')));
      parts.push(JSON.stringify(await pgRun('SELECT rolname, rolsuper FROM pg_roles ORDER BY 1')));
      parts.push(
        JSON.stringify(
          await pgRun("SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1"),
        ),
      );
      parts.push(
        JSON.stringify(
          await pgRun(
            "SELECT relname, relacl::text FROM pg_class WHERE relnamespace = 'public'::regnamespace ORDER BY 1",
          ),
        ),
      );
      return parts.join('\n');
    },
  },
  {
    name: 'mariadb',
    type: 'mysql',
    cases: [...MYSQL_GUARDRAILS, ...MYSQL_EXTRA, ...MYSQL_BYPASSES],
    bypasses: MYSQL_BYPASSES.length,
    async setup() {
      myUrl = await createMariadbDatabase(inject('services').mariadbUrl);
      const c = await mysql.createConnection(myUrl);
      for (const s of [
        'CREATE TABLE t (id int PRIMARY KEY, a int, b varchar(20), name varchar(50)) ENGINE=InnoDB',
        "INSERT INTO t SELECT seq, seq * 10, 'x', CONCAT('row ', seq) FROM seq_1_to_20",
        'CREATE TABLE u (t_id int)',
        'CREATE TABLE t1 (id int)',
        'CREATE TABLE t2 (id int)',
        'INSERT INTO t1 VALUES (1), (2)',
        'INSERT INTO t2 VALUES (1)',
        'CREATE VIEW v AS SELECT id FROM t',
        'CREATE INDEX i ON t (a)',
      ])
        await c.query(s);
      await c.end();
      const u = new URL(myUrl);
      return {
        host: u.hostname,
        port: Number(u.port),
        user: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
        database: u.pathname.slice(1),
      };
    },
    async snapshot() {
      const c = await mysql.createConnection(myUrl);
      try {
        const [tables] = await c.query('SHOW FULL TABLES');
        const names = (tables as Record<string, string>[]).map((r) => Object.values(r)[0]).sort();
        const parts = [JSON.stringify(tables)];
        for (const n of names) {
          const [rows] = await c.query(`SELECT * FROM \`${n}\``);
          parts.push(`${n}:${JSON.stringify((rows as unknown[]).map((r) => JSON.stringify(r)).sort())}`);
        }
        const [users] = await c.query('SELECT user, host FROM mysql.user ORDER BY 1, 2');
        const [grants] = await c.query('SHOW GRANTS');
        const [indexes] = await c.query('SHOW INDEX FROM t');
        parts.push(JSON.stringify(users), JSON.stringify(grants), JSON.stringify(indexes));
        return parts.join('\n');
      } finally {
        await c.end();
      }
    },
  },
  {
    name: 'sqlite',
    type: 'sqlite',
    cases: [...SQLITE_GUARDRAILS, ...SQLITE_EXTRA, ...SQLITE_BYPASSES],
    bypasses: SQLITE_BYPASSES.length,
    async setup() {
      sqliteFile = join(tempDir('portal-corpus-'), 'corpus.sqlite');
      const db = new Database(sqliteFile);
      db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, a INT, name TEXT);
        WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 20) INSERT INTO t SELECT n, n * 10, 'row ' || n FROM g;
        CREATE TABLE u (t_id INT); INSERT INTO u VALUES (1);
        CREATE VIEW v AS SELECT id FROM t; CREATE INDEX i ON t (a);
        CREATE TRIGGER tr AFTER INSERT ON u BEGIN SELECT 1; END;`);
      db.close();
      return { database: sqliteFile };
    },
    async snapshot() {
      const db = new Database(sqliteFile, { readonly: true });
      try {
        const schema = db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all() as {
          type: string;
          name: string;
        }[];
        const parts = [JSON.stringify(schema)];
        for (const { name } of schema.filter((s) => s.type === 'table')) {
          parts.push(`${name}:${JSON.stringify(db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all())}`);
        }
        parts.push(JSON.stringify(db.pragma('journal_mode')), JSON.stringify(db.pragma('foreign_keys')));
        return parts.join('\n');
      } finally {
        db.close();
      }
    },
  },
];

let server: PortalServer;
let cookie: string;
const before = new Map<string, string>();

beforeAll(async () => {
  const lines = ['datasources:'];
  for (const f of FAMILIES) {
    const conn = await f.setup();
    before.set(f.name, await f.snapshot());
    for (const [suffix, policy] of [
      ['gated', '{ writeApproval: true, approverRoles: [admin] }'],
      ['ro', '{ readOnly: true }'],
    ]) {
      lines.push(`  - id: ${f.name}-${suffix}`, `    type: ${f.type}`, '    roles: [admin, user]');
      for (const [k, v] of Object.entries(conn)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
      lines.push(`    policy: ${policy}`);
    }
  }
  const file = join(tempDir('portal-corpus-ds-'), 'datasources.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  // The portal prints one audit line per refusal; keep the test output readable.
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) =>
    typeof chunk === 'string' && chunk.startsWith('{"audit":true')
      ? true
      : (write as (...a: unknown[]) => boolean)(chunk, ...rest)) as typeof process.stdout.write);
  server = await portal({
    PORTAL_DATASOURCES: file,
    STORAGE_PROVIDER: 'sqlite',
    USER_EMAIL: USER.email,
    USER_PASSWORD: USER.password,
  });
  cookie = `auth-token=${await sessionFor(server, USER)}`;
  // ~800 requests from one person: lift the per-person budget of database routes (300 a minute) for this test.
  server.app.portalAuth.limits.database = new RateLimiter({ max: 1_000_000, windowMs: 60_000 });
}, 120_000);
afterAll(async () => {
  await server?.close();
  vi.restoreAllMocks();
});

const post = (url: string, payload: Record<string, unknown>) =>
  server.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN, cookie } });

describe.each(FAMILIES)('$name corpus through the portal', (family) => {
  it('covers every guardrail value and at least thirty bypass forms', () => {
    const held = new Set(family.cases.map(([, g]) => g));
    for (const g of GUARDRAIL_VALUES.filter((v) => !EFFECT_GUARDRAILS.includes(v)))
      expect(held, g).toContain(g);
    expect(family.bypasses).toBeGreaterThanOrEqual(30);
  });

  it('holds every form on a write-approval datasource and refuses it on a read-only one; the data is unchanged', async () => {
    const failures: string[] = [];
    for (const [sql, expected] of family.cases) {
      for (const route of ['/api/db/query', '/api/db/multi-query']) {
        for (const suffix of ['gated', 'ro'] as const) {
          const r = await post(route, { connectionId: `${family.name}-${suffix}`, sql });
          const body = r.json() as { code?: string; guardrail?: string; approval?: { statement: string } };
          const label = `${suffix} ${route} ${JSON.stringify(sql)} → ${r.statusCode} ${body.code}`;
          // 400 refusals that run nothing: transaction control, several statements on the one-statement route,
          // and text the executor's splitter reads as only a comment (MariaDB's `/*M! … */`: nothing is sent).
          const refusedEarly =
            r.statusCode === 400 &&
            (['TRANSACTION_CONTROL', 'MULTIPLE_STATEMENTS'].includes(body.code ?? '') ||
              (body.code === 'BAD_REQUEST' && /holds no statement/.test(r.body)));
          if (refusedEarly) continue;
          if (suffix === 'ro') {
            if (r.statusCode !== 403 || body.code !== 'READ_ONLY') failures.push(label);
            continue;
          }
          if (r.statusCode !== 403 || body.code !== 'APPROVAL_REQUIRED' || body.approval?.statement !== sql) {
            failures.push(label);
          } else if (expected !== 'write' && !body.guardrail) {
            failures.push(`${label} (no guardrail, expected ${expected})`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await family.snapshot()).toBe(before.get(family.name));
  }, 120_000);

  it('runs ordinary reads on both datasources', async () => {
    for (const suffix of ['gated', 'ro']) {
      const r = await post('/api/db/query', {
        connectionId: `${family.name}-${suffix}`,
        sql: 'SELECT count(*) AS n FROM t',
      });
      expect(r.statusCode, r.body).toBe(200);
      expect(Number(r.json().rows[0].n)).toBe(20);
    }
  });
});
