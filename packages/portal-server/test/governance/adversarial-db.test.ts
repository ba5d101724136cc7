// Issue 27 proven on real engines: the adversarial corpus (adversarial-corpus.ts) sent through /api/db/query,
// /api/db/multi-query and /api/db/export of the real portal to managed PostgreSQL, SQLite, libSQL and DuckDB
// datasources — one guarded (guardrails, masking of users.email, hidden table secret, maxAffectedRows 10) and
// one read-only. Every form that must not run is held or refused, and each engine is read directly
// afterwards (not the portal's answer) to show nothing changed; harmless reads run; a guarded write within
// the limits runs and lands. Property-based spellings of every-row writes (fast-check) are held too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPostgresDatabase, tempDir } from '@app/kit/testing';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { RateLimiter } from '../../src/auth/rate-limit.js';
import type { PortalServer } from '../../src/index.js';
import { ADMIN, ORIGIN, portal, sessionFor, USER } from '../auth/helpers.js';
import {
  type EngineName,
  everyRowWrites,
  harmlessReads,
  hiddenReaches,
  maskedLeaks,
  unverifiableForms,
} from './adversarial-corpus.js';

interface Engine {
  name: EngineName;
  setup(): Promise<Record<string, unknown>>;
  /** Rows of every table, read from the engine itself. */
  snapshot(): Promise<string>;
  /** One value read from the engine itself. */
  value(sql: string): Promise<unknown>;
}

const SEED = [
  'CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, name TEXT)',
  'CREATE TABLE u (t_id INTEGER)',
  'CREATE TABLE w (id INTEGER PRIMARY KEY, a INTEGER, name TEXT)',
  'CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT, name TEXT)',
  'CREATE TABLE secret (id INTEGER, secret TEXT)',
  "INSERT INTO users VALUES (1, 'ann@example.com', 'Ann'), (2, 'bob@example.com', 'Bob')",
  "INSERT INTO secret VALUES (1, 'the-secret')",
  'INSERT INTO u VALUES (1)',
  "INSERT INTO w VALUES (1, 1, 'one'), (2, 2, 'two')",
];
const rowsOfT = Array.from({ length: 20 }, (_, i) => `(${i + 1}, ${(i + 1) * 10}, 'row ${i + 1}')`).join(
  ', ',
);
const TABLES = ['t', 'u', 'w', 'users', 'secret'];

let pgUrl = '';
async function pgRun<T = Record<string, unknown>>(text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

function sqliteEngine(name: 'sqlite' | 'libsql'): Engine {
  let file = '';
  const read = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(file, { readonly: true });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    name,
    async setup() {
      file = join(tempDir(`portal-adv-${name}-`), `adv.${name}.db`);
      const db = new Database(file);
      for (const s of SEED) db.exec(s);
      db.exec(`INSERT INTO t VALUES ${rowsOfT}`);
      db.exec('ANALYZE');
      db.close();
      return { database: file };
    },
    snapshot: async () =>
      read((db) =>
        [
          JSON.stringify(db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all()),
          ...TABLES.map((t) => JSON.stringify(db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all())),
        ].join('\n'),
      ),
    value: async (sql) => read((db) => Object.values(db.prepare(sql).get() as object)[0]),
  };
}

