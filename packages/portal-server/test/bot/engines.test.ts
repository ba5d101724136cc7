// The bot API against the real PostgreSQL and MariaDB of the kit harness: reads run at once with masked
// rows, held writes change nothing until a reviewer approves and the worker runs them, rejected guardrail
// holds leave the data as it was, and reads run where the engine itself refuses writes (a function that
// writes behind a SELECT fails in PostgreSQL's read-only transaction).
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type BotHarness, botPortal, datasourceEntry } from './harness.js';

const SETUP = [
  'CREATE TABLE accounts (id INT PRIMARY KEY, owner VARCHAR(100) NOT NULL, email VARCHAR(200) NOT NULL, balance INT NOT NULL)',
  "INSERT INTO accounts VALUES (1, 'ann', 'ann@corp.example', 100), (2, 'ben', 'ben@corp.example', 200), (3, 'cy', 'cy@corp.example', 300)",
];

let pgUrl: string;
let myUrl: string;
let h: BotHarness;
let secret: string;

async function pgQuery(text: string) {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

async function myQuery(text: string) {
  const c = await mysql.createConnection(myUrl);
  try {
    const [rows] = await c.query(text);
    return rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  const services = inject('services');
  pgUrl = await createPostgresDatabase(services.postgresUrl);
  myUrl = await createMariadbDatabase(services.mariadbUrl);
  for (const s of SETUP) {
    await pgQuery(s);
    await myQuery(s);
  }
  await pgQuery('CREATE TABLE counters (n INT NOT NULL)');
  await pgQuery('INSERT INTO counters VALUES (0)');
  await pgQuery(
    'CREATE FUNCTION bump() RETURNS int LANGUAGE sql AS $$ UPDATE counters SET n = n + 1; SELECT n FROM counters $$',
  );
  const policy = '{ writeApproval: true, masking: [{ column: "*.email", rule: partial }] }';
  h = await botPortal({
    datasources: () =>
      datasourceEntry('pgdb', 'postgres', pgUrl, [`policy: ${policy}`]) +
      datasourceEntry('mydb', 'mysql', myUrl, [`policy: ${policy}`]) +
      datasourceEntry('pgro', 'postgres', pgUrl, ['policy: { readOnly: true }']),
  });
  secret = (await h.token({ name: 'engine-bot' })).secret;
});
afterAll(async () => {
  await h?.close();
});

const engines = [
  { id: 'pgdb', query: pgQuery },
  { id: 'mydb', query: myQuery },
] as const;

describe.each(engines)('$id', ({ id, query }) => {
  const submit = (statement: string) =>
    h.submit(secret, { datasourceId: id, statement, onBehalfOf: 'alice@example.com' });

  it('a read runs at once with masked rows', async () => {
    const res = await submit('SELECT id, owner, email FROM accounts ORDER BY id');
    expect(res.statusCode).toBe(200);
    const e = res.json().execution.execution;
    expect(e).toMatchObject({ status: 'done', rowCount: 3, fields: ['id', 'owner', 'email'] });
    expect(e.rows[0]).toEqual({ id: 1, owner: 'ann', email: 'a***@corp.example' });
  });

  it('a held write changes nothing until approved and run by the worker', async () => {
    const res = await submit('UPDATE accounts SET balance = balance + 1 WHERE id = 1');
    expect(res.statusCode).toBe(202);
    const rec = res.json().execution;
    await h.drain();
    expect(await query('SELECT balance FROM accounts WHERE id = 1')).toEqual([{ balance: 100 }]);
    expect((await h.decide(rec.approvalId, 'approve')).statusCode).toBe(200);
    await h.drain();
    expect((await h.read(secret, rec.id)).json().execution).toMatchObject({ status: 'done', rowCount: 1 });
    expect(await query('SELECT balance FROM accounts WHERE id = 1')).toEqual([{ balance: 101 }]);
  });

  it('a guardrail hold that is rejected leaves the data unchanged', async () => {
    const res = await submit('SELECT 1; DELETE FROM accounts');
    expect(res.statusCode).toBe(202);
    const rec = res.json().execution;
    expect(rec.guardrail).toBe('delete_without_where');
    expect((await h.decide(rec.approvalId, 'reject')).statusCode).toBe(200);
    await h.drain();
    expect((await h.read(secret, rec.id)).json().status).toBe('rejected');
    expect(Number((await query('SELECT count(*) AS n FROM accounts'))[0].n)).toBe(3);
  });
});

describe('the database as the last line', () => {
  it('a SELECT calling a function the allowlist does not know is held, and nothing runs', async () => {
    // Engine-side refusal of a write that slips past the classifier: test/governance/engine-read-only.test.ts.
    const res = await h.submit(secret, {
      datasourceId: 'pgdb',
      statement: 'SELECT bump()',
      onBehalfOf: 'a@b.c',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().execution).toMatchObject({ status: 'pending', guardrail: 'unverifiable' });
    expect(await pgQuery('SELECT n FROM counters')).toEqual([{ n: 0 }]);
  });

  it('a write on a read-only datasource is 403 and nothing changes', async () => {
    const res = await h.submit(secret, {
      datasourceId: 'pgro',
      statement: 'SELECT 1; UPDATE accounts SET balance = 0 WHERE id = 2',
      onBehalfOf: 'a@b.c',
    });
    expect(res.statusCode).toBe(403);
    expect(await pgQuery('SELECT balance FROM accounts WHERE id = 2')).toEqual([{ balance: 200 }]);
  });
});
