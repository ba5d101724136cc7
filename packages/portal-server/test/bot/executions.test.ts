// The bot execution API against managed SQLite datasources through the whole portal: the state table for
// bot requests, rules 1–8 of "Bot execution API" and every 4xx, masking and bounds of results, approvals
// from the session route, expiry, and that held or rejected requests leave the data unchanged.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatasources } from './fixtures.js';
import { type BotHarness, botPortal, sqliteRows } from './harness.js';

let h: BotHarness;
let plain: string; // a token with no special powers
let trusted: string; // trustedApprovals
const db = (id: string) => join(h.dataDir, `${id}.db`);

beforeAll(async () => {
  h = await botPortal({
    datasources: sqliteDatasources,
    env: {
      CALLBACK_SIGNING_SECRET: 'cb-secret',
      CALLBACK_ALLOWED_HOSTS: 'hooks.example.com, *.bots.example.org',
    },
  });
  plain = (await h.token({ name: 'plain-bot' })).secret;
  trusted = (await h.token({ name: 'trusted-bot', trustedApprovals: true })).secret;
});
afterAll(async () => {
  await h?.close();
});

const body = (extra: Record<string, unknown> = {}) => ({
  datasourceId: 'open',
  statement: 'SELECT id, name FROM users WHERE id <= 3 ORDER BY id',
  onBehalfOf: 'alice@example.com',
  ...extra,
});

async function expectError(res: { statusCode: number; json(): any }, status: number, code?: string) {
  expect(res.statusCode).toBe(status);
  const j = res.json();
  expect(typeof j.error).toBe('string');
  if (code) expect(j.code).toBe(code);
}

describe('authentication', () => {
  it('needs a live service token (401 without, with a wrong or a revoked one)', async () => {
    const none = await h.server.app.inject({ method: 'POST', url: '/api/v1/executions', payload: body() });
    await expectError(none, 401, 'UNAUTHORIZED');
    expect(none.headers['www-authenticate']).toContain('Bearer');
    await expectError(await h.submit('pst_not-a-real-token', body()), 401);
    const { secret, token } = await h.token({ name: 'short-lived' });
    expect((await h.submit(secret, body())).statusCode).toBe(200);
    const del = await h.server.app.inject({
      method: 'DELETE',
      url: `/api/admin/service-tokens/${token.id}`,
      headers: { cookie: `auth-token=${h.adminCookie}`, origin: 'http://localhost:80' },
    });
    expect(del.statusCode).toBe(200);
    await expectError(await h.submit(secret, body()), 401);
  });
});

