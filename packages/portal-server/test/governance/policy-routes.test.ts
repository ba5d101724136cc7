// Policy on the session execution routes against a real PostgreSQL: read-only datasources (also refused by
// the engine), tickets, freeze windows, object rules (403 audited, administrators not held, hidden objects
// left out of the object surface), write approval and guardrail holds with the approval window, user
// connections in production, the concurrency cap, export rules, and 503 for a hold without storage.
import { createPostgresDatabase } from '@app/kit/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ManagedDatasource } from '../../src/datasources/types.js';
import { declared } from '../datasources/declare.js';
import { ADMIN, ALICE, BOB, descriptorFromUrl } from '../query/harness.js';
import { type GovernedHarness, governed } from './policy-harness.js';

type Who = { username: string; role: 'admin' | 'user' };

let h: GovernedHarness;
let url: string;
let conn: ReturnType<typeof descriptorFromUrl>;

async function sql(text: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}

const ds = (id: string, policy: Record<string, unknown>): ManagedDatasource => declared(id, conn, policy);

beforeAll(async () => {
  url = await createPostgresDatabase(inject('services').postgresUrl);
  await sql('CREATE TABLE items (id int PRIMARY KEY, name text)');
  await sql("INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 5) g");
  await sql('CREATE TABLE log (at timestamptz DEFAULT now())');
  await sql('CREATE SCHEMA payroll');
  await sql('CREATE TABLE payroll.salaries (id int, amount int)');
  // A user function that writes: the classifier does not assume user functions write, the engine stops it.
  await sql(
    "CREATE FUNCTION sneaky() RETURNS int LANGUAGE sql AS 'INSERT INTO log DEFAULT VALUES RETURNING 1'",
  );
  conn = descriptorFromUrl(url, 'postgres');
  h = await governed([
    ds('ro', { readOnly: true }),
    ds('ticketed', { requireTicket: true, guardrails: false }),
    ds('frozen', {
      freezeWindows: [{ from: '2029-12-31T00:00:00Z', to: '2030-01-02T00:00:00Z', reason: 'audit' }],
    }),
    ds('rules', { objectRules: { hidden: ['payroll.*'], defaultSchema: 'public' }, guardrails: false }),
    ds('approval', { writeApproval: true, approvalsRequired: 1 }),
    ds('guarded', {}),
    ds('open', { guardrails: false }),
    ds('capped', { maxConcurrent: 1, guardrails: false }),
    ds('exports', { exportRoles: ['admin', 'carol'] }),
  ]);
});
afterAll(() => h?.close());

const q = (id: string, text: string, user: Who = ALICE, extra: Record<string, unknown> = {}) =>
  h.post('/api/db/query', { connection: { id, type: 'postgres' }, sql: text, ...extra }, user);
const script = (id: string, text: string, user: Who = ALICE, extra: Record<string, unknown> = {}) =>
  h.post('/api/db/multi-query', { connection: { id, type: 'postgres' }, sql: text, ...extra }, user);
const count = async (table: string) => Number((await sql(`SELECT count(*) AS n FROM ${table}`))[0].n);

describe('read-only datasources', () => {
  it('refuse writes on every route (403 READ_ONLY, audited permission_denied) and run reads', async () => {
    const del = await q('ro', 'DELETE FROM items WHERE id = 1');
    expect(del.statusCode).toBe(403);
    expect(del.json()).toMatchObject({ code: 'READ_ONLY', statusCode: 403 });
    expect(h.events.at(-1)).toMatchObject({
      type: 'permission_denied',
      actor: 'alice',
      connection: 'ro',
      result: 'failure',
    });
    expect((await script('ro', 'SELECT 1; UPDATE items SET name = 1 WHERE id = 2')).statusCode).toBe(403);
    const begin = await h.post('/api/db/transaction', { connection: { id: 'ro' }, action: 'begin' });
    const txId = begin.json().transactionId;
    const tx = await h.post('/api/db/transaction', {
      connection: { id: 'ro' },
      action: 'query',
      transactionId: txId,
      sql: 'INSERT INTO items VALUES (9, $$x$$)',
    });
    expect(tx.statusCode).toBe(403);
    const read = await h.post('/api/db/transaction', {
      action: 'query',
      transactionId: txId,
      sql: 'SELECT count(*)::int AS n FROM items',
    });
    expect(read.json().rows).toEqual([{ n: 5 }]);
    await h.post('/api/db/transaction', { action: 'rollback', transactionId: txId });
    expect((await q('ro', 'SELECT name FROM items WHERE id = 1')).json().rows).toEqual([{ name: 'item 1' }]);
    expect(await count('items')).toBe(5);
  });

  it('refuse a user function the allowlist does not know; one with no gate at all lets it run', async () => {
    // The engine's own refusal of a write that slips past the classifier is proven in engine-read-only.test.ts.
    const before = await count('log');
    for (const route of [q, script]) {
      const r = await route('ro', 'SELECT sneaky()');
      expect(r.json()).toMatchObject({ code: 'READ_ONLY' });
    }
    // A datasource that gates writes holds it: the classifier cannot verify what the function does.
    expect((await q('approval', 'SELECT sneaky()')).json()).toMatchObject({ code: 'APPROVAL_REQUIRED' });
    const begin = await h.post('/api/db/transaction', { connection: { id: 'ro' }, action: 'begin' });
    const inTx = await h.post('/api/db/transaction', {
      action: 'query',
      transactionId: begin.json().transactionId,
      sql: 'SELECT sneaky()',
    });
    expect(inTx.json()).toMatchObject({ code: 'READ_ONLY' });
    await h.post('/api/db/transaction', { action: 'rollback', transactionId: begin.json().transactionId });
    expect(await count('log')).toBe(before);
    expect((await q('open', 'SELECT sneaky() AS n')).json().rows).toEqual([{ n: 1 }]);
    expect(await count('log')).toBe(before + 1);
  });
});

