// The Trino engine against the client-protocol double (test/doubles/trino.ts: multi-page nextUri results,
// HTTP 200 bodies carrying an `error`, bare wide BIGINTs, DELETE to cancel) through the HTTP routes: what
// the provider sends (headers, OFFSET before LIMIT, no trailing semicolon), results, session statements,
// cancel, the deadline, kill, objects, health, governance (read-only refusal with nothing sent, guardrail
// holds, masking, object rules), export and the bot API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { startTrinoDouble, type TrinoDouble } from '../doubles/trino.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

let trino: TrinoDouble;
let h: GovernedHarness;
let connection: Record<string, unknown>;

const PEOPLE = () => [
  [1n, 'ann', 'ann@corp.example', ['a', 'b']],
  [2n, 'ben', 'ben@corp.example', []],
  [3n, 'cy', 'cy@corp.example', ['c']],
  [4n, 'dee', 'dee@corp.example', []],
  [9007199254740993n, 'max', 'max@corp.example', ['z']],
];

beforeAll(async () => {
  trino = await startTrinoDouble();
  trino.catalogs.set(
    'memory',
    new Map([
      [
        'shop',
        new Map([
          [
            'people',
            {
              columns: [
                { name: 'id', type: 'bigint' },
                { name: 'name', type: 'varchar(20)' },
                { name: 'email', type: 'varchar' },
                { name: 'tags', type: 'array(varchar)' },
              ],
              rows: PEOPLE(),
            },
          ],
        ]),
      ],
    ]),
  );
  connection = {
    type: 'trino',
    host: '127.0.0.1',
    port: trino.port,
    database: 'memory',
    schema: 'shop',
    user: 'alice',
  };
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
      objectRules: { hidden: ['shop.people'], defaultSchema: 'shop' },
    }),
  ]);
});

afterAll(async () => {
  await h?.close();
  await trino?.close();
});

const query = (
  connectionId: string,
  sql: string,
  extra: Record<string, unknown> = {},
  user: { username: string; role: 'admin' | 'user' } = ADMIN,
) => h.post('/api/db/query', { connectionId, sql, ...extra }, user);
const lastSent = () => trino.statements.at(-1);
const people = () => trino.catalogs.get('memory')?.get('shop')?.get('people');