describe('a read no gate holds', () => {
  it('runs now: 200 {execution} with the outcome, and GET answers the same record', async () => {
    const res = await h.submit(plain, body());
    expect(res.statusCode).toBe(200);
    const rec = res.json().execution;
    expect(rec).toMatchObject({ status: 'approved', datasourceId: 'open', onBehalfOf: 'alice@example.com' });
    expect(rec.execution).toMatchObject({
      status: 'done',
      rowCount: 3,
      fields: ['id', 'name'],
      rows: [
        { id: 1, name: 'user1' },
        { id: 2, name: 'user2' },
        { id: 3, name: 'user3' },
      ],
    });
    expect(typeof rec.execution.durationMs).toBe('number');
    const again = await h.read(plain, rec.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(rec);
    const audit = await h.auditOf('query_execution');
    expect(audit.some((e) => e.requestId === rec.id && e.actor === 'token:plain-bot' && e.onBehalfOf)).toBe(
      true,
    );
  });

  it('a failing statement is execution.status failed with a closed error word', async () => {
    const res = await h.submit(plain, body({ statement: 'SELECT no_such_column FROM users' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().execution.execution).toMatchObject({
      status: 'failed',
      error: 'query_error',
      rows: [],
    });
  });
});

describe('rule 1: scripts', () => {
  it('runs every statement in order and reports executedCount and statements', async () => {
    const res = await h.submit(plain, body({ statement: 'SELECT 1 AS a; SELECT 2 AS b; SELECT 3 AS c' }));
    expect(res.statusCode).toBe(200);
    const rec = res.json().execution;
    expect(rec.executedCount).toBe(3);
    expect(rec.statements.map((s: any) => [s.index, s.status, s.rowCount])).toEqual([
      [0, 'done', 1],
      [1, 'done', 1],
      [2, 'done', 1],
    ]);
    expect(rec.execution).toMatchObject({ status: 'done', fields: ['c'], rows: [{ c: 3 }] });
  });

  it('stops at the first error; what ran stays', async () => {
    const res = await h.submit(
      plain,
      body({
        statement:
          "INSERT INTO users (id, name, email) VALUES (9001, 'n', 'e'); SELECT nope FROM users; SELECT 1",
      }),
    );
    expect(res.statusCode).toBe(200);
    const rec = res.json().execution;
    expect(rec.executedCount).toBe(1);
    expect(rec.statements).toHaveLength(2);
    expect(rec.statements[1]).toMatchObject({ index: 1, status: 'failed', error: 'query_error' });
    expect(rec.execution.status).toBe('failed');
    expect(sqliteRows(db('open'), 'SELECT id FROM users WHERE id = 9001')).toHaveLength(1);
  });

  it('SELECT 1; DELETE … is a write: held on an approval datasource, refused on a read-only one', async () => {
    const held = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: 'SELECT 1; DELETE FROM users' }),
    );
    expect(held.statusCode).toBe(202);
    expect(held.json().execution).toMatchObject({ status: 'pending', guardrail: 'delete_without_where' });
    const requested = await h.auditOf('approval_requested');
    expect(requested.some((e) => e.requestId === held.json().execution.id && e.hold === 'guardrail')).toBe(
      true,
    );
    const refused = await h.submit(
      plain,
      body({ datasourceId: 'ro', statement: 'SELECT 1; DELETE FROM users' }),
    );
    await expectError(refused, 403, 'READ_ONLY');
    expect(sqliteRows(db('app'), 'SELECT count(*) AS n FROM users')).toEqual([{ n: 300 }]);
    expect(sqliteRows(db('ro'), 'SELECT count(*) AS n FROM users')).toEqual([{ n: 300 }]);
  });

  it('transaction control is 400', async () => {
    for (const statement of ['BEGIN', 'SELECT 1; COMMIT', 'ROLLBACK', 'SAVEPOINT s1']) {
      await expectError(await h.submit(plain, body({ statement })), 400, 'TRANSACTION_CONTROL');
    }
  });

  it('a statement over 32000 characters is 413; an empty one 400', async () => {
    const long = `SELECT 1 /*${'x'.repeat(32_000)}*/`;
    await expectError(await h.submit(plain, body({ statement: long })), 413);
    await expectError(await h.submit(plain, body({ statement: '   ' })), 400);
  });

  it('every gate reads every statement: ticket, freeze window and object rules', async () => {
    const write = 'SELECT 1; UPDATE users SET name = name WHERE id = 1';
    await expectError(
      await h.submit(plain, body({ datasourceId: 'ticketed', statement: write })),
      403,
      'TICKET_REQUIRED',
    );
    const withTicket = await h.submit(
      plain,
      body({ datasourceId: 'ticketed', statement: write, ticket: ' OPS-1 ' }),
    );
    expect(withTicket.statusCode).toBe(200);
    await expectError(
      await h.submit(plain, body({ datasourceId: 'frozen', statement: write })),
      403,
      'FREEZE_WINDOW',
    );
    await expectError(
      await h.submit(plain, body({ datasourceId: 'hidden', statement: 'SELECT 1; SELECT v FROM secrets' })),
      403,
      'OBJECT_FORBIDDEN',
    );
    const denied = await h.auditOf('object_forbidden');
    expect(denied.some((e) => e.actor === 'token:plain-bot' && e.connection === 'hidden')).toBe(true);
    const perm = await h.auditOf('permission_denied');
    expect(perm.some((e) => e.connection === 'ticketed' && e.code === 'TICKET_REQUIRED')).toBe(true);
  });
});

describe('rule 2: onBehalfOf', () => {
  it('is required', async () => {
    await expectError(await h.submit(plain, body({ onBehalfOf: undefined })), 400);
    await expectError(await h.submit(plain, body({ onBehalfOf: '  ' })), 400);
    await expectError(await h.submit(plain, body({ onBehalfOf: 42 })), 400);
  });

  it('the person it names cannot approve the request', async () => {
    const res = await h.submit(
      plain,
      body({
        datasourceId: 'app',
        statement: "UPDATE users SET name = 'x' WHERE id = 5",
        onBehalfOf: 'ADMIN@example.test',
      }),
    );
    expect(res.statusCode).toBe(202);
    const approvalId = res.json().execution.approvalId;
    const decision = await h.decide(approvalId, 'approve', 'admin');
    expect(decision.statusCode).toBe(403);
    expect((await h.read(plain, res.json().execution.id)).json().status).toBe('pending');
  });
});