function duckdbEngine(): Engine {
  let file = '';
  const read = async <T>(fn: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> => {
    // The portal holds the file open in this process; a second instance reads it without writing.
    const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const c = await inst.connect();
    try {
      return await fn(async (sql) => (await c.runAndReadAll(sql)).getRowsJson() as unknown[][]);
    } finally {
      c.closeSync();
      inst.closeSync();
    }
  };
  return {
    name: 'duckdb',
    async setup() {
      file = join(tempDir('portal-adv-duckdb-'), 'adv.duckdb');
      const inst = await DuckDBInstance.create(file);
      const c = await inst.connect();
      for (const s of SEED) await c.run(s);
      await c.run(`INSERT INTO t VALUES ${rowsOfT}`);
      c.closeSync();
      inst.closeSync();
      return { database: file };
    },
    snapshot: () =>
      read(async (run) => {
        const parts = [JSON.stringify(await run('SELECT table_name FROM duckdb_tables() ORDER BY 1'))];
        for (const t of TABLES) parts.push(JSON.stringify(await run(`SELECT * FROM ${t} ORDER BY rowid`)));
        return parts.join('\n');
      }),
    value: (sql) => read(async (run) => (await run(sql))[0]?.[0]),
  };
}

const postgres: Engine = {
  name: 'postgres',
  async setup() {
    pgUrl = await createPostgresDatabase(inject('services').postgresUrl);
    for (const s of SEED) await pgRun(s);
    await pgRun(`INSERT INTO t VALUES ${rowsOfT}`);
    await pgRun('CREATE FUNCTION wipe() RETURNS int LANGUAGE sql AS $$DELETE FROM t RETURNING 1$$');
    await pgRun(
      'CREATE FUNCTION wipe_rows() RETURNS SETOF int LANGUAGE sql AS $$DELETE FROM t RETURNING id$$',
    );
    await pgRun('CREATE PROCEDURE purge() LANGUAGE sql AS $$DELETE FROM t$$');
    await pgRun('ANALYZE');
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
    const parts: string[] = [];
    for (const t of TABLES) {
      const [row] = await pgRun(
        `SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${t} x`,
      );
      parts.push(`${t}:${row.h}`);
    }
    parts.push(
      JSON.stringify(
        await pgRun("SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace ORDER BY 1"),
      ),
    );
    return parts.join('\n');
  },
  value: async (sql) => Object.values((await pgRun(sql))[0] ?? {})[0],
};

const ENGINES: Engine[] = [postgres, sqliteEngine('sqlite'), sqliteEngine('libsql'), duckdbEngine()];

let server: PortalServer;
let cookie: string;
let adminCookie: string;
/** Per engine: forms tried, held or refused, and false refusals (printed as the closing count). */
const tally = new Map<string, { tried: number; stopped: number; falseRefusals: string[] }>();

beforeAll(async () => {
  const lines = ['datasources:'];
  for (const e of ENGINES) {
    const conn = await e.setup();
    const schema = e.name === 'postgres' ? 'public' : 'main';
    for (const [suffix, policy] of [
      [
        'guarded',
        `{ approverRoles: [admin], maxAffectedRows: 10, objectRules: { hidden: [${schema}.secret], defaultSchema: ${schema} }, masking: [{ column: users.email, rule: full }] }`,
      ],
      ['ro', '{ readOnly: true }'],
    ]) {
      lines.push(`  - id: ${e.name}-${suffix}`, `    type: ${e.name}`, '    roles: [admin, user]');
      for (const [k, v] of Object.entries(conn)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
      lines.push(`    policy: ${policy}`);
    }
  }
  const file = join(tempDir('portal-adv-ds-'), 'datasources.yaml');
  writeFileSync(file, `${lines.join('\n')}\n`);
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
  adminCookie = `auth-token=${await sessionFor(server, ADMIN)}`;
  server.app.portalAuth.limits.database = new RateLimiter({ max: 1_000_000, windowMs: 60_000 });
}, 180_000);
afterAll(async () => {
  await server?.close();
  vi.restoreAllMocks();
  for (const [engine, t] of tally) {
    console.info(
      `issue 27 corpus ${engine}: ${t.tried} forms tried, ${t.stopped} held or refused, ${t.falseRefusals.length} false refusals`,
    );
  }
});

const post = (url: string, payload: Record<string, unknown>) =>
  server.app.inject({ method: 'POST', url, payload, headers: { origin: ORIGIN, cookie } });

function count(engine: string) {
  let t = tally.get(engine);
  if (!t) {
    t = { tried: 0, stopped: 0, falseRefusals: [] };
    tally.set(engine, t);
  }
  return t;
}

describe.each(ENGINES)('$name adversarial corpus through the portal', (engine) => {
  const mustStop = [
    ...everyRowWrites(engine.name),
    ...unverifiableForms(engine.name),
    ...maskedLeaks(engine.name),
    ...hiddenReaches(engine.name),
  ];

  it('has at least 100 forms', () => {
    expect(mustStop.length + harmlessReads(engine.name).length).toBeGreaterThanOrEqual(100);
  });

  it('holds or refuses every form on the guarded datasource; the engine, read directly, is unchanged', async () => {
    const before = await engine.snapshot();
    const ran: string[] = [];
    for (const sql of mustStop) {
      count(engine.name).tried++;
      const r = await post('/api/db/query', { connectionId: `${engine.name}-guarded`, sql });
      if (r.statusCode === 200) ran.push(`${sql} → 200`);
      else count(engine.name).stopped++;
    }
    expect(ran).toEqual([]);
    expect(await engine.snapshot()).toBe(before);
  }, 300_000);

  it('every-row writes and unverifiable forms are held on multi-query too; refused on the read-only datasource', async () => {
    const before = await engine.snapshot();
    const ran: string[] = [];
    const writes = [...everyRowWrites(engine.name), ...unverifiableForms(engine.name)];
    for (const sql of writes) {
      const m = await post('/api/db/multi-query', {
        connectionId: `${engine.name}-guarded`,
        sql: `SELECT 1;\n${sql}`,
      });
      if (m.statusCode === 200) ran.push(`multi ${sql}`);
      const ro = await post('/api/db/query', { connectionId: `${engine.name}-ro`, sql });
      // 403 (read-only), or 400 for text the one-statement route refuses before anything runs.
      if (ro.statusCode === 200) ran.push(`ro ${sql} → ${ro.statusCode}`);
    }
    expect(ran).toEqual([]);
    expect(await engine.snapshot()).toBe(before);
  }, 300_000);

  it('masked values and hidden tables do not leave through export', async () => {
    const leaked: string[] = [];
    for (const sql of [...maskedLeaks(engine.name), ...hiddenReaches(engine.name)]) {
      if (!/^\s*(SELECT|WITH|SUMMARIZE)/i.test(sql)) continue;
      const r = await post('/api/db/export', { connectionId: `${engine.name}-guarded`, sql, format: 'csv' });
      if (r.statusCode === 200) leaked.push(sql);
      expect(r.body).not.toMatch(/example\.com|the-secret/);
    }
    expect(leaked).toEqual([]);
  }, 300_000);

  it('harmless reads run', async () => {
    for (const sql of harmlessReads(engine.name)) {
      count(engine.name).tried++;
      const r = await post('/api/db/query', { connectionId: `${engine.name}-guarded`, sql });
      if (r.statusCode !== 200) count(engine.name).falseRefusals.push(`${sql} → ${r.statusCode} ${r.body}`);
      expect(r.body).not.toMatch(/example\.com|the-secret/);
    }
    expect(count(engine.name).falseRefusals).toEqual([]);
  }, 300_000);

  it('a guarded write within the limits runs and lands; beyond maxAffectedRows it is held with its counts', async () => {
    const ok = await post('/api/db/query', {
      connectionId: `${engine.name}-guarded`,
      sql: 'UPDATE t SET a = a + 1 WHERE id = 3',
    });
    expect(ok.statusCode).toBe(200);
    expect(Number(await engine.value('SELECT a FROM t WHERE id = 3'))).toBe(31);
    const held = await post('/api/db/query', {
      connectionId: `${engine.name}-guarded`,
      sql: 'UPDATE t SET a = a + 1 WHERE id <= 15',
    });
    expect(held.statusCode).toBe(403);
    expect(held.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'affected_rows' });
    expect(held.json().approval.dryRun).toEqual([
      expect.objectContaining({ statement: 0, touched: 15, total: 20 }),
    ]);
    expect(Number(await engine.value('SELECT a FROM t WHERE id = 1'))).toBe(10);
  });
});

describe('an approved guarded write is held to its dry-run counts', () => {
  it('runs as approved, and is rolled back (409) when it would touch more rows than were approved', async () => {
    const sql = 'UPDATE w SET a = a + 1 WHERE id > 0';
    const held = await post('/api/db/query', { connectionId: 'postgres-guarded', sql });
    expect(held.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'update_always_true' });
    expect(held.json().approval.dryRun).toEqual([
      expect.objectContaining({ touched: 2, total: 2, reported: 2 }),
    ]);
    const decided = await server.app.inject({
      method: 'POST',
      url: `/api/approvals/${held.json().approval.id}/decision`,
      payload: { decision: 'approve' },
      headers: { origin: ORIGIN, cookie: adminCookie },
    });
    expect(decided.statusCode).toBe(200);
    // A third row appears after the approval: the approved text would now touch 3 rows, not 2.
    await pgRun("INSERT INTO w VALUES (3, 3, 'three')");
    const before = await postgres.snapshot();
    const over = await post('/api/db/query', { connectionId: 'postgres-guarded', sql });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'AFFECTED_ROWS_EXCEEDED' });
    expect(await postgres.snapshot()).toBe(before);
    await pgRun('DELETE FROM w WHERE id = 3');
    const ok = await post('/api/db/query', { connectionId: 'postgres-guarded', sql });
    expect(ok.statusCode).toBe(200);
    expect(await pgRun('SELECT id, a FROM w ORDER BY id')).toEqual([
      { id: 1, a: 2 },
      { id: 2, a: 3 },
    ]);
  });
});

