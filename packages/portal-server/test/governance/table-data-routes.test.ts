// The table browser's routes under the real policy hooks, on SQLite files checked directly: paging, filters
// (a NULL first value does not hide matches), sorts and the count; edits applied as one transaction; a
// concurrent change detected and the whole batch rolled back; a read-only datasource refuses; write approval
// holds the batch, a second person approves, and the same edits then run; masked columns are answered masked
// and cannot be edited; audit lines per statement.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB } from '../query/harness.js';
import type { GovernedHarness } from './policy-harness.js';
import { governedTables, MASKED_EMAIL, read, sqliteFiles } from './table-routes.fixture.js';

const sqlite = sqliteFiles('portal-table-data-');

function seed(name: string): string {
  return sqlite.seed(name, (db) => {
    db.exec(`
      CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, email TEXT);
      CREATE TABLE loose (label TEXT);
      INSERT INTO loose (label) VALUES ('a'), ('b');
    `);
    const insert = db.prepare('INSERT INTO people (id, name, city, email) VALUES (?, ?, ?, ?)');
    // The first row's city is NULL (issue 30 item 6: a NULL first value must not hide matches).
    for (let i = 1; i <= 250; i++)
      insert.run(i, `person ${i}`, i === 1 ? null : i % 5 === 0 ? 'Berlin' : 'Paris', `p${i}@x.org`);
  });
}

