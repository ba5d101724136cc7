// The serverless query engine (@aws-sdk/client-athena) against the AWS JSON 1.1 double of
// test/doubles/athena.ts (no Athena offline): descriptor validation (region required, workgroup default,
// endpoint override, access-key credentials), each statement a job (submit, poll, paged results with the
// header row dropped), OFFSET before LIMIT, typed values, FAILED jobs → 400 with Athena's reason, a RUNNING
// job stopped at queryTimeout (408) and by maintenance `kill`, the metadata catalog as the object surface,
// health from the workgroup's recent executions, and governance through the HTTP routes: read-only refusal,
// guardrail → approval, masking, object rules, export and the bot API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { type AthenaDouble, type AthenaTable, startAthenaDouble } from '../doubles/athena.js';
import { type GovernedHarness, governed, managedDs } from '../governance/policy-harness.js';
import { ADMIN, ALICE } from '../query/harness.js';

const KEY = 'AKIDPORTALTEST';
let aws: AthenaDouble;
let h: GovernedHarness;
let bot: BotHarness;
let secret: string;
let connection: Record<string, unknown>;

function people(): AthenaTable {
  return {
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'name', type: 'varchar' },
      { name: 'email', type: 'varchar' },
      { name: 'big', type: 'bigint' },
      { name: 'score', type: 'double' },
      { name: 'active', type: 'boolean' },
      { name: 'amount', type: 'decimal(20,2)' },
    ],
    partitionKeys: [{ name: 'dt', type: 'varchar' }],
    rows: Array.from({ length: 30 }, (_, i) => [
      String(i + 1),
      `person${i + 1}`,
      `p${i + 1}@example.com`,
      i === 0 ? '9007199254740993' : String(i),
      String(i + 0.5),
      i % 2 === 0 ? 'true' : 'false',
      '12345678901234567.25',
      '2026-01-01',
    ]),
  };
}

beforeAll(async () => {
  aws = await startAthenaDouble({ accessKeyId: KEY });
  aws.databases.set(
    'sales',
    new Map([
      ['people', people()],
      ['orders', { columns: [{ name: 'id', type: 'integer' }], rows: [['1']] }],
      ['people_view', { columns: [{ name: 'id', type: 'integer' }], rows: [], view: true }],
    ]),
  );
  aws.databases.set(
    'logs',
    new Map([['events', { columns: [{ name: 'msg', type: 'varchar' }], rows: [['hi']] }]]),
  );
  connection = {
    type: 'athena',
    region: 'us-east-1',
    endpoint: aws.url,
    user: KEY,
    password: 'not-checked-by-the-double',
    database: 'sales',
    outputLocation: 's3://results/portal/',
  };
  h = await governed([
    managedDs('ro', connection, { readOnly: true }),
    managedDs('rw', connection, { guardrails: false }),
    managedDs('guarded', connection, {}),
    managedDs('masked', connection, {
      guardrails: false,
      masking: [{ column: 'people.email', rule: 'partial' }],
      objectRules: { hidden: ['logs.*'], defaultSchema: 'sales' },
    }),
  ]);
  bot = await botPortal({
    datasources: () =>
      [
        '  - id: ath',
        '    type: athena',
        '    region: us-east-1',
        `    endpoint: ${aws.url}`,
        `    user: ${KEY}`,
        '    password: "x"',
        '    database: sales',
        '    roles: [admin, user]',
        '    policy: { writeApproval: true, masking: [{ column: "*.email", rule: partial }] }',
        '',
      ].join('\n'),
  });
  secret = (await bot.token({ name: 'ath-bot' })).secret;
}, 60_000);

afterAll(async () => {
  await bot?.close();
  await h?.close();
  await aws?.close();
});

const query = (connectionId: string, sql: string, extra: Record<string, unknown> = {}) =>
  h.post('/api/db/query', { connectionId, sql, ...extra }, ADMIN);