describe('postgres dry runs count the rows triggers and cascades change', () => {
  it('a one-row update cascading to 30 child rows is held by maxAffectedRows, with both tables counted', async () => {
    await pgRun('CREATE TABLE parent (id int PRIMARY KEY)');
    await pgRun(
      'CREATE TABLE child (id int, parent_id int REFERENCES parent (id) ON DELETE CASCADE ON UPDATE CASCADE)',
    );
    await pgRun('INSERT INTO parent VALUES (1), (2)');
    await pgRun('INSERT INTO child SELECT g, 1 FROM generate_series(1, 30) g');
    await pgRun('INSERT INTO child VALUES (31, 2)');
    const held = await post('/api/db/query', {
      connectionId: 'postgres-guarded',
      sql: 'UPDATE parent SET id = 100 WHERE id = 1',
    });
    expect(held.statusCode).toBe(403);
    expect(held.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'affected_rows' });
    expect(held.json().approval.dryRun).toEqual([
      expect.objectContaining({ statement: 0, touched: 1, total: 2, reported: 1 }),
      expect.objectContaining({
        statement: 0,
        table: 'public.child',
        touched: 30,
        total: 31,
        inserted: 0,
        reported: 0,
        indirect: true,
      }),
    ]);
    expect(await pgRun('SELECT count(*)::int AS n FROM child WHERE parent_id = 1')).toEqual([{ n: 30 }]);
  });

  it('a cascade that empties a table is an every-row delete; rows a trigger inserts elsewhere count', async () => {
    await pgRun('CREATE TABLE owner (id int PRIMARY KEY)');
    await pgRun('CREATE TABLE owned (id int, owner_id int REFERENCES owner (id) ON DELETE CASCADE)');
    await pgRun('INSERT INTO owner VALUES (1), (2), (3)');
    await pgRun('INSERT INTO owned VALUES (1, 1), (2, 1), (3, 1)');
    const cascade = await post('/api/db/query', {
      connectionId: 'postgres-guarded',
      sql: 'DELETE FROM owner WHERE id = 1',
    });
    expect(cascade.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'delete_without_where' });
    expect(await pgRun('SELECT count(*)::int AS n FROM owned')).toEqual([{ n: 3 }]);

    await pgRun('CREATE TABLE audited (id int PRIMARY KEY, v int)');
    await pgRun('CREATE TABLE audit_log (id int, note text)');
    await pgRun('INSERT INTO audited VALUES (1, 0), (2, 0), (3, 0)');
    await pgRun(`CREATE FUNCTION audit_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO audit_log SELECT g, 'changed' FROM generate_series(1, 12) g; RETURN NEW; END $$`);
    await pgRun(
      'CREATE TRIGGER audited_rows AFTER UPDATE ON audited FOR EACH ROW EXECUTE FUNCTION audit_rows()',
    );
    const trigger = await post('/api/db/query', {
      connectionId: 'postgres-guarded',
      sql: 'UPDATE audited SET v = 1 WHERE id = 2',
    });
    expect(trigger.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'affected_rows' });
    expect(trigger.json().approval.dryRun).toEqual([
      expect.objectContaining({ statement: 0, touched: 1, total: 3 }),
      expect.objectContaining({ table: 'public.audit_log', touched: 0, inserted: 12, indirect: true }),
    ]);
    expect(await pgRun('SELECT count(*)::int AS n FROM audit_log')).toEqual([{ n: 0 }]);
    expect(await pgRun('SELECT v FROM audited WHERE id = 2')).toEqual([{ v: 0 }]);
  });
});

