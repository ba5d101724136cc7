// The end-to-end suite both search engines pass (elasticsearch.test.ts and opensearch.test.ts run it, each
// against its own loopback double of test/doubles/search.ts): provider level (cursor paging, the 1000-page
// cap, duplicate names, wide integers, no trailing semicolon, params refused, 408 at queryTimeout, OFFSET)
// and through the HTTP routes with governance proven (read-only refusal before anything reaches the
// engine, masking, object rules, export, objects, health, test-connection, provider-meta, the bot API).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineDescriptor } from '../../src/providers/registry.js';
import type { Provider } from '../../src/providers/types.js';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { selfSigned } from '../bot/tls.js';
import { type SearchDouble, type SearchKind, startSearchDouble } from '../doubles/search.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

const PEOPLE = {
  properties: {
    id: { type: 'long' },
    name: { type: 'text', fields: { keyword: { type: 'keyword' } } },
    email: { type: 'keyword' },
    age: { type: 'integer' },
    address: { properties: { city: { type: 'keyword' } } },
    big: { type: 'long' },
  },
  docs: [
    {
      id: 1,
      name: 'Ada',
      email: 'ada@corp.example',
      age: 36,
      address: { city: 'London' },
      big: 9007199254740993n,
    },
    { id: 2, name: 'Ben', email: 'ben@corp.example', age: 41, address: { city: 'Paris' }, big: 2 },
    { id: 3, name: 'Cy', email: 'cy@corp.example', age: 29, address: { city: 'London' }, big: 3 },
  ],
};

function indices() {
  const kinds = ['a', 'b', 'c'];
  return {
    people: PEOPLE,
    secrets: { properties: { token: { type: 'keyword' } }, docs: [{ token: 's3cr3t' }] },
    // Pages of two rows whatever fetch_size asks: the engine paging a result (or aggregation) itself.
    events: {
      pageSize: 2,
      properties: { n: { type: 'integer' }, kind: { type: 'keyword' } },
      docs: Array.from({ length: 9 }, (_, i) => ({ n: i + 1, kind: kinds[i % 3] })),
    },
    // One row per page: 1005 pages, more than the provider follows.
    many: {
      pageSize: 1,
      properties: { n: { type: 'integer' } },
      docs: Array.from({ length: 1005 }, (_, i) => ({ n: i })),
    },
  };
}