describe('tickets, freeze windows, object rules', () => {
  it('requires a ticket for writes and writes it to the audit line', async () => {
    expect((await q('ticketed', "UPDATE items SET name = 'x' WHERE id = 5")).json()).toMatchObject({
      code: 'TICKET_REQUIRED',
    });
    const ok = await q('ticketed', "UPDATE items SET name = 'item 5' WHERE id = 5", ALICE, {
      ticket: '  OPS-42 ',
    });
    expect(ok.statusCode).toBe(200);
    expect(h.events.at(-1)).toMatchObject({ type: 'query_execution', ticket: 'OPS-42', result: 'success' });
    expect((await q('ticketed', 'SELECT 1')).statusCode).toBe(200);
  });

  it('refuses writes inside a freeze window with its reason', async () => {
    const r = await q('frozen', 'INSERT INTO log DEFAULT VALUES');
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ code: 'FREEZE_WINDOW' });
    expect(r.json().error).toMatch(/audit/);
    expect((await q('frozen', 'SELECT 1')).statusCode).toBe(200);
  });

  it('object rules: 403 audited object_forbidden, administrators not held, the surface hides them', async () => {
    const r = await q('rules', 'SELECT * FROM payroll.salaries');
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('OBJECT_FORBIDDEN');
    expect(r.json().error).not.toMatch(/salaries/);
    expect(h.events.at(-1)).toMatchObject({
      type: 'object_forbidden',
      connection: 'rules',
      object: 'payroll.salaries',
    });
    expect((await script('rules', 'SELECT 1; SELECT * FROM public.items')).statusCode).toBe(200);
    expect((await script('rules', 'SELECT 1; select * from PAYROLL.SALARIES')).statusCode).toBe(403);
    expect((await q('rules', 'SELECT * FROM items')).statusCode).toBe(200); // default schema public
    expect((await q('rules', 'CALL nothing()')).json().code).toBe('OBJECT_FORBIDDEN');
    expect((await q('rules', 'SELECT * FROM payroll.salaries', ADMIN)).statusCode).toBe(200);

    const list = await h.post('/api/db/objects/list', { connection: { id: 'rules' } });
    const names = list.json().objects.map((o: { path: string[] }) => o.path.join('.'));
    expect(names).toContain('public.items');
    expect(names).not.toContain('payroll.salaries');
    const adminList = await h.post('/api/db/objects/list', { connection: { id: 'rules' } }, ADMIN);
    expect(adminList.json().objects.map((o: { path: string[] }) => o.path.join('.'))).toContain(
      'payroll.salaries',
    );
    const describe = await h.post('/api/db/objects/describe', {
      connection: { id: 'rules' },
      path: ['payroll', 'salaries'],
    });
    expect(describe.statusCode).toBe(404);
    const counts = await h.post('/api/db/objects/counts', { connection: { id: 'rules' } });
    expect(counts.json().counts.some((c: { path: string[] }) => c.path[0] === 'payroll')).toBe(false);
  });
});

