// The table browser on the real PostgreSQL and MariaDB of the kit harness: a filtered, sorted page with its
// count (a NULL first value does not hide matches), odd column names quoted, an edit batch (update, insert,
// delete) checked in the database itself, and a concurrent change detected with the batch rolled back.
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { myRun, pgRun, type Run } from './engine-clients.js';
import { descriptorFromUrl, type Harness, harness } from './harness.js';

interface Engine {
  name: 'postgres' | 'mysql';
  setup(): Promise<{ url: string; run: Run; container: string }>;
  ddl: string[];
}

const ENGINES: Engine[] = [
  {
    name: 'postgres',
    async setup() {
      const url = await createPostgresDatabase(inject('services').postgresUrl);
      return { url, run: pgRun(url), container: 'public' };
    },
    ddl: [
      'CREATE TABLE people (id int PRIMARY KEY, "full name" text NOT NULL, city text, born date)',
      `INSERT INTO people SELECT g, 'person ' || g, CASE WHEN g = 1 THEN NULL WHEN g % 5 = 0 THEN 'Berlin' ELSE 'Paris' END, DATE '2000-01-01' + g FROM generate_series(1, 120) g`,
    ],
  },
  {
    name: 'mysql',
    async setup() {
      const url = await createMariadbDatabase(inject('services').mariadbUrl);
      return { url, run: myRun(url), container: new URL(url).pathname.slice(1) };
    },
    ddl: [
      'CREATE TABLE people (id INT PRIMARY KEY, `full name` VARCHAR(50) NOT NULL, city VARCHAR(50), born DATE) ENGINE=InnoDB',
      "INSERT INTO people SELECT seq, CONCAT('person ', seq), CASE WHEN seq = 1 THEN NULL WHEN seq % 5 = 0 THEN 'Berlin' ELSE 'Paris' END, DATE_ADD('2000-01-01', INTERVAL seq DAY) FROM seq_1_to_120",
    ],
  },
];

for (const engine of ENGINES) {
  describe(`table browser on ${engine.name}`, () => {
    let h: Harness;
    let run: Run;
    let connection: ReturnType<typeof descriptorFromUrl>;
    let path: string[];

    beforeAll(async () => {
      const s = await engine.setup();
      run = s.run;
      for (const d of engine.ddl) await run(d);
      connection = descriptorFromUrl(s.url, engine.name);
      path = [s.container, 'people'];
      h = await harness();
    });
    afterAll(() => h?.close());

    const rows = (body: Record<string, unknown>) =>
      h.post('/api/db/table/rows', { connection, path, ...body });
    const edits = (changes: unknown[]) => h.post('/api/db/table/edits', { connection, path, changes });

    it('answers a filtered, sorted page and the count', async () => {
      const r = await rows({
        filters: [{ column: 'city', op: 'contains', value: 'BERL' }],
        sorts: [{ column: 'full name', direction: 'desc' }],
        limit: 3,
      });
      expect(r.statusCode).toBe(200);
      const body = r.json();
      expect(body.total).toBe(24);
      expect(body.rows.map((x: Record<string, unknown>) => x['full name'])).toEqual([
        'person 95',
        'person 90',
        'person 85',
      ]);
      expect(body).toMatchObject({ key: ['id'], editable: true });
    });

    it('applies an update, an insert and a delete, and detects a concurrent change', async () => {
      const page = (await rows({ limit: 3 })).json().rows;
      expect(page[0].city).toBeNull();
      const ok = await edits([
        { op: 'update', original: page[0], values: { city: "it's \\ here", 'full name': 'first' } },
        { op: 'insert', values: { id: 500, 'full name': 'new', city: null, born: '2024-02-29' } },
        { op: 'delete', original: page[2] },
      ]);
      expect(ok.statusCode).toBe(200);
      expect(await run('SELECT id, city FROM people WHERE id IN (1, 3, 500) ORDER BY id')).toEqual([
        { id: 1, city: "it's \\ here" },
        { id: 500, city: null },
      ]);
      // Another session changes row 2 after the page was read: the batch is refused whole.
      await run("UPDATE people SET city = 'Rome' WHERE id = 2");
      const stale = await edits([
        {
          op: 'update',
          original: { ...page[0], city: "it's \\ here", 'full name': 'first' },
          values: { city: 'x' },
        },
        { op: 'update', original: page[1], values: { city: 'Oslo' } },
      ]);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().code).toBe('ROW_CONFLICT');
      expect(await run('SELECT id, city FROM people WHERE id IN (1, 2) ORDER BY id')).toEqual([
        { id: 1, city: "it's \\ here" },
        { id: 2, city: 'Rome' },
      ]);
    });
  });
}
