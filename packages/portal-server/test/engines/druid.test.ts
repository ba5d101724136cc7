// The Druid engine against the SQL-API double (test/doubles/druid.ts: arrayLines with header lines, bare wide
// BIGINTs, stringified arrays, Druid's 400 error documents, DELETE to cancel, basic auth) through the HTTP
// routes: read-only refusals answered by the portal first with Druid's message (nothing sent), OFFSET
// without LIMIT sent unchanged, duplicate names, exact integers, params, native-query plans, cancel, the
// deadline, objects, health, governance (masking, object rules, read-only datasource), export and the bot API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { type DruidDouble, startDruidDouble } from '../doubles/druid.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

let druid: DruidDouble;
let h: GovernedHarness;
let connection: Record<string, unknown>;

beforeAll(async () => {
  druid = await startDruidDouble({ user: 'analyst', password: 'pw' });
  druid.tables.set('wiki', {
    columns: [
      { name: '__time', type: 'LONG', sqlType: 'TIMESTAMP' },
      { name: 'page', type: 'STRING', sqlType: 'VARCHAR' },
      { name: 'editor', type: 'STRING', sqlType: 'VARCHAR' },
      { name: 'added', type: 'LONG', sqlType: 'BIGINT' },
      { name: 'tags', type: 'ARRAY<STRING>', sqlType: 'VARCHAR ARRAY' },
    ],
    rows: [
      ['2026-01-01T00:00:00.000Z', 'Main', 'ann@corp.example', 5, '["a","b"]'],
      ['2026-01-02T00:00:00.000Z', 'Talk', 'ben@corp.example', 9007199254740993n, '[]'],
      ['2026-01-03T00:00:00.000Z', 'Help', 'cy@corp.example', 7, '["c"]'],
    ],
  });
  connection = { type: 'druid', host: '127.0.0.1', port: druid.port, user: 'analyst', password: 'pw' };
  h = await governed([
    managedDs('ro', connection, { readOnly: true }),
    managedDs('rw', connection, { guardrails: false }),
    managedDs('masked', connection, {
      guardrails: false,
      masking: [{ column: 'wiki.editor', rule: 'partial' }],
    }),
    managedDs('rules', connection, {
      guardrails: false,
      objectRules: { hidden: ['druid.wiki'], defaultSchema: 'druid' },
    }),
  ]);
});

afterAll(async () => {
  await h?.close();
  await druid?.close();
});

const query = (
  connectionId: string,
  sql: string,
  extra: Record<string, unknown> = {},
  user: { username: string; role: 'admin' | 'user' } = ADMIN,
) => h.post('/api/db/query', { connectionId, sql, ...extra }, user);

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}