describe('rule 3: review holds', () => {
  it('a review reason makes even a read wait (202 pending), trimmed', async () => {
    const res = await h.submit(plain, body({ review: { reason: '  please look  ' } }));
    expect(res.statusCode).toBe(202);
    const rec = res.json().execution;
    expect(rec).toMatchObject({ status: 'pending', review: { reason: 'please look' } });
    expect(rec.execution).toBeUndefined();
  });

  it('a review without a reason, or with one over 500 characters, is 400', async () => {
    await expectError(await h.submit(plain, body({ review: {} })), 400);
    await expectError(await h.submit(plain, body({ review: { reason: '   ' } })), 400);
    await expectError(await h.submit(plain, body({ review: { reason: 'r'.repeat(501) } })), 400);
    await expectError(await h.submit(plain, body({ review: 'why' })), 400);
    expect((await h.submit(plain, body({ review: { reason: 'r'.repeat(500) } }))).statusCode).toBe(202);
  });

  it('a token created with requireApproval always waits', async () => {
    const { secret } = await h.token({ name: 'careful-bot', requireApproval: true });
    const res = await h.submit(secret, body());
    expect(res.statusCode).toBe(202);
    expect(res.json().execution.status).toBe('pending');
  });
});

describe('rule 4: trusted approvedBy', () => {
  const reviewers = [{ reviewer: 'carol@example.com', at: '2030-01-01T10:00:00Z' }];
  const write = { datasourceId: 'app', statement: "UPDATE users SET name = 'trusted' WHERE id = 7" };

  it('lifts write approval: 202 approved with jobId, and the worker runs it', async () => {
    const res = await h.submit(trusted, body({ ...write, approvedBy: reviewers }));
    expect(res.statusCode).toBe(202);
    const rec = res.json().execution;
    // `at` is normalised to a UTC instant.
    expect(rec).toMatchObject({
      status: 'approved',
      approvedBy: [{ reviewer: 'carol@example.com', at: '2030-01-01T10:00:00.000Z' }],
    });
    expect(typeof rec.jobId).toBe('string');
    expect(rec.execution).toBeUndefined();
    expect(sqliteRows(db('app'), 'SELECT name FROM users WHERE id = 7')).toEqual([{ name: 'user7' }]);
    await h.drain();
    const done = (await h.read(trusted, rec.id)).json();
    expect(done.execution).toMatchObject({ status: 'done', rowCount: 1 });
    expect(sqliteRows(db('app'), 'SELECT name FROM users WHERE id = 7')).toEqual([{ name: 'trusted' }]);
    const audit = await h.auditOf('query_execution');
    expect(audit.find((e) => e.requestId === rec.id)?.approved_by).toEqual(['carol@example.com']);
  });

  it('does not lift a guardrail, a review hold or a requireApproval token', async () => {
    const guarded = await h.submit(
      trusted,
      body({ datasourceId: 'app', statement: 'DELETE FROM users WHERE id = 8', approvedBy: reviewers }),
    );
    expect(guarded.statusCode).toBe(202);
    expect(guarded.json().execution).toMatchObject({ status: 'pending', guardrail: 'delete' });
    const reviewed = await h.submit(
      trusted,
      body({ ...write, approvedBy: reviewers, review: { reason: 'check' } }),
    );
    expect(reviewed.json().execution.status).toBe('pending');
    const { secret } = await h.token({
      name: 'trusted-careful',
      trustedApprovals: true,
      requireApproval: true,
    });
    const careful = await h.submit(secret, body({ ...write, approvedBy: reviewers }));
    expect(careful.json().execution.status).toBe('pending');
    await h.drain();
    expect(sqliteRows(db('app'), 'SELECT count(*) AS n FROM users WHERE id = 8')).toEqual([{ n: 1 }]);
  });

  it('is refused (400) from an untrusted token and for malformed lists', async () => {
    const cases: unknown[] = [
      [],
      Array.from({ length: 11 }, (_, i) => ({ reviewer: `r${i}`, at: '2030-01-01T00:00:00Z' })),
      [{ at: '2030-01-01T00:00:00Z' }],
      [{ reviewer: '  ', at: '2030-01-01T00:00:00Z' }],
      [{ reviewer: 'dave', at: 'yesterday' }],
      [{ reviewer: 'dave', at: '2030-13-45T99:00:00Z' }],
      [{ reviewer: 'Alice@Example.com', at: '2030-01-01T00:00:00Z' }],
      'carol',
    ];
    await expectError(await h.submit(plain, body({ ...write, approvedBy: reviewers })), 400);
    for (const approvedBy of cases) {
      await expectError(await h.submit(trusted, body({ ...write, approvedBy })), 400);
    }
  });

  it('trims a reviewer to 200 characters and accepts ten entries', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({
      reviewer: `${'r'.repeat(250)}${i}`,
      at: '2030-01-01',
    }));
    const res = await h.submit(trusted, body({ approvedBy: ten }));
    expect(res.statusCode).toBe(200);
    const marks = res.json().execution.approvedBy;
    expect(marks).toHaveLength(10);
    expect(marks[0].reviewer).toHaveLength(200);
    expect(marks[0].at).toBe('2030-01-01T00:00:00.000Z');
  });

  it('needs as many distinct reviewers as the datasource requires', async () => {
    const one = await h.submit(
      trusted,
      body({
        datasourceId: 'two',
        statement: "UPDATE users SET name = 'x' WHERE id = 1",
        approvedBy: reviewers,
      }),
    );
    expect(one.json().execution.status).toBe('pending');
    const both = await h.submit(
      trusted,
      body({
        datasourceId: 'two',
        statement: "UPDATE users SET name = 'x' WHERE id = 1",
        approvedBy: [...reviewers, { reviewer: 'dan@example.com', at: '2030-01-01T10:05:00+02:00' }],
      }),
    );
    expect(both.json().execution.status).toBe('approved');
  });
});