/** Equivalent spellings of `id = id`: casts, unary plus, arithmetic identities, comments, case, whitespace, quoting. */
const column = fc.constantFrom('id', 'ID', '"id"', 't.id', '"t"."id"', 'Id');
const wrap = (c: fc.Arbitrary<string>) =>
  fc
    .tuple(c, fc.integer({ min: 0, max: 6 }))
    .map(
      ([x, k]) =>
        [x, `+${x}`, `(${x} + 0)`, `(${x} * 1)`, `CAST(${x} AS INTEGER)`, `(${x} - 0)`, `(${x})`][k],
    );
const space = fc.constantFrom(' ', '  ', '\n', '\t', ' /* c */ ', ' -- c\n');
const predicate = fc
  .tuple(wrap(column), space, fc.constantFrom('=', '>=', '<='), space, wrap(column))
  .map(([l, s1, op, s2, r]) => `${l}${s1}${op}${s2}${r}`);
const statement = fc
  .tuple(
    fc.constantFrom(
      'UPDATE t SET a = a + 1 WHERE',
      'update t set a = a + 1 where',
      'DELETE FROM t WHERE',
      'delete   from t where',
    ),
    space,
    predicate,
  )
  .map(([head, s, p]) => `${head}${s}${p}`);

describe.each(ENGINES.filter((e) => e.name === 'postgres' || e.name === 'sqlite'))(
  '$name: generated spellings of every-row writes',
  (engine) => {
    it('are all held, and the engine is unchanged', async () => {
      const before = await engine.snapshot();
      await fc.assert(
        fc.asyncProperty(statement, async (sql) => {
          const r = await post('/api/db/query', { connectionId: `${engine.name}-guarded`, sql });
          expect(r.statusCode, sql).toBe(403);
        }),
        { numRuns: 40, seed: 27 },
      );
      expect(await engine.snapshot()).toBe(before);
    }, 300_000);
  },
);