export function searchEngineSuite(kind: SearchKind): void {
  const q = kind === 'elasticsearch' ? (s: string) => `"${s}"` : (s: string) => `\`${s}\``;
  let es: SearchDouble;
  let h: GovernedHarness;
  let bot: BotHarness;
  let provider: Provider;
  let conn: { type: SearchKind; host: string; port: number };

  beforeAll(async () => {
    es = await startSearchDouble(kind, indices());
    conn = { type: kind, host: es.host, port: es.port };
    const masking = [{ column: '*.email', rule: 'partial' as const }];
    h = await governed([
      managedDs('search', conn, { masking }),
      managedDs('hidden', conn, { objectRules: { hidden: ['secrets'], defaultSchema: 'default' } }),
    ]);
    const factory = engineDescriptor(kind);
    if (!factory) throw new Error(`${kind} is not registered`);
    provider = await factory.create(
      { descriptor: { id: 'p', ...conn }, queryTimeoutMs: 30_000, connectTimeoutMs: 10_000 },
      { embeddedDir: h.dataDir, sshProfiles: () => undefined },
    );
    bot = await botPortal({
      datasources: () =>
        [
          '  - id: searchbot',
          `    type: ${kind}`,
          `    host: ${es.host}`,
          `    port: ${es.port}`,
          '    roles: [admin, user]',
          '    policy: { masking: [{ column: "*.email", rule: partial }] }',
          '',
        ].join('\n'),
    });
  });
  afterAll(async () => {
    await provider?.close();
    await bot?.close();
    await h?.close();
    await es?.close();
  });

  const query = (sql: string, extra: Record<string, unknown> = {}, who = ADMIN) =>
    h.post('/api/db/query', { connectionId: 'search', sql, ...extra }, who);

  describe(`${kind}: provider`, () => {
    it('follows the cursor page by page, then stops at one row past maxRows and closes the cursor', async () => {
      const all = await provider.query('SELECT n, kind FROM events ORDER BY n', [], { maxRows: 100 });
      expect(all.rows.map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(all.truncated).toBe(false);
      const pagesBefore = es.cursorPages;
      const closedBefore = es.closed.length;
      const some = await provider.query('SELECT n FROM events ORDER BY n', [], { maxRows: 3 });
      expect(some.rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(some.truncated).toBe(true);
      expect(es.cursorPages - pagesBefore).toBe(1);
      expect(es.closed.length).toBe(closedBefore + 1);
      expect(es.open()).toBe(0);
    });

    it('an aggregation paged by the engine arrives whole', async () => {
      const r = await provider.query('SELECT kind, COUNT(*) AS c FROM events GROUP BY kind', [], {
        maxRows: 10,
      });
      expect(r.fields).toEqual(['kind', 'c']);
      expect(r.rows).toEqual([
        { kind: 'a', c: 3 },
        { kind: 'b', c: 3 },
        { kind: 'c', c: 3 },
      ]);
    });

    it('stops after 1000 pages and reports the truncation', async () => {
      const r = await provider.query('SELECT n FROM many', [], { maxRows: 5000 });
      expect(r.rows).toHaveLength(1000);
      expect(r.truncated).toBe(true);
      expect(r.warnings?.join(' ')).toMatch(/1000 pages/);
      // A bound for a loaded machine (1000 loopback round trips), not a timing assertion.
    }, 120_000);

    it('disambiguates duplicate names, keeps wide integers exact and nested fields dotted', async () => {
      const r = await provider.query('SELECT id, id, big, address.city FROM people WHERE id = 1', [], {
        maxRows: 10,
      });
      expect(r.fields).toEqual(['id', 'id (2)', 'big', 'address.city']);
      expect(r.rows).toEqual([{ id: 1, 'id (2)': 1, big: '9007199254740993', 'address.city': 'London' }]);
      expect(r.columnTypes?.big).toBe('long');
    });

    it('sends no trailing semicolon and refuses positional params', async () => {
      const r = await provider.query('SELECT id FROM people WHERE id = 2 ;  ', [], { maxRows: 10 });
      expect(r.rows).toEqual([{ id: 2 }]);
      expect(es.queries.at(-1)).toBe('SELECT id FROM people WHERE id = 2');
      await expect(provider.query('SELECT id FROM people WHERE id = ?', [1], { maxRows: 1 })).rejects.toThrow(
        /params/,
      );
    });

    it('sends basic auth; refused credentials are an authentication error', async () => {
      const locked = await startSearchDouble(kind, indices(), { user: 'reader', password: 'pa ss:w' });
      const open = async (password: string) => {
        const factory = engineDescriptor(kind);
        if (!factory) throw new Error('not registered');
        return factory.create(
          {
            descriptor: {
              id: 'a',
              type: kind,
              host: locked.host,
              port: locked.port,
              user: 'reader',
              password,
            },
            queryTimeoutMs: 30_000,
            connectTimeoutMs: 10_000,
          },
          { embeddedDir: h.dataDir, sshProfiles: () => undefined },
        );
      };
      const good = await open('pa ss:w');
      const bad = await open('wrong');
      try {
        expect((await good.query('SELECT id FROM people WHERE id = 3', [], { maxRows: 5 })).rows).toEqual([
          { id: 3 },
        ]);
        await expect(bad.catalog.profile()).rejects.toMatchObject({ kind: 'authentication' });
        const r = await h.post(
          '/api/db/test-connection',
          {
            connection: {
              id: 'auth',
              type: kind,
              host: locked.host,
              port: locked.port,
              user: 'reader',
              password: 'x',
            },
          },
          ADMIN,
        );
        expect(r.statusCode).toBe(503);
        expect(r.body).toMatch(/AUTHENTICATION_ERROR/);
        expect(r.body).not.toMatch(/"x"/);
      } finally {
        await good.close();
        await bad.close();
        await locked.close();
      }
    });

    it('speaks https with the descriptor ssl modes', async () => {
      const pair = selfSigned();
      const secure = await startSearchDouble(kind, indices(), undefined, pair);
      const factory = engineDescriptor(kind);
      if (!factory) throw new Error('not registered');
      const open = (ssl: unknown) =>
        factory.create(
          {
            descriptor: { id: 't', type: kind, host: secure.host, port: secure.port, ssl } as never,
            queryTimeoutMs: 30_000,
            connectTimeoutMs: 10_000,
          },
          { embeddedDir: h.dataDir, sshProfiles: () => undefined },
        );
      const opened = await Promise.all([
        open(true),
        open({ mode: 'verify-full', ca: pair.cert }),
        open({ mode: 'verify-full' }),
      ]);
      try {
        const [require, verified, untrusted] = opened;
        expect((await require.catalog.profile()).engine).toBe(kind);
        expect((await verified.query('SELECT id FROM people WHERE id = 1', [], { maxRows: 1 })).rows).toEqual(
          [{ id: 1 }],
        );
        await expect(untrusted.catalog.profile()).rejects.toMatchObject({ kind: 'connection' });
      } finally {
        for (const p of opened) await p.close();
        await secure.close();
      }
    });

    it('answers the engine error as a query error with its reason', async () => {
      await expect(provider.query('SELECT nope FROM people', [], { maxRows: 1 })).rejects.toMatchObject({
        kind: 'query',
        message: expect.stringMatching(/Unknown column \[nope\]/),
      });
    });
  });

  describe(`${kind}: routes and governance`, () => {
    it('runs a SELECT with an injected LIMIT, quoted identifiers and masked values', async () => {
      const r = await query(`SELECT ${q('id')}, name, email FROM ${q('people')} ORDER BY id`);
      expect(r.statusCode, r.body).toBe(200);
      const body = r.json();
      expect(body.fields).toEqual(['id', 'name', 'email']);
      expect(body.rows[0]).toEqual({ id: 1, name: 'Ada', email: 'a***@corp.example' });
      expect(body.pagination).toMatchObject({ wasLimited: true, hasMore: false });
      expect(es.queries.at(-1)).toMatch(/\nLIMIT 501$/);
      // OpenSearch pages only basic queries by cursor: a limited statement goes out without fetch_size.
      expect('fetch_size' in (es.bodies.at(-1) ?? {})).toBe(kind === 'elasticsearch');
    });

    it('refuses every write before it reaches the engine (read-only engine), guardrail or not', async () => {
      const before = es.queries.length;
      for (const sql of [
        'INSERT INTO people (id) VALUES (9)',
        'DELETE FROM people',
        'UPDATE people SET age = 1',
        'DROP TABLE people',
      ]) {
        const r = await query(sql);
        expect(r.statusCode, sql).toBe(403);
        expect(r.body).toMatch(/READ_ONLY/);
      }
      const script = await h.post(
        '/api/db/multi-query',
        { connectionId: 'search', sql: 'SELECT id FROM people; DELETE FROM people WHERE id = 1' },
        ADMIN,
      );
      expect(script.statusCode, script.body).toBe(403);
      const bot403 = await bot.submit((await bot.token({ name: `w-${kind}` })).secret, {
        datasourceId: 'searchbot',
        statement: 'DELETE FROM people',
        onBehalfOf: 'alice@example.com',
      });
      expect(bot403.statusCode, bot403.body).toBe(403);
      expect(es.queries.length).toBe(before);
    });

    it('the engine refuses a write itself (a provider reached directly)', async () => {
      await expect(
        provider.query('INSERT INTO people (id) VALUES (9)', [], { maxRows: 1 }),
      ).rejects.toMatchObject({
        kind: 'query',
      });
    });

    it('refuses params with 400 and answers an engine error as 400 QUERY_ERROR', async () => {
      const p = await query('SELECT id FROM people WHERE id = ?', { params: [1] });
      expect(p.statusCode, p.body).toBe(400);
      const bad = await query('SELECT nope FROM people');
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toMatch(/QUERY_ERROR/);
      expect(bad.body).toMatch(/nope/);
    });

    it('hides an object rule index from a user (statement and object list)', async () => {
      const r = await h.post(
        '/api/db/query',
        { connectionId: 'hidden', sql: 'SELECT token FROM secrets' },
        ALICE,
      );
      expect(r.statusCode, r.body).toBe(403);
      expect(r.body).toMatch(/OBJECT_FORBIDDEN/);
      const list = await h.post('/api/db/objects/list', { connectionId: 'hidden' }, ALICE);
      expect(list.statusCode, list.body).toBe(200);
      const names = list.json().objects.map((o: { name: string }) => o.name);
      expect(names).toContain('people');
      expect(names).not.toContain('secrets');
    });

    it('stops a statement at queryTimeout with 408 and closes the request', async () => {
      const before = es.abandoned;
      const r = await h.post(
        '/api/db/query',
        { connection: { id: 'slow', ...conn, queryTimeout: 300 }, sql: 'SELECT id FROM hang' },
        ADMIN,
      );
      expect(r.statusCode, r.body).toBe(408);
      await expect.poll(() => es.abandoned, { timeout: 20_000 }).toBeGreaterThan(before);
    });

    it('cancels a running statement (the request to the engine is closed)', async () => {
      const before = es.abandoned;
      const hanging = () => es.queries.filter((x) => /\bhang\b/.test(x)).length;
      const seen = hanging();
      const running = query('SELECT id FROM hang WHERE id = 7', { queryId: `c-${kind}` });
      await expect.poll(hanging, { timeout: 20_000 }).toBeGreaterThan(seen);
      const c = await h.post('/api/db/cancel', { queryId: `c-${kind}` }, ADMIN);
      expect(c.json()).toEqual({ cancelled: true });
      const r = await running;
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe('QUERY_CANCELLED');
      await expect.poll(() => es.abandoned, { timeout: 20_000 }).toBeGreaterThan(before);
    });

    it('exports json and csv masked; sql formats are 400', async () => {
      const json = await h.post(
        '/api/db/export',
        { connectionId: 'search', sql: 'SELECT id, email FROM people ORDER BY id', format: 'json' },
        ADMIN,
      );
      expect(json.statusCode, json.body).toBe(200);
      expect(json.headers['x-export-rows']).toBe('3');
      expect(JSON.parse(json.body)[1]).toEqual({ id: 2, email: 'b***@corp.example' });
      const csv = await h.post(
        '/api/db/export',
        { connectionId: 'search', sql: 'SELECT n FROM events ORDER BY n', format: 'csv' },
        ADMIN,
      );
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body.trim().split(/\r?\n/)).toEqual(['n', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
      for (const format of ['sql-insert', 'sql-ddl']) {
        const r = await h.post(
          '/api/db/export',
          { connectionId: 'search', sql: 'SELECT id FROM people', format },
          ADMIN,
        );
        expect(r.statusCode, format).toBe(400);
        expect(r.body).toMatch(/SQL DDL/);
      }
    });

    it('lists indices with counts and sizes, counts them and describes mapped fields', async () => {
      const inv = await h.post('/api/db/objects/inventory', { connectionId: 'search' }, ADMIN);
      expect(inv.statusCode, inv.body).toBe(200);
      const people = inv.json().objects.find((o: { name: string }) => o.name === 'people');
      expect(people).toMatchObject({ path: ['people'], kind: 'index', rowCount: 3 });
      expect(people.sizeBytes).toBeGreaterThan(0);
      expect(inv.json().objects.map((o: { name: string }) => o.name)).not.toContain('.kibana_1');
      const counts = await h.post('/api/db/objects/counts', { connectionId: 'search' }, ADMIN);
      expect(counts.statusCode, counts.body).toBe(200);
      expect(counts.body).toMatch(/"count":4/);
      const d = await h.post('/api/db/objects/describe', { connectionId: 'search', path: ['people'] }, ADMIN);
      expect(d.statusCode, d.body).toBe(200);
      expect(d.json().columns.map((c: { name: string }) => c.name)).toEqual([
        'id',
        'name',
        'name.keyword',
        'email',
        'age',
        'address.city',
        'big',
      ]);
      const missing = await h.post(
        '/api/db/objects/describe',
        { connectionId: 'search', path: ['nope'] },
        ADMIN,
      );
      expect(missing.statusCode).toBe(404);
    });

    it('reads health from node statistics and fails rather than reading zeros', async () => {
      const ok = await h.post('/api/db/health', { connectionId: 'search' }, ADMIN);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ activeConnections: 2, cacheHitRatio: '75.00%' });
      expect(ok.json().activeSessions[0]).toMatchObject({ pid: 'n1:42', query: 'SELECT * FROM people' });
      const mon = await h.post('/api/db/monitoring', { connectionId: 'search' }, ADMIN);
      expect(mon.statusCode, mon.body).toBe(200);
      expect(mon.json()).toMatchObject({
        cluster: { status: 'green', cluster_name: 'double-cluster' },
        nodes: [expect.objectContaining({ name: 'node-1', httpOpen: 2, heapUsedPercent: 41 })],
      });
      const maint = await h.post(
        '/api/db/maintenance',
        { connectionId: 'search', type: 'optimize', target: 'people' },
        ADMIN,
      );
      expect(maint.statusCode).toBe(400);
      expect(maint.body).toMatch(/offers: none/);
      es.breakStats = true;
      try {
        const broken = await h.post('/api/db/health', { connectionId: 'search' }, ADMIN);
        expect(broken.statusCode, broken.body).toBeGreaterThanOrEqual(400);
        expect(broken.body).toMatch(/current_open/);
      } finally {
        es.breakStats = false;
      }
    });

    it('tests the connection, refuses a connection string and states truthful flags', async () => {
      const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...conn } }, ADMIN);
      expect(t.statusCode, t.body).toBe(200);
      expect(t.json()).toMatchObject({ success: true, engine: kind, currentDatabase: 'double-cluster' });
      const other = kind === 'elasticsearch' ? 'opensearch' : 'elasticsearch';
      const wrong = await h.post(
        '/api/db/test-connection',
        { connection: { id: 'tc2', ...conn, type: other } },
        ADMIN,
      );
      expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
      const cs = await h.post(
        '/api/db/query',
        {
          connection: { id: 'cs', ...conn, connectionString: 'http://x:9200' },
          sql: 'SELECT id FROM people',
        },
        ADMIN,
      );
      expect(cs.statusCode).toBe(400);
      const meta = await h.post('/api/db/provider-meta', { type: kind }, ADMIN);
      expect(meta.json()).toMatchObject({
        engine: kind,
        defaultPort: 9200,
        capabilities: {
          supportsExplain: false,
          supportsPositionalParams: false,
          supportsMaintenance: false,
          supportsTransactions: false,
          readOnlyEngine: true,
        },
      });
      const explain = await query('SELECT id FROM people', { explain: { mode: 'estimate' } });
      expect(explain.statusCode).toBe(400);
    });

    it('a second page is refused on the kind without OFFSET and served on the other', async () => {
      const r = await query('SELECT n FROM events ORDER BY n', { options: { limit: 3, offset: 3 } });
      if (kind === 'elasticsearch') {
        expect(r.statusCode, r.body).toBe(400);
        expect(r.body).toMatch(/no OFFSET/);
      } else {
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json().rows).toEqual([{ n: 4 }, { n: 5 }, { n: 6 }]);
        expect(r.json().pagination).toMatchObject({ offset: 3, hasMore: true });
      }
    });

    it('the bot API runs a read with masked rows', async () => {
      const { secret } = await bot.token({ name: `r-${kind}` });
      const res = await bot.submit(secret, {
        datasourceId: 'searchbot',
        statement: 'SELECT id, email FROM people ORDER BY id',
        onBehalfOf: 'alice@example.com',
      });
      expect(res.statusCode, res.body).toBe(200);
      const e = res.json().execution.execution;
      expect(e).toMatchObject({ status: 'done', rowCount: 3, fields: ['id', 'email'] });
      expect(e.rows[0]).toEqual({ id: 1, email: 'a***@corp.example' });
    });
  });
}