describe('rule 5: callback URL', () => {
  it('must be HTTPS on a host in CALLBACK_ALLOWED_HOSTS', async () => {
    for (const url of [
      'http://hooks.example.com/x',
      'https://evil.example.net/x',
      'https://hooks.example.com.evil.net/x',
      'https://user:pw@hooks.example.com/x',
      'not a url',
    ]) {
      await expectError(await h.submit(plain, body({ callback: { url } })), 400);
    }
    await expectError(await h.submit(plain, body({ callback: 'https://hooks.example.com/x' })), 400);
    expect(
      (await h.submit(plain, body({ callback: { url: 'https://hooks.example.com/x' } }))).statusCode,
    ).toBe(200);
    expect(
      (await h.submit(plain, body({ callback: { url: 'https://a.bots.example.org/x' } }))).statusCode,
    ).toBe(200);
  });
});

describe('rule 6: waiting for a reviewer, then for a worker', () => {
  it('pending → approved with jobId → executed; the data changes only after the run', async () => {
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: "UPDATE users SET name = 'ok' WHERE id = 11" }),
    );
    expect(res.statusCode).toBe(202);
    const rec = res.json().execution;
    expect(rec).toMatchObject({ status: 'pending' });
    expect(rec.jobId).toBeUndefined();
    await h.drain();
    expect(sqliteRows(db('app'), 'SELECT name FROM users WHERE id = 11')).toEqual([{ name: 'user11' }]);
    const approved = await h.decide(rec.approvalId, 'approve', 'admin');
    expect(approved.statusCode).toBe(200);
    const waiting = (await h.read(plain, rec.id)).json();
    expect(waiting).toMatchObject({ status: 'approved' });
    expect(typeof waiting.jobId).toBe('string');
    expect(waiting.execution).toBeUndefined();
    await h.drain();
    const done = (await h.read(plain, rec.id)).json();
    expect(done.execution).toMatchObject({ status: 'done', rowCount: 1 });
    expect(sqliteRows(db('app'), 'SELECT name FROM users WHERE id = 11')).toEqual([{ name: 'ok' }]);
    // A second decision on the same request is a conflict.
    expect((await h.decide(rec.approvalId, 'reject', 'admin')).statusCode).toBe(409);
  });

  it('a bot approval window belongs to the bot route: a signed-in person named like onBehalfOf cannot use it', async () => {
    const statement = "UPDATE users SET name = 'window' WHERE id = 13";
    // The bot asks on behalf of the signed-in user's own name.
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement, onBehalfOf: 'user@example.test' }),
    );
    expect(res.statusCode).toBe(202);
    const rec = res.json().execution;
    expect((await h.decide(rec.approvalId, 'approve', 'admin')).statusCode).toBe(200);
    // The window is open now (the worker has not run the job yet): the person sends the same text.
    const session = await h.server.app.inject({
      method: 'POST',
      url: '/api/db/query',
      headers: { cookie: `auth-token=${h.userCookie}`, origin: 'http://localhost:80' },
      payload: { connection: { id: 'app' }, sql: statement },
    });
    expect(session.statusCode, session.body).toBe(403);
    expect(session.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', approval: { route: 'query' } });
    expect(session.json().approval.id).not.toBe(rec.approvalId);
    expect(sqliteRows(db('app'), 'SELECT name FROM users WHERE id = 13')).toEqual([{ name: 'user13' }]);
    // The bot's own request still runs once, through the worker.
    await h.drain();
    expect((await h.read(plain, rec.id)).json().execution).toMatchObject({ status: 'done', rowCount: 1 });
    expect(sqliteRows(db('app'), 'SELECT name FROM users WHERE id = 13')).toEqual([{ name: 'window' }]);
  });

  it('a rejection ends it: status rejected, nothing ran', async () => {
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: 'DELETE FROM users WHERE id = 12' }),
    );
    const rec = res.json().execution;
    expect((await h.decide(rec.approvalId, 'reject', 'admin')).statusCode).toBe(200);
    await h.drain();
    const after = (await h.read(plain, rec.id)).json();
    expect(after).toMatchObject({ status: 'rejected', rejection: 'rejected' });
    expect(after.execution).toBeUndefined();
    expect(sqliteRows(db('app'), 'SELECT count(*) AS n FROM users WHERE id = 12')).toEqual([{ n: 1 }]);
  });

  it('a request nobody decides within APPROVAL_TTL_HOURS ends rejected (expired)', async () => {
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: 'DELETE FROM users WHERE id = 13' }),
    );
    const rec = res.json().execution;
    const old = new Date(Date.now() - 48 * 3_600_000).toISOString();
    await h.server
      .store!.db.updateTable('approvals')
      .set({ requested_at: old })
      .where('id', '=', rec.approvalId)
      .execute();
    const after = (await h.read(plain, rec.id)).json();
    expect(after).toMatchObject({ status: 'rejected', rejection: 'expired' });
    expect(sqliteRows(db('app'), 'SELECT count(*) AS n FROM users WHERE id = 13')).toEqual([{ n: 1 }]);
  });

  it('a user who is not a reviewer cannot decide (403)', async () => {
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: 'DELETE FROM users WHERE id = 14' }),
    );
    expect((await h.decide(res.json().execution.approvalId, 'approve', 'user')).statusCode).toBe(403);
  });
});