describe('approvals on the session routes', () => {
  it('holds a write for approval, runs exactly that text by its requester inside the window', async () => {
    const text = "INSERT INTO items VALUES (10, 'ten')";
    const held = await q('approval', text);
    expect(held.statusCode).toBe(403);
    const body = held.json();
    expect(body).toMatchObject({
      code: 'APPROVAL_REQUIRED',
      statusCode: 403,
      approval: {
        status: 'pending',
        requester: 'alice',
        statement: text,
        datasourceId: 'approval',
        route: 'query',
      },
    });
    expect(body.guardrail).toBeUndefined();
    // A retry answers the same pending request.
    expect((await q('approval', text)).json().approval.id).toBe(body.approval.id);
    expect(await count('items')).toBe(5);
    await expect(
      h.approvals.decide({ id: body.approval.id, reviewer: ALICE, decision: 'approve' }),
    ).rejects.toMatchObject({
      statusCode: 403,
    });
    await h.approvals.decide({
      id: body.approval.id,
      reviewer: ADMIN,
      decision: 'approve',
      windowMinutes: 10,
    });
    // Another requester, or a changed text, needs its own approval.
    expect((await q('approval', text, BOB)).json().code).toBe('APPROVAL_REQUIRED');
    expect((await q('approval', `${text} `)).json().code).toBe('APPROVAL_REQUIRED');
    const ran = await q('approval', text);
    expect(ran.statusCode).toBe(200);
    expect(h.events.at(-1)).toMatchObject({
      type: 'query_execution',
      result: 'success',
      approved_by: ['root'],
      approvalId: body.approval.id,
    });
    expect(await count('items')).toBe(6);
    // Reads need nothing; after the window the text is held again.
    expect((await q('approval', 'SELECT 1')).statusCode).toBe(200);
    h.clock.advanceMinutes(11);
    expect((await q('approval', text)).json().code).toBe('APPROVAL_REQUIRED');
    await sql('DELETE FROM items WHERE id = 10');
  });

  it('guardrails hold on their own, also for administrators and on scripts before anything runs', async () => {
    const r = await q('guarded', 'DELETE FROM items WHERE id = 3', ADMIN);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({
      code: 'APPROVAL_REQUIRED',
      guardrail: 'delete',
      approval: { guardrail: 'delete' },
    });
    const s = await script('guarded', "INSERT INTO log DEFAULT VALUES; UPDATE items SET name = 'z'");
    expect(s.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'update_without_where' });
    expect(await count('items')).toBe(5);
    // An ordinary write passes a datasource that only has guardrails.
    expect((await q('guarded', 'INSERT INTO log DEFAULT VALUES')).statusCode).toBe(200);
  });

  it('user connections are held by guardrails in production only', async () => {
    const mine = { ...conn, id: 'my-prod', environment: 'production' };
    const r = await h.post('/api/db/query', { connection: mine, sql: 'DELETE FROM log' });
    expect(r.json()).toMatchObject({ code: 'APPROVAL_REQUIRED', guardrail: 'delete_without_where' });
    // Its approvers are administrators; once approved it runs.
    await h.approvals.decide({ id: r.json().approval.id, reviewer: ADMIN, decision: 'approve' });
    expect((await h.post('/api/db/query', { connection: mine, sql: 'DELETE FROM log' })).statusCode).toBe(
      200,
    );
    const dev = { ...conn, id: 'my-dev', environment: 'development' };
    expect((await h.post('/api/db/query', { connection: dev, sql: 'DELETE FROM log' })).statusCode).toBe(200);
  });
});

describe('concurrency and exports', () => {
  it('answers 429 CONCURRENCY_LIMIT when the cap is taken and frees slots after every execution', async () => {
    const release = h.concurrency.acquire('capped', 1);
    const r = await q('capped', 'SELECT 1');
    expect(r.statusCode).toBe(429);
    expect(r.json()).toMatchObject({ code: 'CONCURRENCY_LIMIT', statusCode: 429 });
    expect((await script('capped', 'SELECT 1')).statusCode).toBe(429);
    release();
    expect((await q('capped', 'SELECT 1')).statusCode).toBe(200);
    expect((await q('capped', 'SELECT nonsense')).statusCode).toBe(400);
    expect((await script('capped', 'SELECT 1; SELECT 2')).statusCode).toBe(200);
    const exp = await h.post('/api/db/export', {
      connectionId: 'capped',
      sql: 'SELECT 1 AS a',
      format: 'csv',
    });
    expect(exp.statusCode).toBe(200);
    expect(h.concurrency.inUse('capped')).toBe(0);
  });

  it('checks the export rule first (403 audited export_not_allowed), then lets permitted people export', async () => {
    const refused = await h.post('/api/db/export', {
      connectionId: 'exports',
      sql: 'DELETE FROM items',
      format: 'csv',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'EXPORT_NOT_ALLOWED' });
    expect(h.events.at(-1)).toMatchObject({
      type: 'export_not_allowed',
      actor: 'alice',
      connection: 'exports',
    });
    const carol = { username: 'carol', role: 'user' as const };
    const ok = await h.post(
      '/api/db/export',
      { connectionId: 'exports', sql: 'SELECT id FROM items', format: 'csv' },
      carol,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-export-rows']).toBe('5');
    // No exportRoles: users may export except on production.
    const prod = { ...conn, id: 'my-prod-export', environment: 'production' };
    const p = await h.post('/api/db/export', { connection: prod, sql: 'SELECT 1', format: 'csv' });
    expect(p.statusCode).toBe(403);
  });
});

describe('without server storage', () => {
  it('a held write answers 503 STORAGE_UNAVAILABLE; everything else still works', async () => {
    const bare = await governed([ds('approval', { writeApproval: true })], { storage: false });
    try {
      const r = await bare.post('/api/db/query', {
        connection: { id: 'approval' },
        sql: 'INSERT INTO log DEFAULT VALUES',
      });
      expect(r.statusCode).toBe(503);
      expect(r.json().code).toBe('STORAGE_UNAVAILABLE');
      const read = await bare.post('/api/db/query', { connection: { id: 'approval' }, sql: 'SELECT 1 AS a' });
      expect(read.json().rows).toEqual([{ a: 1 }]);
    } finally {
      await bare.close();
    }
  });
});
