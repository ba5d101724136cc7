// The Couchbase engine through the whole portal (managed datasources from PORTAL_DATASOURCES, against the
// REST test double): the bot execution API (/api/v1/executions) runs SQL++ reads masked, holds a DELETE
// without WHERE for approval, refuses writes on a read-only datasource and a hidden keyspace, with the data
// unchanged; /api/db/multi-query runs a SQL++ script statement by statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotHarness, botPortal } from '../bot/harness.js';
import { CouchbaseDouble } from '../doubles/couchbase.js';

const cb = new CouchbaseDouble({
  user: 'portal',
  password: 'secret-pw',
  bucket: 'shop',
  data: {
    sales: {
      orders: {
        o1: { total: 10, buyer: { name: 'Ada', email: 'ada@example.com' } },
        o2: { total: 25, buyer: { name: 'Grace', email: 'grace@example.com' } },
      },
      vault: { v1: { secret: 'classified' } },
    },
  },
});
const KS = '`shop`.`sales`';
let h: BotHarness;
let token: string;

beforeAll(async () => {
  await cb.start();
  const entry = (id: string, policy: string) =>
    `  - id: ${id}\n    type: couchbase\n    host: 127.0.0.1\n    port: ${cb.mgmtPort}\n    user: portal\n` +
    `    password: "secret-pw"\n    database: shop\n    roles: [admin, user]\n    policy: ${policy}\n`;
  h = await botPortal({
    datasources: () =>
      [
        entry('cb', '{ masking: [{ column: "*.email", rule: full }] }'),
        entry('cbro', '{ readOnly: true }'),
        entry('cbhidden', '{ objectRules: { hidden: [sales.vault] } }'),
      ].join(''),
  });
  token = (await h.token({ name: 'cb-bot' })).secret;
});

afterAll(async () => {
  await h?.close();
  await cb.stop();
});

const submit = (datasourceId: string, statement: string) =>
  h.submit(token, { datasourceId, statement, onBehalfOf: 'alice@example.com' });
const orders = () => cb.collection({ bucket: 'shop', scope: 'sales', collection: 'orders' })!;

describe('couchbase through the bot API', () => {
  it('runs a read with nested fields masked', async () => {
    const res = await submit('cb', `SELECT META(o).id AS __id, o.* FROM ${KS}.\`orders\` AS o`);
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json().execution.execution;
    expect(run).toMatchObject({ status: 'done', rowCount: 2, fields: ['__id', 'total', 'buyer'] });
    expect(run.rows[0]).toEqual({ __id: 'o1', total: 10, buyer: { name: 'Ada', email: '****' } });
    expect(res.body).not.toMatch(/(ada|grace)@example\.com/);
  });

  it('holds a DELETE without WHERE for approval; the documents stay', async () => {
    const res = await submit('cb', `SELECT 1 AS one; DELETE FROM ${KS}.\`orders\``);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().execution.status).toBe('pending');
    expect(orders().size).toBe(2);
  });

  it('refuses writes on a read-only datasource and a hidden keyspace; nothing changes', async () => {
    const ro = await submit('cbro', `UPSERT INTO ${KS}.\`orders\` (KEY, VALUE) VALUES ('o1', {"total": 0})`);
    expect(ro.statusCode, ro.body).toBe(403);
    const hidden = await submit('cbhidden', `SELECT * FROM ${KS}.\`vault\``);
    expect(hidden.statusCode, hidden.body).toBe(403);
    expect(hidden.body).not.toMatch(/classified/);
    expect(orders().get('o1')).toMatchObject({ total: 10 });
  });
});

describe('couchbase scripts through /api/db/multi-query', () => {
  it('runs SQL++ statements in order on one connection', async () => {
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/api/db/multi-query',
      headers: { cookie: `auth-token=${h.adminCookie}`, origin: 'http://localhost:80' },
      payload: {
        connectionId: 'cb',
        sql: `UPSERT INTO ${KS}.\`orders\` (KEY, VALUE) VALUES ('o3', {"total": 5}); SELECT o.total FROM ${KS}.\`orders\` AS o USE KEYS 'o3'`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toMatch(/"total":5/);
    expect(orders().get('o3')).toEqual({ total: 5 });
  });
});