/** Polls until `check` holds (bounded; no timing assertion). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}

describe('trino: protocol and results', () => {
  it('follows nextUri across pages, keeps wide BIGINTs exact and reports types verbatim', async () => {
    const r = await query('rw', 'SELECT * FROM people ORDER BY id');
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.fields).toEqual(['id', 'name', 'email', 'tags']);
    expect(body.rows).toHaveLength(5);
    expect(body.rows[0]).toEqual({ id: 1, name: 'ann', email: 'ann@corp.example', tags: ['a', 'b'] });
    expect(body.rows[4].id).toBe('9007199254740993');
    expect(body.columnTypes).toEqual({
      id: 'bigint',
      name: 'varchar(20)',
      email: 'varchar',
      tags: 'array(varchar)',
    });
    expect(body.pagination).toMatchObject({ wasLimited: true, hasMore: false });
    const sent = trino.requests.filter((q) => q.method === 'POST').at(-1);
    expect(sent?.headers['x-trino-user']).toBe('alice');
    expect(sent?.headers['x-trino-catalog']).toBe('memory');
    expect(sent?.headers['x-trino-schema']).toBe('shop');
  });

  it('pages with OFFSET before LIMIT and transposes a trailing LIMIT … OFFSET; drops a trailing semicolon', async () => {
    const page = await query('rw', 'SELECT id FROM people ORDER BY id', { options: { limit: 2, offset: 2 } });
    expect(page.statusCode, page.body).toBe(200);
    expect(lastSent()).toMatch(/OFFSET 2 LIMIT 3$/);
    expect(page.json().rows).toEqual([{ id: 3 }, { id: 4 }]);
    expect(page.json().pagination.hasMore).toBe(true);
    const own = await query('rw', 'SELECT id FROM people ORDER BY id LIMIT 1 OFFSET 1');
    expect(own.statusCode, own.body).toBe(200);
    expect(lastSent()).toBe('SELECT id FROM people ORDER BY id OFFSET 1 LIMIT 1');
    expect(own.json().rows).toEqual([{ id: 2 }]);
    const semi = await query('rw', 'SELECT name FROM people WHERE id = 1;');
    expect(semi.statusCode, semi.body).toBe(200);
    expect(lastSent()?.includes(';')).toBe(false);
  });

  it('classifies a failed statement from the HTTP 200 body as 400 QUERY_ERROR', async () => {
    const r = await query('rw', 'SELECT nosuch FROM people');
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({ code: 'QUERY_ERROR' });
    expect(r.json().error).toMatch(/Column 'nosuch' cannot be resolved/);
  });

  it('refuses params, a connection string and a password without TLS before sending anything', async () => {
    const before = trino.statements.length;
    expect((await query('rw', 'SELECT id FROM people', { params: [1] })).statusCode).toBe(400);
    const cs = await h.post(
      '/api/db/query',
      { connection: { id: 'cs', type: 'trino', connectionString: 'http://x:1' }, sql: 'SELECT 1' },
      ADMIN,
    );
    expect(cs.statusCode).toBe(400);
    const pw = await h.post(
      '/api/db/query',
      { connection: { id: 'pw', ...connection, password: 'secret' }, sql: 'SELECT id FROM people' },
      ADMIN,
    );
    expect(pw.statusCode, pw.body).toBe(400);
    expect(pw.body).toMatch(/ssl/);
    expect(pw.body).not.toMatch(/secret/);
    expect(trino.statements.length).toBe(before);
  });

  it('answers SET SESSION, USE and DEALLOCATE with a warning and sends nothing, even read-only', async () => {
    const before = trino.statements.length;
    for (const sql of ["SET SESSION query_max_run_time = '1m'", 'USE memory.other', 'DEALLOCATE PREPARE p']) {
      const r = await query('ro', sql);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().warnings?.[0]).toMatch(/changes nothing/);
    }
    expect(trino.statements.length).toBe(before);
    expect((await classifyScript('USE memory.shop', 'trino')).isWrite).toBe(false);
    expect((await classifyScript('USE x; DELETE FROM people', 'trino')).guardrails).toContain(
      'delete_without_where',
    );
  });

  it('reports DML with the update count', async () => {
    const ins = await query('rw', "INSERT INTO people VALUES (7, 'gus')");
    expect(ins.statusCode, ins.body).toBe(200);
    expect(ins.json().rowCount).toBe(1);
    const del = await query('rw', 'DELETE FROM people WHERE id = 7');
    expect(del.json().rowCount).toBe(1);
    expect(people()?.rows).toHaveLength(5);
  });

  it('cancels for real through /api/db/cancel (DELETE nextUri)', async () => {
    const running = query('rw', 'SELECT sleep_forever FROM people', { queryId: 't-1' });
    await until(() => trino.statements.at(-1) === 'SELECT sleep_forever FROM people\nLIMIT 501');
    const deletedBefore = trino.deleted.length;
    await until(async () => (await h.post('/api/db/cancel', { queryId: 't-1' }, ADMIN)).statusCode === 200);
    const r = await running;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
    expect(trino.deleted.length).toBe(deletedBefore + 1);
  });

  it('stops at queryTimeout with 408 and cancels the query on the coordinator', async () => {
    const deletedBefore = trino.deleted.length;
    const r = await h.post(
      '/api/db/query',
      {
        connection: { id: 'slow', ...connection, queryTimeout: 300 },
        sql: 'SELECT sleep_forever FROM people',
      },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(408);
    // The cancel request may reach the coordinator just after the 408 went out: wait for it.
    await until(async () => trino.deleted.length === deletedBefore + 1);
    expect(trino.deleted.length).toBe(deletedBefore + 1);
  });

  it('kills a running query by id (system.runtime.kill_query) found in health', async () => {
    const running = query('rw', 'SELECT sleep_forever FROM people /* kill me */');
    let id = '';
    await until(async () => {
      const health = (await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN)).json();
      id = health.activeSessions?.find((s: { query: string }) => s.query.includes('kill me'))?.pid ?? '';
      return id !== '';
    });
    const kill = await h.post('/api/db/maintenance', { connectionId: 'rw', type: 'kill', target: id }, ADMIN);
    expect(kill.statusCode, kill.body).toBe(200);
    const r = await running;
    expect(r.json().code).toBe('QUERY_CANCELLED');
    const unknown = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'kill', target: 'nope' },
      ADMIN,
    );
    expect(unknown.statusCode).toBe(400);
    const bad = await h.post(
      '/api/db/maintenance',
      { connectionId: 'rw', type: 'optimize', target: 'x' },
      ADMIN,
    );
    expect(bad.statusCode).toBe(400);
  });
});