describe('druid: results', () => {
  it('reads arrayLines with headers: exact wide integers, arrays as JSON strings, SQL types', async () => {
    const r = await query('rw', 'SELECT * FROM wiki');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.fields).toEqual(['__time', 'page', 'editor', 'added', 'tags']);
    expect(body.rows[1]).toMatchObject({ added: '9007199254740993', tags: '[]' });
    expect(body.rows[0]).toMatchObject({ added: 5, tags: '["a","b"]' });
    expect(body.columnTypes).toMatchObject({ added: 'BIGINT', __time: 'TIMESTAMP' });
    expect(druid.queries.at(-1)).toBe('SELECT * FROM wiki\nLIMIT 501');
    const sent = druid.requests.at(-1);
    expect(sent?.body).toMatchObject({ resultFormat: 'arrayLines', header: true, sqlTypesHeader: true });
    expect(sent?.headers.authorization).toBe(`Basic ${Buffer.from('analyst:pw').toString('base64')}`);
  });

  it('names duplicate output columns id, id (2)', async () => {
    const r = await query('rw', 'SELECT page AS id, editor AS id FROM wiki');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().fields).toEqual(['id', 'id (2)']);
    expect(r.json().rows[0]).toEqual({ id: 'Main', 'id (2)': 'ann@corp.example' });
  });

  it('sends a statement ending in OFFSET without LIMIT unchanged', async () => {
    const r = await query('rw', 'SELECT page FROM wiki OFFSET 1');
    expect(r.statusCode, r.body).toBe(200);
    expect(druid.queries.at(-1)).toBe('SELECT page FROM wiki OFFSET 1');
    expect(r.json().rows).toEqual([{ page: 'Talk' }, { page: 'Help' }]);
  });

  it('binds positional params as typed Druid parameters', async () => {
    const r = await query('rw', 'SELECT page FROM wiki WHERE page = ?', { params: ['Help'] });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows).toEqual([{ page: 'Help' }]);
    expect(druid.requests.at(-1)?.body.parameters).toEqual([{ type: 'VARCHAR', value: 'Help' }]);
  });

  it('answers the planner refusal and unknown objects as 400 QUERY_ERROR with Druid’s message', async () => {
    const r = await query('rw', 'SELECT page FROM wiki ORDER BY page');
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_ERROR');
    expect(r.json().error).toMatch(/ordering a table by non-time column/);
    const missing = await query('rw', 'SELECT x FROM nowhere');
    expect(missing.json().error).toMatch(/nowhere/);
  });

  it('gives plans as native-query trees', async () => {
    const r = await query('rw', 'SELECT page FROM wiki', { explain: { mode: 'estimate' } });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().explainFormat).toBe('druid-native-query');
    expect(r.json().rows[0].PLAN[0].query).toMatchObject({ queryType: 'scan', dataSource: { name: 'wiki' } });
    expect(druid.queries.at(-1)).toBe('EXPLAIN PLAN FOR SELECT page FROM wiki');
  });

  it('cancels through /api/db/cancel and stops at queryTimeout with 408 (DELETE by sqlQueryId)', async () => {
    const running = query('rw', 'SELECT slow_scan FROM wiki', { queryId: 'd-1' });
    const cancelledBefore = druid.cancelled.length;
    await until(() => druid.queries.at(-1)?.includes('slow_scan') === true);
    let ok = 0;
    for (let i = 0; i < 100 && ok !== 200; i++) {
      ok = (await h.post('/api/db/cancel', { queryId: 'd-1' }, ADMIN)).statusCode;
      if (ok !== 200) await new Promise((r) => setTimeout(r, 25));
    }
    expect(ok).toBe(200);
    const r = await running;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
    expect(druid.cancelled.length).toBe(cancelledBefore + 1);
    const slow = await h.post(
      '/api/db/query',
      { connection: { id: 'slow', ...connection, queryTimeout: 300 }, sql: 'SELECT slow_scan FROM wiki' },
      ADMIN,
    );
    expect(slow.statusCode, slow.body).toBe(408);
    expect(druid.cancelled.length).toBe(cancelledBefore + 2);
  });
});

describe('druid: read-only engine and governance', () => {
  const writes: Array<[string, RegExp]> = [
    ['INSERT INTO wiki SELECT * FROM wiki', /INSERT operations are not supported by requested SQL engine/],
    ['REPLACE INTO wiki OVERWRITE ALL SELECT * FROM wiki', /REPLACE operations are not supported/],
    ["UPDATE wiki SET page = 'x'", /Incorrect syntax near the keyword 'UPDATE'/],
    ['DELETE FROM wiki', /Incorrect syntax near the keyword 'DELETE'/],
    ['CREATE TABLE t (x INT)', /Incorrect syntax near the keyword 'CREATE'/],
    ['/* c */ delete from wiki', /Incorrect syntax near the keyword 'DELETE'/],
  ];
  it.each(writes)(
    'the portal refuses %j first with Druid’s message (400 QUERY_ERROR, nothing sent)',
    async (sql, message) => {
      const before = druid.queries.length;
      for (const id of ['rw', 'ro']) {
        const r = await query(id, sql);
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().code).toBe('QUERY_ERROR');
        expect(r.json().error).toMatch(message);
      }
      expect(druid.queries.length).toBe(before);
    },
  );

  it('the engine itself refuses a write the portal let through (the double answers as Druid does)', async () => {
    const res = await fetch(`${druid.url}/druid/v2/sql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from('analyst:pw').toString('base64')}`,
      },
      body: JSON.stringify({ query: 'INSERT INTO wiki SELECT * FROM wiki', resultFormat: 'arrayLines' }),
    });
    expect(res.status).toBe(400);
  });

  it('masks columns, enforces object rules and runs reads on a read-only datasource', async () => {
    const m = await query('masked', "SELECT page, editor FROM wiki WHERE page = 'Main'", {}, ALICE);
    expect(m.json().rows).toEqual([{ page: 'Main', editor: 'a***@corp.example' }]);
    const hidden = await query('rules', 'SELECT * FROM wiki', {}, ALICE);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().code).toBe('OBJECT_FORBIDDEN');
    expect((await query('ro', 'SELECT page FROM wiki')).statusCode).toBe(200);
  });

  it('exports csv and json with masked rows', async () => {
    const csv = await h.post(
      '/api/db/export',
      { connectionId: 'masked', sql: 'SELECT page, editor, added FROM wiki', format: 'csv' },
      ADMIN,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('3');
    expect(csv.body).toContain('9007199254740993');
    expect(csv.body).not.toContain('ann@corp.example');
    const json = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT page, tags FROM wiki', format: 'json' },
      ADMIN,
    );
    expect(JSON.parse(json.body)[0]).toEqual({ page: 'Main', tags: '["a","b"]' });
  });
});