describe('rule 7: results are masked and bounded', () => {
  it('masks by the datasource rules', async () => {
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: 'SELECT id, email AS contact FROM users WHERE id = 1' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().execution.execution.rows).toEqual([{ id: 1, contact: 'p***@example.com' }]);
    const star = await h.submit(plain, body({ statement: 'SELECT * FROM users WHERE id = 2' }));
    expect(star.json().execution.execution.rows).toEqual([{ id: 2, name: 'user2', email: '****' }]);
  });

  it('refuses a masked column that would steer the result (403 MASKED_COLUMN_PREDICATE, audited)', async () => {
    for (const statement of [
      "SELECT id FROM users WHERE email LIKE 'person1%'",
      'SELECT id FROM users ORDER BY email',
    ]) {
      const res = await h.submit(plain, body({ datasourceId: 'app', statement }));
      await expectError(res, 403, 'MASKED_COLUMN_PREDICATE');
      expect(res.body).not.toContain('person1');
    }
    const audit = await h.auditOf('permission_denied');
    expect(audit.some((e) => e.code === 'MASKED_COLUMN_PREDICATE' && e.actor === 'token:plain-bot')).toBe(
      true,
    );
  });

  it('keeps at most 200 rows', async () => {
    const res = await h.submit(plain, body({ statement: 'SELECT id FROM users ORDER BY id' }));
    const e = res.json().execution.execution;
    expect(e.rows).toHaveLength(200);
    expect(e.truncated).toBe(true);
  });

  it('keeps at most 256 KB of rows', async () => {
    const res = await h.submit(plain, body({ statement: 'SELECT id, payload FROM big ORDER BY id' }));
    const e = res.json().execution.execution;
    expect(e.truncated).toBe(true);
    expect(e.rows.length).toBeGreaterThan(40);
    expect(e.rows.length).toBeLessThan(100);
    expect(Buffer.byteLength(JSON.stringify(e.rows))).toBeLessThanOrEqual(256 * 1024);
  });

  it('masks the rows of a script statement by statement', async () => {
    const res = await h.submit(
      plain,
      body({ datasourceId: 'app', statement: 'SELECT 1 AS x; SELECT email FROM users WHERE id = 3' }),
    );
    expect(res.json().execution.execution.rows).toEqual([{ email: 'p***@example.com' }]);
  });
});

