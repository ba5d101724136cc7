import { CompiledQuery, sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  type Database,
  type Migrations,
  migrateToLatest,
  migrationsDone,
  openDatabase,
  pingDatabase,
  preparePostgresStatement,
} from '../src/db.js';
import { createPostgresDatabase, tempDir } from '../src/testing/index.js';

const migrations: Migrations = {
  '0001_items': {
    async up(db) {
      await db.schema
        .createTable('items')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_items_index': {
    async up(db) {
      await db.schema.createIndex('items_name').on('items').column('name').execute();
    },
  },
};

const opened: Database[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
});

async function targets(): Promise<Array<[string, string]>> {
  return [
    ['sqlite', `sqlite:${tempDir()}/kit.db`],
    ['postgres', await createPostgresDatabase(inject('services').postgresUrl)],
  ];
}

describe('database factory and migrator', async () => {
  for (const [name, url] of await targets()) {
    it(`migrates forward on ${name} and is idempotent`, async () => {
      const d = openDatabase(url);
      opened.push(d);
      expect(d.dialect).toBe(name);
      await pingDatabase(d.db);
      expect(await migrationsDone(d.db, migrations)).toBe(false);
      expect(await migrateToLatest(d.db, migrations)).toEqual(['0001_items', '0002_items_index']);
      expect(await migrateToLatest(d.db, migrations)).toEqual([]);
      expect(await migrationsDone(d.db, migrations)).toBe(true);
      await d.db.insertInto('items').values({ id: 1, name: 'a' }).execute();
      const rows = await d.db.selectFrom('items').selectAll().execute();
      expect(rows).toEqual([{ id: 1, name: 'a' }]);
    });

    it(`refuses a database with an unknown migration on ${name}`, async () => {
      const d = openDatabase(url);
      opened.push(d);
      await migrateToLatest(d.db, migrations);
      const fewer = { '0001_items': migrations['0001_items'] };
      await expect(migrateToLatest(d.db, fewer)).rejects.toThrow(/missing/i);
    });
  }

  it('rejects unsupported URLs with a clear message', () => {
    expect(() => openDatabase('mysql://x')).toThrow(/use sqlite:<path> or postgres/);
  });

  it('redacts the password in the display URL', async () => {
    const d = openDatabase('postgres://u:secret@127.0.0.1:1/x');
    expect(d.displayUrl).toBe('postgres://u:***@127.0.0.1:1/x');
    await d.close();
  });

  it('reports a failed ping when the server is gone', async () => {
    const d = openDatabase('postgres://postgres@127.0.0.1:1/none');
    await expect(pingDatabase(d.db)).rejects.toThrow();
    await d.close();
    await sql`select 1`.execute(opened[0].db);
  });
});

describe('prepared statements on PostgreSQL', () => {
  it('runs a marked text as a named prepared statement with its own values each time, others unprepared', async () => {
    const d = openDatabase(await createPostgresDatabase(inject('services').postgresUrl));
    opened.push(d);
    const marked = 'select $1::int + 1 as n, $2::text as label';
    const plain = 'select $1::int + 2 as n';
    expect(preparePostgresStatement(marked)).toBe(true);
    // One connection, so the statements it holds can be read back on it.
    const held = await d.db.connection().execute(async (c) => {
      const answers = [];
      for (const i of [1, 2, 3])
        answers.push((await c.executeQuery(CompiledQuery.raw(marked, [i, `run ${i}`]))).rows[0]);
      answers.push((await c.executeQuery(CompiledQuery.raw(plain, [5]))).rows[0]);
      const statements = await sql<{
        name: string;
        statement: string;
      }>`select name, statement from pg_prepared_statements`.execute(c);
      return { answers, statements: statements.rows };
    });
    expect(held.answers).toEqual([
      { n: 2, label: 'run 1' },
      { n: 3, label: 'run 2' },
      { n: 4, label: 'run 3' },
      { n: 7 },
    ]);
    expect(held.statements.map((s) => s.statement)).toEqual([marked]);
    expect(held.statements[0].name).toMatch(/^kysely_prepared_\d+$/);
  });

  it('stops marking texts past its bound (texts are code constants, not values)', () => {
    let accepted = 0;
    for (let i = 0; i < 150; i++) if (preparePostgresStatement(`select ${i} as bound_test`)) accepted++;
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(150);
    expect(preparePostgresStatement('select 1 as one_more_past_the_bound')).toBe(false);
  });
});