describe('druid: objects, health, connection', () => {
  it('lists datasources with segment figures and describes columns', async () => {
    const list = (await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN)).json();
    expect(list.objects).toEqual([
      { path: ['druid', 'wiki'], name: 'wiki', kind: 'datasource', rowCount: 3, sizeBytes: 4096 },
    ]);
    const d = (
      await h.post('/api/db/objects/describe', { connectionId: 'rw', path: ['druid', 'wiki'] }, ADMIN)
    ).json();
    expect(d.columns[0]).toEqual({ name: '__time', type: 'TIMESTAMP', nullable: false, isPrimary: false });
    expect(d.columns.map((c: { name: string }) => c.name)).toEqual([
      '__time',
      'page',
      'editor',
      'added',
      'tags',
    ]);
  });

  it('answers health from sys tables, test-connection from /status, provider-meta flags; bad credentials are 503', async () => {
    const health = (await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN)).json();
    expect(health).toMatchObject({ activeConnections: 1, cacheHitRatio: 'n/a', slowQueries: [] });
    expect(health.activeSessions[0]).toMatchObject({ pid: 'index_kafka_wiki_1', database: 'wiki' });
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/31\.0\.0/);
    const meta = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(meta.body).toMatch(/"supportsMaintenance":false/);
    expect(meta.body).toMatch(/"maintenanceOperations":\[\]/);
    // Read-only is one flag, shown to the UI as the search engines show it.
    expect(meta.json().capabilities.readOnlyEngine).toBe(true);
    const bad = await h.post(
      '/api/db/query',
      { connection: { id: 'bad', ...connection, password: 'wrong' }, sql: 'SELECT 1' },
      ADMIN,
    );
    expect(bad.statusCode).toBe(503);
    expect(bad.body).not.toMatch(/wrong/);
    const cs = await h.post(
      '/api/db/query',
      { connection: { id: 'cs', type: 'druid', connectionString: 'http://x' }, sql: 'SELECT 1' },
      ADMIN,
    );
    expect(cs.statusCode).toBe(400);
    const maint = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'optimize', target: 'wiki' },
      ADMIN,
    );
    expect(maint.statusCode).toBe(400);
  });
});

describe('druid: bot API', () => {
  let bot: BotHarness;
  let secret: string;
  beforeAll(async () => {
    bot = await botPortal({
      datasources: () =>
        [
          '  - id: ddb',
          '    type: druid',
          '    host: 127.0.0.1',
          `    port: ${druid.port}`,
          '    user: analyst',
          '    password: pw',
          '    roles: [admin, user]',
          '    policy: { masking: [{ column: "*.editor", rule: partial }] }',
          '',
        ].join('\n'),
    });
    secret = (await bot.token({ name: 'druid-bot' })).secret;
  });
  afterAll(() => bot?.close());

  it('a read runs at once masked; a write is refused as the engine refuses it and nothing is sent', async () => {
    const r = await bot.submit(secret, {
      datasourceId: 'ddb',
      statement: "SELECT page, editor FROM wiki WHERE page = 'Talk'",
      onBehalfOf: 'a@b.c',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().execution.execution).toMatchObject({
      status: 'done',
      rows: [{ page: 'Talk', editor: 'b***@corp.example' }],
    });
    const before = druid.queries.length;
    const w = await bot.submit(secret, {
      datasourceId: 'ddb',
      statement: 'INSERT INTO wiki SELECT page FROM wiki',
      onBehalfOf: 'a@b.c',
    });
    // Druid is a read-only engine: the policy refuses the write first, in Druid's words (its spec row: 400
    // QUERY_ERROR), as the session routes do.
    expect(w.statusCode, w.body).toBe(400);
    expect(w.json()).toMatchObject({ code: 'QUERY_ERROR' });
    expect(w.json().error).toMatch(/INSERT operations are not supported by requested SQL engine/);
    expect(druid.queries.length).toBe(before);
  });
});