describe('athena engine: descriptor and connection', () => {
  it('refuses a descriptor without region, with a bad endpoint or output location (400)', async () => {
    const { region: _r, ...noRegion } = connection;
    for (const conn of [
      noRegion,
      { ...connection, region: 'nowhere' },
      { ...connection, endpoint: 'ftp://x' },
      { ...connection, outputLocation: '/tmp/x' },
      { ...connection, password: undefined },
    ]) {
      const r = await h.post(
        '/api/db/query',
        { connection: { id: 'bad', ...conn }, sql: 'SELECT id FROM people' },
        ADMIN,
      );
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe('CONFIGURATION_ERROR');
    }
  });

  it('test-connection reads the workgroup (primary by default); unknown access keys are 503', async () => {
    const t = await h.post('/api/db/test-connection', { connection: { id: 'tc', ...connection } }, ADMIN);
    expect(t.statusCode, t.body).toBe(200);
    expect(t.body).toMatch(/Athena engine version 3 \(workgroup primary/);
    const bad = await h.post(
      '/api/db/test-connection',
      { connection: { id: 'tc-bad', ...connection, user: 'AKIDWRONG' } },
      ADMIN,
    );
    expect(bad.statusCode, bad.body).toBe(503);
    expect(bad.body).not.toMatch(/not-checked-by-the-double/);
  });

  it('provider-meta states the truthful flags', async () => {
    const r = await h.post('/api/db/provider-meta', { connection: { id: 'pm', ...connection } }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.body).toMatch(/"supportsExplain":false/);
    expect(r.body).toMatch(/"supportsCancel":true/);
    expect(r.body).toMatch(/"type":"kill"/);
    const fields = r.json().connectionFields as Array<{ name: string; required: boolean }>;
    expect(fields.map((f) => [f.name, f.required])).toEqual([
      ['region', true],
      ['workgroup', false],
      ['outputLocation', false],
      ['endpoint', false],
    ]);
  });
});

describe('athena engine: jobs and results', () => {
  it('runs a SELECT as a job: header row dropped, values typed, big integers exact', async () => {
    const r = await query('rw', "SELECT * FROM people WHERE name = 'person1'");
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.fields).toEqual(['id', 'name', 'email', 'big', 'score', 'active', 'amount', 'dt']);
    expect(body.rows).toEqual([
      {
        id: 1,
        name: 'person1',
        email: 'p1@example.com',
        big: '9007199254740993',
        score: 0.5,
        active: true,
        amount: '12345678901234567.25',
        dt: '2026-01-01',
      },
    ]);
    expect(body.columnTypes).toMatchObject({ id: 'integer', big: 'bigint' });
    const sent = aws.queries.at(-1) ?? '';
    const exec = [...aws.executions.values()].find((e) => e.query === sent);
    expect(exec).toMatchObject({ database: 'sales', workgroup: 'primary', state: 'SUCCEEDED' });
  });

  it('auto-limits, pages with OFFSET before LIMIT, and transposes a trailing LIMIT … OFFSET', async () => {
    const first = await query('rw', 'SELECT id FROM people', { options: { limit: 10 } });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().rows.map((x: { id: number }) => x.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(first.json().pagination).toMatchObject({ hasMore: true, wasLimited: true });
    const second = await query('rw', 'SELECT id FROM people', { options: { limit: 10, offset: 10 } });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().rows[0]).toEqual({ id: 11 });
    expect(aws.queries.at(-1)).toMatch(/OFFSET 10 LIMIT 11$/);
    const own = await query('rw', 'SELECT id FROM people LIMIT 3 OFFSET 5');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().rows).toEqual([{ id: 6 }, { id: 7 }, { id: 8 }]);
    expect(aws.queries.at(-1)).toMatch(/OFFSET 5 LIMIT 3$/);
    const all = await query('rw', 'SELECT id FROM people', { options: { limit: 1000 } });
    expect(all.json().rows).toHaveLength(30);
    expect(all.json().pagination.hasMore).toBe(false);
  });

  it('a FAILED job is 400 QUERY_ERROR with the reason; params are refused', async () => {
    const r = await query('rw', 'SELECT nope FROM people');
    expect(r.statusCode).toBe(400);
    expect(r.body).toMatch(/cannot be resolved/);
    const p = await query('rw', 'SELECT id FROM people WHERE id = ?', { params: [1] });
    expect(p.statusCode).toBe(400);
  });

  it('INSERT reports the update count; DDL needs backticks', async () => {
    const ins = await query('rw', 'INSERT INTO orders VALUES (2), (3)');
    expect(ins.statusCode, ins.body).toBe(200);
    expect(ins.json().rowCount).toBe(2);
    const quoted = await query('rw', 'DROP TABLE "orders"');
    expect(quoted.statusCode).toBe(400);
    const ticked = await query('rw', 'DROP TABLE `orders`');
    expect(ticked.statusCode, ticked.body).toBe(200);
    expect(aws.databases.get('sales')?.has('orders')).toBe(false);
  });

  it('stops a RUNNING job at queryTimeout (408) with StopQueryExecution', async () => {
    const r = await h.post(
      '/api/db/query',
      { connection: { id: 'slow', ...connection, queryTimeout: 300 }, sql: 'SELECT x FROM slow' },
      ADMIN,
    );
    expect(r.statusCode, r.body).toBe(408);
    // The stop is sent when the deadline fires; on a loaded machine the 408 may be answered first.
    await expect
      .poll(
        () =>
          [...aws.executions.values()].filter((e) => e.query === 'SELECT x FROM slow\nLIMIT 501').at(-1)
            ?.state,
        { timeout: 20_000 },
      )
      .toBe('CANCELLED');
  });

  it('/api/db/cancel stops the running job (400 QUERY_CANCELLED)', async () => {
    const pending = h.post(
      '/api/db/query',
      { connection: { id: 'slow3', ...connection }, sql: 'SELECT x AS c FROM slow', queryId: 'athena-q1' },
      ADMIN,
    );
    await expect
      .poll(() => [...aws.executions.values()].some((e) => e.query.startsWith('SELECT x AS c FROM slow')), {
        timeout: 20_000,
      })
      .toBe(true);
    await expect
      .poll(async () => (await h.post('/api/db/cancel', { queryId: 'athena-q1' }, ADMIN)).statusCode, {
        timeout: 20_000,
      })
      .toBe(200);
    const r = await pending;
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().code).toBe('QUERY_CANCELLED');
    expect(
      [...aws.executions.values()].find((e) => e.query.startsWith('SELECT x AS c FROM slow'))?.state,
    ).toBe('CANCELLED');
  });

  it('maintenance kill stops a job by its id', async () => {
    const pending = h.post(
      '/api/db/query',
      { connection: { id: 'slow2', ...connection, queryTimeout: 60_000 }, sql: 'SELECT x FROM "slow"' },
      ADMIN,
    );
    let job: { id: string; state: string } | undefined;
    await expect
      .poll(
        () => (job = [...aws.executions.values()].find((e) => e.query.startsWith('SELECT x FROM "slow"'))),
        {
          timeout: 20_000,
        },
      )
      .toBeTruthy();
    const kill = await h.post(
      '/api/db/maintenance',
      { connection: { id: 'slow2', ...connection }, type: 'kill', target: job?.id },
      ADMIN,
    );
    expect(kill.statusCode, kill.body).toBe(200);
    const r = await pending;
    expect(r.statusCode, r.body).toBe(400);
    expect(job?.state).toBe('CANCELLED');
  });
});

