// Bot submissions are judged by effect like the session routes (issue 27 "guardrails judged by effect"): a
// guarded write to a datasource with guardrails and `maxAffectedRows` is dry-run in a rolled-back
// transaction by the pipeline before the bot decides, held (202 pending, guardrail `affected_rows`) with the
// counts on its approval, and once approved it runs held to those counts (rolled back when it would touch
// more). The SQLite file is read directly to show what changed.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS_SQL } from './fixtures.js';
import { type BotHarness, botPortal, sqliteFile, sqliteRows } from './harness.js';

let h: BotHarness;
let secret: string;
const file = () => join(h.dataDir, 'guarded.db');

beforeAll(async () => {
  h = await botPortal({
    datasources: (dir) =>
      `  - id: guarded\n    type: sqlite\n    database: ${sqliteFile(dir, 'guarded.db', USERS_SQL)}\n    roles: [admin, user]\n    policy: { guardrails: true, maxAffectedRows: 10, approverRoles: [admin] }\n`,
  });
  secret = (await h.token({ name: 'dry-run-bot' })).secret;
});
afterAll(async () => {
  await h?.close();
});

const submit = (statement: string) =>
  h.submit(secret, { datasourceId: 'guarded', statement, onBehalfOf: 'alice@example.com' });

const approval = async (id: string) =>
  (
    await h.server.app.inject({
      method: 'GET',
      url: `/api/approvals/${id}`,
      headers: { cookie: `auth-token=${h.adminCookie}` },
    })
  ).json();

describe('bot submissions get the dry run of the session routes', () => {
  it('a write within the ceiling runs now; one beyond it waits with its counts and changes nothing', async () => {
    const ok = await submit("UPDATE users SET name = 'one' WHERE id = 1");
    expect(ok.statusCode).toBe(200);
    expect(ok.json().execution.execution).toMatchObject({ status: 'done', rowCount: 1 });
    // Spelled without the words a guardrail looks for: judged by the 15 rows it touches.
    const held = await submit("UPDATE users SET name = 'many' WHERE id <= 15");
    expect(held.statusCode).toBe(202);
    const rec = held.json().execution;
    expect(rec).toMatchObject({ status: 'pending', guardrail: 'affected_rows' });
    expect((await approval(rec.approvalId)).dryRun).toEqual([
      expect.objectContaining({ statement: 0, touched: 15, total: 300, reported: 15 }),
    ]);
    await h.drain();
    expect(sqliteRows(file(), "SELECT count(*) AS n FROM users WHERE name = 'many'")).toEqual([{ n: 0 }]);
  });

  it('every row of a table, however spelled, waits as an every-row write', async () => {
    const held = await submit('DELETE FROM big WHERE id = +id');
    expect(held.statusCode).toBe(202);
    expect(held.json().execution).toMatchObject({ status: 'pending', guardrail: 'delete_without_where' });
    await h.drain();
    expect(sqliteRows(file(), 'SELECT count(*) AS n FROM big')).toEqual([{ n: 100 }]);
  });

  it('once approved it runs held to its counts: rolled back when it would touch more rows', async () => {
    const statement = "UPDATE users SET name = 'late' WHERE id > 285";
    const held = (await submit(statement)).json().execution;
    expect((await approval(held.approvalId)).dryRun).toEqual([
      expect.objectContaining({ touched: 15, reported: 15 }),
    ]);
    // Five more rows match after the approval was asked for: the approved text would now touch 20.
    const db = new Database(file());
    db.exec(
      "INSERT INTO users (id, name, email) VALUES (301, 'a', 'a@x'), (302, 'b', 'b@x'), (303, 'c', 'c@x'), (304, 'd', 'd@x'), (305, 'e', 'e@x')",
    );
    db.close();
    expect((await h.decide(held.approvalId, 'approve')).statusCode).toBe(200);
    await h.drain();
    const done = (await h.read(secret, held.id)).json();
    expect(done.execution).toMatchObject({ status: 'failed' });
    expect(sqliteRows(file(), "SELECT count(*) AS n FROM users WHERE name = 'late'")).toEqual([{ n: 0 }]);
    const audit = await h.auditOf('query_execution');
    expect(audit.some((e) => e.errorCode === 'AFFECTED_ROWS_EXCEEDED' && e.requestId === held.id)).toBe(true);

    // Approved on counts that still hold, it runs and lands.
    const again = (await submit("UPDATE users SET name = 'fits' WHERE id > 290")).json().execution;
    expect((await h.decide(again.approvalId, 'approve')).statusCode).toBe(200);
    await h.drain();
    expect((await h.read(secret, again.id)).json().execution).toMatchObject({ status: 'done', rowCount: 15 });
    expect(sqliteRows(file(), "SELECT count(*) AS n FROM users WHERE name = 'fits'")).toEqual([{ n: 15 }]);
  });
});