describe('rule 8: 403, 404, 429', () => {
  it('403 when the token may not use the datasource', async () => {
    const { secret } = await h.token({ name: 'narrow-bot', datasources: ['open'] });
    expect((await h.submit(secret, body())).statusCode).toBe(200);
    await expectError(await h.submit(secret, body({ datasourceId: 'app' })), 403, 'FORBIDDEN');
  });

  it('404 for an unknown datasource, or one its role does not see', async () => {
    await expectError(await h.submit(plain, body({ datasourceId: 'nope' })), 404);
    await expectError(await h.submit(plain, body({ datasourceId: 'adminonly' })), 404);
    const { secret } = await h.token({ name: 'admin-bot', role: 'admin' });
    expect((await h.submit(secret, body({ datasourceId: 'adminonly' }))).statusCode).toBe(200);
  });

  it('403 for a write on a read-only datasource, a missing ticket, a freeze window, an object rule', async () => {
    await expectError(
      await h.submit(plain, body({ datasourceId: 'ro', statement: "INSERT INTO secrets VALUES (2, 'x')" })),
      403,
    );
    await expectError(
      await h.submit(plain, body({ datasourceId: 'ticketed', statement: 'DELETE FROM secrets' })),
      403,
    );
    await expectError(
      await h.submit(plain, body({ datasourceId: 'frozen', statement: 'DELETE FROM secrets' })),
      403,
    );
    await expectError(
      await h.submit(plain, body({ datasourceId: 'hidden', statement: 'SELECT * FROM main.secrets' })),
      403,
    );
    for (const id of ['ro', 'ticketed', 'frozen', 'hidden']) {
      expect(sqliteRows(db(id), 'SELECT count(*) AS n FROM secrets')).toEqual([{ n: 1 }]);
    }
  });

  it('429 CONCURRENCY_LIMIT when the datasource runs its maximum', async () => {
    const release = h.server.governance.concurrency.acquire('capped', 1);
    try {
      await expectError(await h.submit(plain, body({ datasourceId: 'capped' })), 429, 'CONCURRENCY_LIMIT');
    } finally {
      release();
    }
    expect((await h.submit(plain, body({ datasourceId: 'capped' }))).statusCode).toBe(200);
  });

  it("GET of another token's request, or an unknown id, is 404", async () => {
    const mine = (await h.submit(plain, body())).json().execution.id;
    const { secret } = await h.token({ name: 'other-bot' });
    await expectError(await h.read(secret, mine), 404);
    await expectError(await h.read(plain, '00000000-0000-0000-0000-000000000000'), 404);
  });

  it('429 RATE_LIMITED beyond the per-token budget, counted under the token name', async () => {
    const { secret } = await h.token({ name: 'chatty-bot' });
    const limiter = h.server.app.portalAuth.limits.serviceToken;
    for (let i = 0; i < limiter.max; i++) limiter.take('token:chatty-bot');
    const res = await h.submit(secret, body());
    await expectError(res, 429, 'RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another token has its own budget.
    expect((await h.submit(plain, body())).statusCode).toBe(200);
  });

  it('400 for a malformed body', async () => {
    await expectError(await h.submit(plain, { statement: 'SELECT 1', onBehalfOf: 'a' }), 400);
    await expectError(await h.submit(plain, body({ statement: 7 })), 400);
    await expectError(await h.submit(plain, body({ reply: { channel: '' } })), 400);
    await expectError(await h.submit(plain, body({ reply: 'C1' })), 400);
  });
});