describe('athena engine: governance', () => {
  it('a read-only datasource refuses writes; a guarded one holds DROP for approval', async () => {
    for (const sql of [
      "INSERT INTO people VALUES (99, 'x')",
      'DROP TABLE `people`',
      'DELETE FROM people WHERE id = 1',
    ]) {
      const r = await query('ro', sql);
      expect(r.statusCode, `${sql}: ${r.body}`).toBe(403);
    }
    const held = await query('guarded', 'DROP TABLE `people`');
    expect(held.statusCode, held.body).toBe(403);
    expect(held.body).toMatch(/APPROVAL_REQUIRED/);
    expect(aws.databases.get('sales')?.get('people')?.rows).toHaveLength(30);
  });

  it('masks columns and enforces object rules', async () => {
    const r = await query('masked', 'SELECT id, email FROM people WHERE id = 2');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().rows[0].email).not.toBe('p2@example.com');
    const hidden = await h.post(
      '/api/db/query',
      { connectionId: 'masked', sql: 'SELECT msg FROM logs.events' },
      ALICE,
    );
    expect(hidden.statusCode, hidden.body).toBe(403);
  });

  it('exports csv and masked json', async () => {
    const csv = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT id, name FROM people', format: 'csv' },
      ADMIN,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['x-export-rows']).toBe('30');
    const json = await h.post(
      '/api/db/export',
      { connectionId: 'masked', sql: 'SELECT email FROM people', format: 'json' },
      ADMIN,
    );
    expect(json.statusCode, json.body).toBe(200);
    expect(json.body).not.toMatch(/p1@example\.com/);
    const sqlFormat = await h.post(
      '/api/db/export',
      { connectionId: 'rw', sql: 'SELECT id FROM people', format: 'sql-ddl' },
      ADMIN,
    );
    expect(sqlFormat.statusCode, sqlFormat.body).toBe(400);
  });

  it('the bot API runs reads with masked rows and holds writes for a reviewer', async () => {
    const read = await bot.submit(secret, {
      datasourceId: 'ath',
      statement: 'SELECT email FROM people WHERE id = 3',
      onBehalfOf: 'a@b.c',
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().execution.execution).toMatchObject({ status: 'done', rowCount: 1 });
    expect(read.json().execution.execution.rows[0].email).not.toBe('p3@example.com');
    const write = await bot.submit(secret, {
      datasourceId: 'ath',
      statement: "INSERT INTO people VALUES (77, 'z')",
      onBehalfOf: 'a@b.c',
    });
    expect(write.statusCode, write.body).toBe(202);
    await bot.drain();
    expect(aws.databases.get('sales')?.get('people')?.rows).toHaveLength(30);
  });
});