describe('trino: governance, export, objects', () => {
  it('a read-only datasource refuses writes and sends nothing', async () => {
    const before = trino.statements.length;
    for (const sql of [
      'DELETE FROM people WHERE id = 1',
      "INSERT INTO people VALUES (8, 'h')",
      'DROP TABLE people',
    ]) {
      const r = await query('ro', sql);
      expect(r.statusCode, sql).toBe(403);
    }
    expect(trino.statements.length).toBe(before);
    expect(people()?.rows).toHaveLength(5);
  });

  it('holds DELETE and DROP for approval on a guarded datasource', async () => {
    const del = await query('guarded', 'DELETE FROM people WHERE id = 1', {}, ALICE);
    expect(del.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'delete' });
    const drop = await query('guarded', 'DROP TABLE people', {}, ALICE);
    expect(drop.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'drop' });
    expect(people()?.rows).toHaveLength(5);
  });

  it('masks columns and enforces object rules', async () => {
    const m = await query('masked', 'SELECT id, email FROM people WHERE id = 1', {}, ALICE);
    expect(m.json().rows).toEqual([{ id: 1, email: 'a***@corp.example' }]);
    const hidden = await query('rules', 'SELECT * FROM people', {}, ALICE);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().code).toBe('OBJECT_FORBIDDEN');
  });

  it('exports csv and json with masked rows', async () => {
    const csv = await h.post(
      '/api/db/export',
      { connectionId: 'masked', sql: 'SELECT id, email FROM people ORDER BY id', format: 'csv' },
      ADMIN,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('5');
    expect(csv.body).toContain('9007199254740993');
    expect(csv.body).not.toContain('ann@corp.example');
    const json = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT id, tags FROM people', format: 'json' },
      ADMIN,
    );
    expect(json.statusCode, json.body).toBe(200);
    expect(JSON.parse(json.body)[0]).toEqual({ id: 1, tags: ['a', 'b'] });
  });

  it('lists schemas and tables of the catalog and describes columns with verbatim types', async () => {
    const inv = (await h.post('/api/db/objects/inventory', { connectionId: 'rw' }, ADMIN)).json();
    expect(inv.containers).toEqual([{ path: ['shop'], name: 'shop', kind: 'schema' }]);
    expect(inv.objects).toEqual([{ path: ['shop', 'people'], name: 'people', kind: 'table' }]);
    const d = (
      await h.post('/api/db/objects/describe', { connectionId: 'rw', path: ['shop', 'people'] }, ADMIN)
    ).json();
    expect(d.columns.map((c: { type: string }) => c.type)).toEqual([
      'bigint',
      'varchar(20)',
      'varchar',
      'array(varchar)',
    ]);
    expect(d.columns.every((c: { isPrimary: boolean }) => c.isPrimary === false)).toBe(true);
    expect(d.indexes).toEqual([]);
  });

  it('answers test-connection, provider-meta and a JSON plan', async () => {
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/468/);
    const meta = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(meta.body).toMatch(/"supportsPositionalParams":false/);
    expect(meta.body).toMatch(/"supportsInlineRowEdit":false/);
    expect(meta.body).toMatch(/"declaresForeignKeys":false/);
    const plan = await query('rw', 'SELECT id FROM people', { explain: { mode: 'estimate' } });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json().explainFormat).toBe('trino-json');
    const down = await h.post(
      '/api/db/query',
      { connection: { id: 'down', type: 'trino', host: '127.0.0.1', port: 1 }, sql: 'SELECT 1' },
      ADMIN,
    );
    expect(down.statusCode).toBe(503);
  });
});

describe('trino: bot API', () => {
  let bot: BotHarness;
  let secret: string;
  beforeAll(async () => {
    const entry = (id: string, policy: string) =>
      [
        `  - id: ${id}`,
        '    type: trino',
        '    host: 127.0.0.1',
        `    port: ${trino.port}`,
        '    database: memory',
        '    schema: shop',
        '    user: bot',
        '    roles: [admin, user]',
        `    policy: ${policy}`,
        '',
      ].join('\n');
    bot = await botPortal({
      datasources: () =>
        entry('tdb', '{ writeApproval: true, masking: [{ column: "*.email", rule: partial }] }'),
    });
    secret = (await bot.token({ name: 'trino-bot' })).secret;
  });
  afterAll(() => bot?.close());

  it('a read runs at once masked; a held DELETE rejected sends nothing', async () => {
    const r = await bot.submit(secret, {
      datasourceId: 'tdb',
      statement: 'SELECT id, email FROM people WHERE id = 2',
      onBehalfOf: 'a@b.c',
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().execution.execution).toMatchObject({
      status: 'done',
      rows: [{ id: 2, email: 'b***@corp.example' }],
    });
    const before = trino.statements.length;
    const held = await bot.submit(secret, {
      datasourceId: 'tdb',
      statement: 'DELETE FROM people WHERE id = 1',
      onBehalfOf: 'a@b.c',
    });
    expect(held.statusCode, held.body).toBe(202);
    expect((await bot.decide(held.json().execution.approvalId, 'reject')).statusCode).toBe(200);
    await bot.drain();
    expect(trino.statements.length).toBe(before);
    expect(people()?.rows).toHaveLength(5);
  });
});
