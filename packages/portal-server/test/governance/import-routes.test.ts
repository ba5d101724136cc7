// Table imports under the real policy hooks, on SQLite files checked directly: a CSV (quoted fields, a
// NULL, an empty string) previewed with its types and imported, a bad row reported with the engine's reason
// while the others go in; JSON lines with a mapping; an SQL script of INSERTs, and a script that is not one
// refused; masked columns cannot be written; write approval holds the import as one request, a second
// person approves, and the same upload then runs; bad input answers 4xx in the portal's error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ALICE, BOB } from '../query/harness.js';
import { multipartBody, ndjson } from '../query/multipart.js';
import type { GovernedHarness } from './policy-harness.js';
import { governedTables, MASKED_EMAIL, type RouteUser, read, sqliteFiles } from './table-routes.fixture.js';

const sqlite = sqliteFiles('portal-import-');
const seed = (name: string) =>
  sqlite.seed(
    name,
    `CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT, email TEXT);
    INSERT INTO people VALUES (1, 'existing', 'Oslo', 'e@x.org');`,
  );

const CSV = 'id,name,city\n2,"Smith, Anna",Berlin\n3,"He said ""hi""",\n4,Bob,""\n';

describe('/api/db/import (SQLite, governed)', () => {
  let h: GovernedHarness;
  const files = { open: seed('open'), held: seed('held'), ro: seed('ro') };

  beforeAll(async () => {
    h = await governedTables(files, { open: MASKED_EMAIL });
  });
  afterAll(() => h?.close());

  const upload = (url: string, options: Record<string, unknown>, file: string, user: RouteUser = ALICE) => {
    const { payload, contentType } = multipartBody(
      { options: JSON.stringify({ path: ['main', 'people'], ...options }) },
      { name: 'people.csv', content: file },
    );
    return h.app.inject({
      method: 'POST',
      url,
      payload,
      headers: {
        'content-type': contentType,
        ...(user ? { 'x-test-user': user.username, 'x-test-role': user.role } : {}),
      },
    });
  };

  it('previews the first rows with their types, the columns and a mapping by name', async () => {
    const r = await upload('/api/db/import/preview', { connectionId: 'open', format: 'csv' }, CSV);
    expect(r.statusCode, r.body).toBe(200);
    const p = r.json();
    expect(p.fields).toEqual(['id', 'name', 'city']);
    expect(p.kinds).toEqual({ id: 'integer', name: 'text', city: 'text' });
    expect(p.mapping).toEqual([
      { source: 'id', column: 'id' },
      { source: 'name', column: 'name' },
      { source: 'city', column: 'city' },
    ]);
    expect(p.rows[1]).toEqual({ id: '3', name: 'He said "hi"', city: null });
    expect(p.columns.find((c: { name: string }) => c.name === 'email').masked).toBe(true);
    expect(read(files.open, 'select count(*) n from people')).toEqual([{ n: 1 }]);
  });

  it('imports a CSV, reports the bad row with its reason, and writes one audit line with the counts', async () => {
    const before = h.events.length;
    // Row 2 repeats the existing id 1: the engine refuses it, the others go in.
    const csv = `${CSV}1,duplicate,Rome\n5,Eve,Paris\n`;
    const r = await upload('/api/db/import', { connectionId: 'open', format: 'csv', batchSize: 2 }, csv);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toMatch(/application\/x-ndjson/);
    const events = ndjson(r.body);
    expect(events.filter((e) => e.type === 'progress').length).toBeGreaterThan(1);
    const done = events[events.length - 1];
    expect(done).toMatchObject({ type: 'done', rowCount: 4, failedCount: 1, stopped: false });
    expect(done.failed).toEqual([{ row: 4, line: 5, reason: expect.stringMatching(/UNIQUE|constraint/i) }]);
    expect(read(files.open, 'select id, name, city from people order by id')).toEqual([
      { id: 1, name: 'existing', city: 'Oslo' },
      { id: 2, name: 'Smith, Anna', city: 'Berlin' },
      { id: 3, name: 'He said "hi"', city: null },
      { id: 4, name: 'Bob', city: '' },
      { id: 5, name: 'Eve', city: 'Paris' },
    ]);
    const lines = h.events.slice(before).filter((e) => e.type === 'query_execution');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      result: 'success',
      route: '/api/db/import',
      rowCount: 4,
      failedCount: 1,
      tableImport: 'main.people',
    });
    expect(String(lines[0].statement)).toMatch(
      /^-- import csv file "people.csv" \(\d+ bytes, sha256 [0-9a-f]{64}\)\nINSERT INTO "main"."people" \("id", "name", "city"\) VALUES \(\?, \?, \?\)$/,
    );
  });

  it('imports JSON lines through a mapping, and stops at the first failure when asked', async () => {
    const jsonl = '{"key": 10, "who": "Ann", "town": "Rome"}\nnot json\n{"key": 11, "who": null}\n';
    const r = await upload(
      '/api/db/import',
      {
        connectionId: 'open',
        format: 'jsonl',
        mapping: [
          { source: 'key', column: 'id' },
          { source: 'who', column: 'name' },
          { source: 'town', column: 'city' },
        ],
        onError: 'stop',
      },
      jsonl,
    );
    const done = ndjson(r.body).at(-1);
    expect(done).toMatchObject({ type: 'done', rowCount: 1, failedCount: 1, stopped: true });
    expect(done?.failed[0]).toMatchObject({ row: 2, line: 2, reason: expect.stringMatching(/not JSON/) });
    expect(read(files.open, 'select id, name, city from people where id >= 10')).toEqual([
      { id: 10, name: 'Ann', city: 'Rome' },
    ]);
  });

  it('runs an SQL script of INSERTs into the table, and refuses one that does anything else', async () => {
    const ok = await upload(
      '/api/db/import',
      { connectionId: 'open', format: 'sql' },
      "INSERT INTO people (id, name) VALUES (20, 'x');\nINSERT INTO people (id, name) VALUES (20, 'dup');\nINSERT INTO main.people (id, name) VALUES (21, 'y');\n",
    );
    const done = ndjson(ok.body).at(-1);
    expect(done).toMatchObject({ type: 'done', rowCount: 2, failedCount: 1 });
    expect(done?.failed[0]).toMatchObject({ row: 2, line: 2 });
    expect(read(files.open, 'select id, name from people where id >= 20 order by id')).toEqual([
      { id: 20, name: 'x' },
      { id: 21, name: 'y' },
    ]);
    const bad = await upload(
      '/api/db/import',
      { connectionId: 'open', format: 'sql' },
      "INSERT INTO people (id, name) VALUES (30, 'x');\nDELETE FROM people;\n",
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'NOT_AN_IMPORT' });
    expect(read(files.open, 'select count(*) n from people where id = 30')).toEqual([{ n: 0 }]);
  });

  it('refuses a masked column, a read-only datasource, and bad input with 4xx in the error shape', async () => {
    const masked = await upload(
      '/api/db/import',
      { connectionId: 'open', format: 'csv', mapping: [{ source: 'name', column: 'email' }] },
      CSV,
    );
    expect(masked.statusCode).toBe(400);
    expect(masked.json().error).toMatch(/masked/);
    const ro = await upload('/api/db/import', { connectionId: 'ro', format: 'csv' }, 'id,name\n9,x\n');
    expect(ro.statusCode).toBe(403);
    expect(ro.json().code).toBe('READ_ONLY');
    expect(read(files.ro, 'select count(*) n from people')).toEqual([{ n: 1 }]);
    const cases: Array<[Record<string, unknown>, string, number]> = [
      [{ connectionId: 'open', format: 'xml' }, CSV, 400],
      [{ connectionId: 'open', format: 'csv', delimiter: ';;' }, CSV, 400],
      [{ connectionId: 'open', format: 'csv', encoding: 'klingon' }, CSV, 400],
      [{ connectionId: 'open', format: 'csv', mapping: [{ source: 'nope', column: 'name' }] }, CSV, 400],
      [{ connectionId: 'open', format: 'csv', mapping: [{ source: 'id', column: 'nope' }] }, CSV, 400],
      [{ connectionId: 'open', format: 'csv' }, 'a,b\n1,"unclosed\n', 400],
      [{ connectionId: 'open', format: 'csv', path: ['main', 'nope'] }, CSV, 404],
    ];
    for (const [options, file, status] of cases) {
      const r = await upload('/api/db/import', options, file);
      expect(r.statusCode, JSON.stringify(options)).toBe(status);
      expect(typeof r.json().error).toBe('string');
    }
    const json = await h.post('/api/db/import', { connectionId: 'open', path: ['main', 'people'] });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBeTruthy();
    expect(
      (await upload('/api/db/import', { connectionId: 'open', format: 'csv' }, CSV, null)).statusCode,
    ).toBe(401);
  });

  it('holds an import for approval as one request, and runs the same upload once a second person approves', async () => {
    const csv = 'id,name\n50,first\n51,second\n';
    const held = await upload('/api/db/import', { connectionId: 'held', format: 'csv' }, csv);
    expect(held.statusCode).toBe(403);
    expect(held.json().code).toBe('APPROVAL_REQUIRED');
    const approval = held.json().approval;
    expect(approval).toMatchObject({ status: 'pending', requester: 'alice' });
    expect(approval.statement).toMatch(
      /^-- import csv file "people.csv" .*sha256 [0-9a-f]{64}\)\nINSERT INTO/,
    );
    expect(read(files.held, 'select count(*) n from people')).toEqual([{ n: 1 }]);
    // Sending it again is the same pending request, not a second one.
    const again = await upload('/api/db/import', { connectionId: 'held', format: 'csv' }, csv);
    expect(again.json().approval.id).toBe(approval.id);
    await expect(
      h.approvals.decide({ id: approval.id, reviewer: ALICE, decision: 'approve' }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await h.approvals.decide({ id: approval.id, reviewer: ADMIN, decision: 'approve' });
    // Another file is another request; another person is not inside alice's window.
    expect(
      (await upload('/api/db/import', { connectionId: 'held', format: 'csv' }, 'id,name\n52,other\n')).json()
        .code,
    ).toBe('APPROVAL_REQUIRED');
    expect(
      (await upload('/api/db/import', { connectionId: 'held', format: 'csv' }, csv, BOB)).json().code,
    ).toBe('APPROVAL_REQUIRED');
    const ran = await upload('/api/db/import', { connectionId: 'held', format: 'csv' }, csv);
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ndjson(ran.body).at(-1)).toMatchObject({ type: 'done', rowCount: 2, failedCount: 0 });
    expect(read(files.held, 'select id, name from people where id >= 50 order by id')).toEqual([
      { id: 50, name: 'first' },
      { id: 51, name: 'second' },
    ]);
    const line = h.events.find((e) => e.type === 'query_execution' && e.approvalId === approval.id);
    expect(line?.approved_by).toEqual([ADMIN.username]);
  });
});