describe('athena engine: catalog and health', () => {
  it('lists databases and tables from the metadata catalog (paged) and describes columns with partitions', async () => {
    const inv = await h.post('/api/db/objects/list', { connectionId: 'rw' }, ADMIN);
    expect(inv.statusCode, inv.body).toBe(200);
    expect(inv.json().objects).toEqual(
      expect.arrayContaining([
        { path: ['sales', 'people'], name: 'people', kind: 'table' },
        { path: ['sales', 'people_view'], name: 'people_view', kind: 'view' },
      ]),
    );
    const d = await h.post(
      '/api/db/objects/describe',
      { connectionId: 'rw', path: ['sales', 'people'] },
      ADMIN,
    );
    expect(d.statusCode, d.body).toBe(200);
    expect(d.json().columns.map((c: { name: string }) => c.name)).toEqual([
      'id',
      'name',
      'email',
      'big',
      'score',
      'active',
      'amount',
      'dt',
    ]);
    expect(d.json().indexes).toEqual([]);
  });

  it('answers health from the workgroup executions, never zero-filled sizes', async () => {
    const r = await h.post('/api/db/health', { connectionId: 'rw' }, ADMIN);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().databaseSize).toMatch(/not reported/);
    expect(r.json().slowQueries.length).toBeGreaterThan(0);
    const m = await h.post('/api/db/monitoring', { connectionId: 'rw' }, ADMIN);
    expect(m.statusCode, m.body).toBe(200);
    expect(m.json()).toMatchObject({ workgroup: 'primary', engineVersion: 'Athena engine version 3' });
  });
});