describe('/api/db/table/rows and /api/db/table/edits (SQLite, governed)', () => {
  let h: GovernedHarness;
  const files = { open: seed('open'), ro: seed('ro'), held: seed('held') };

  beforeAll(async () => {
    h = await governedTables(files, { open: MASKED_EMAIL });
  });
  afterAll(() => h?.close());

  const rows = (ds: string, body: Record<string, unknown>, user = ALICE) =>
    h.post('/api/db/table/rows', { connectionId: ds, path: ['main', 'people'], ...body }, user);
  const edits = (ds: string, body: Record<string, unknown>, user = ALICE) =>
    h.post('/api/db/table/edits', { connectionId: ds, path: ['main', 'people'], ...body }, user);

  it('pages, filters past a NULL first value, sorts, counts and marks the masked column', async () => {
    const r = await rows('open', {
      filters: [{ column: 'city', op: 'contains', value: 'berl' }],
      sorts: [{ column: 'id', direction: 'desc' }],
      offset: 10,
      limit: 5,
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.total).toBe(50);
    expect(body.rows.map((x: { id: number }) => x.id)).toEqual([200, 195, 190, 185, 180]);
    expect(body.rows[0]).toMatchObject({ city: 'Berlin', email: '****' });
    expect(body.key).toEqual(['id']);
    expect(body.editable).toBe(true);
    expect(body.columns.find((c: { name: string }) => c.name === 'email').masked).toBe(true);
    const nulls = await rows('open', { filters: [{ column: 'city', op: 'is_null' }] });
    expect(nulls.json().rows.map((x: { id: number }) => x.id)).toEqual([1]);
  });

  it('refuses unknown columns (400) and steering by a masked column (403)', async () => {
    const bad = await rows('open', {
      sorts: [{ column: 'id" DESC; DROP TABLE people; --', direction: 'asc' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/Unknown column/);
    const probe = await rows('open', { filters: [{ column: 'email', op: 'starts_with', value: 'p1' }] });
    expect(probe.statusCode).toBe(403);
    expect(probe.json().code).toBe('MASKED_COLUMN_PREDICATE');
    expect(read(files.open, 'select count(*) n from people')).toEqual([{ n: 250 }]);
  });

  it('keys a table without a primary key by rowid', async () => {
    const r = await h.post('/api/db/table/rows', { connectionId: 'open', path: ['main', 'loose'] });
    expect(r.json()).toMatchObject({ rowId: '__rowid', key: [], editable: true });
    const [first] = r.json().rows;
    const e = await h.post('/api/db/table/edits', {
      connectionId: 'open',
      path: ['main', 'loose'],
      changes: [{ op: 'update', original: first, values: { label: 'A' } }],
    });
    expect(e.statusCode).toBe(200);
    expect(read(files.open, 'select label from loose order by rowid')).toEqual([
      { label: 'A' },
      { label: 'b' },
    ]);
  });

  it('previews, then applies updates, inserts and deletes as one batch, audited per statement', async () => {
    const page = (await rows('open', { limit: 3 })).json().rows;
    const changes = [
      { op: 'update', original: page[0], values: { city: 'Berlin', name: "O'Brien" } },
      { op: 'insert', values: { id: 1000, name: 'new person', city: null } },
      { op: 'delete', original: page[2] },
    ];
    const preview = await edits('open', { changes, preview: true });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().applied).toBe(false);
    expect(preview.json().statements[0]).toBe(
      `UPDATE "main"."people" SET "city" = 'Berlin', "name" = 'O''Brien' WHERE "id" = 1 AND "name" = 'person 1' AND "city" IS NULL`,
    );
    expect(read(files.open, 'select name from people where id = 1')).toEqual([{ name: 'person 1' }]);
    const before = h.events.length;
    const applied = await edits('open', { changes });
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({
      applied: true,
      results: [{ rowCount: 1 }, { rowCount: 1 }, { rowCount: 1 }],
    });
    expect(
      read(files.open, 'select id, name, city from people where id in (1, 3, 1000) order by id'),
    ).toEqual([
      { id: 1, name: "O'Brien", city: 'Berlin' },
      { id: 1000, name: 'new person', city: null },
    ]);
    const lines = h.events.slice(before).filter((e) => e.type === 'query_execution');
    expect(lines).toHaveLength(3);
    expect(lines.every((e) => e.result === 'success' && e.route === '/api/db/table/edits')).toBe(true);
  });

  it('refuses to edit a masked column', async () => {
    const page = (await rows('open', { limit: 1 })).json().rows;
    const r = await edits('open', {
      changes: [{ op: 'update', original: page[0], values: { email: 'x@y.z' } }],
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatch(/masked/);
  });

  it('detects a concurrent change, reports it and rolls the whole batch back', async () => {
    const page = (await rows('open', { offset: 10, limit: 2 })).json().rows;
    // Someone else changes the second row after it was read.
    const db = new Database(files.open);
    db.prepare("update people set city = 'Rome' where id = ?").run(page[1].id);
    db.close();
    const r = await edits('open', {
      changes: [
        { op: 'update', original: page[0], values: { name: 'first' } },
        { op: 'update', original: page[1], values: { name: 'second' } },
      ],
    });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: 'ROW_CONFLICT', conflict: { index: 1, change: 1 } });
    // The first update was rolled back, the other person's change stands.
    expect(
      read(
        files.open,
        `select id, name, city from people where id in (${page[0].id}, ${page[1].id}) order by id`,
      ),
    ).toEqual([
      { id: page[0].id, name: page[0].name, city: page[0].city },
      { id: page[1].id, name: page[1].name, city: 'Rome' },
    ]);
    expect(h.events.some((e) => e.type === 'query_execution' && e.errorCode === 'ROW_CONFLICT')).toBe(true);
  });

  it('refuses edits on a read-only datasource (403 READ_ONLY) and says the table is not editable', async () => {
    const page = (await rows('ro', { limit: 1 })).json();
    expect(page).toMatchObject({ editable: false, readOnlyReason: 'the datasource is read-only' });
    const r = await edits('ro', { changes: [{ op: 'delete', original: page.rows[0] }] });
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('READ_ONLY');
    expect(read(files.ro, 'select count(*) n from people')).toEqual([{ n: 250 }]);
  });

  it('holds a batch for approval, and applies the same edits once a second person approves', async () => {
    const page = (await rows('held', { limit: 2 })).json().rows;
    const changes = [
      { op: 'update', original: page[1], values: { city: 'Lisbon' } },
      { op: 'delete', original: page[0] },
    ];
    const held = await edits('held', { changes });
    expect(held.statusCode).toBe(403);
    const approval = held.json().approval;
    expect(held.json().code).toBe('APPROVAL_REQUIRED');
    expect(approval).toMatchObject({ status: 'pending', requester: 'alice', route: 'transaction' });
    // The reviewer sees the statements with their values.
    expect(approval.statement).toContain(`SET "city" = 'Lisbon'`);
    expect(read(files.held, 'select count(*) n from people')).toEqual([{ n: 250 }]);
    // A managed datasource's guardrails hold every DELETE too: the batch's hold names it.
    expect(held.json().guardrail).toBe('delete');
    await expect(
      h.approvals.decide({ id: approval.id, reviewer: ALICE, decision: 'approve' }),
    ).rejects.toMatchObject({
      statusCode: 403,
    });
    await h.approvals.decide({ id: approval.id, reviewer: ADMIN, decision: 'approve' });
    // Someone else sending the same edits is not inside alice's window.
    expect((await edits('held', { changes }, BOB)).json().code).toBe('APPROVAL_REQUIRED');
    const ran = await edits('held', { changes });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(read(files.held, 'select id, city from people where id in (1, 2) order by id')).toEqual([
      { id: 2, city: 'Lisbon' },
    ]);
    const line = h.events.find((e) => e.type === 'query_execution' && e.approvalId === approval.id);
    expect(line?.approved_by).toEqual([ADMIN.username]);
  });

  it('answers 400 for bad bodies and 404 for an unknown table, never 500', async () => {
    expect((await rows('open', { path: ['main', 'nope'] })).statusCode).toBe(404);
    expect((await rows('open', { limit: 100000 })).statusCode).toBe(400);
    expect(
      (await rows('open', { filters: [{ column: 'id', op: 'equals', value: { a: 1 } }] })).statusCode,
    ).toBe(400);
    expect((await edits('open', { changes: [] })).statusCode).toBe(400);
    expect((await edits('open', { changes: [{ op: 'update', values: { name: 'x' } }] })).statusCode).toBe(
      400,
    );
    expect(
      (await h.post('/api/db/table/rows', { connectionId: 'open', path: ['main', 'people'] }, null))
        .statusCode,
    ).toBe(401);
  });
});
