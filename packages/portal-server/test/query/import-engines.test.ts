// Table imports on the real PostgreSQL and MariaDB of the kit harness, checked in the database itself: a
// semicolon-separated Latin-1 CSV into a table with an odd column name, a boolean, a date and a number,
// several batches with bound parameters (quotes and backslashes arrive as written), a row the engine
// refuses (a value that is not a number) reported with the engine's reason while the rest go in, and JSON
// lines whose nested value lands as JSON text.
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { myRun, pgRun, type Run } from './engine-clients.js';
import { descriptorFromUrl, type Harness, harness } from './harness.js';
import { multipartBody, ndjson } from './multipart.js';

const ENGINES = [
  {
    name: 'postgres' as const,
    async setup() {
      const url = await createPostgresDatabase(inject('services').postgresUrl);
      return { url, run: pgRun(url), container: 'public' };
    },
    ddl: 'CREATE TABLE items (id int PRIMARY KEY, "item name" text NOT NULL, active boolean, added date, price numeric(10,2), doc text)',
    read: `SELECT id, "item name" AS name, active, to_char(added, 'YYYY-MM-DD') AS added, price::text AS price FROM items ORDER BY id`,
    yes: true as unknown,
    no: false as unknown,
  },
  {
    name: 'mysql' as const,
    async setup() {
      const url = await createMariadbDatabase(inject('services').mariadbUrl);
      return { url, run: myRun(url), container: new URL(url).pathname.slice(1) };
    },
    ddl: 'CREATE TABLE items (id INT PRIMARY KEY, `item name` VARCHAR(100) NOT NULL, active BOOLEAN, added DATE, price DECIMAL(10,2), doc TEXT) ENGINE=InnoDB',
    read: "SELECT id, `item name` AS name, active, DATE_FORMAT(added, '%Y-%m-%d') AS added, CAST(price AS CHAR) AS price FROM items ORDER BY id",
    yes: 1 as unknown,
    no: 0 as unknown,
  },
];

for (const engine of ENGINES) {
  describe(`table import on ${engine.name}`, () => {
    let h: Harness;
    let run: Run;
    let connection: ReturnType<typeof descriptorFromUrl>;
    let path: string[];

    beforeAll(async () => {
      const s = await engine.setup();
      run = s.run;
      await run(engine.ddl);
      connection = descriptorFromUrl(s.url, engine.name);
      path = [s.container, 'items'];
      h = await harness();
    });
    afterAll(() => h?.close());

    const upload = (
      url: string,
      options: Record<string, unknown>,
      content: string | Buffer,
      name = 'items.csv',
    ) => {
      const { payload, contentType } = multipartBody(
        { options: JSON.stringify({ connection, path, ...options }) },
        { name, content },
      );
      return h.app.inject({
        method: 'POST',
        url,
        payload,
        headers: { 'content-type': contentType, 'x-test-user': 'alice', 'x-test-role': 'user' },
      });
    };

    it('imports a Latin-1 CSV in batches, reporting the row the engine refuses', async () => {
      const csv = [
        'id;item name;active;added;price',
        '1;Crème brûlée;true;2024-02-29;3.50',
        `2;"it's \\ ""quoted""";false;2024-03-01;10`,
        '3;Bad price;yes;2024-03-02;abc',
        '4;No date;no;;7.25',
        '5;Last;1;2024-12-31;0',
      ].join('\r\n');
      const file = iconv.encode(csv, 'latin1');
      const preview = await upload(
        '/api/db/import/preview',
        {
          format: 'csv',
          delimiter: ';',
          encoding: 'latin1',
        },
        file,
      );
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().mapping.map((m: { column: string }) => m.column)).toEqual([
        'id',
        'item name',
        'active',
        'added',
        'price',
      ]);
      expect(preview.json().kinds).toMatchObject({ id: 'integer', added: 'date', price: 'text' });
      const r = await upload(
        '/api/db/import',
        {
          format: 'csv',
          delimiter: ';',
          encoding: 'latin1',
          batchSize: 2,
        },
        file,
      );
      expect(r.statusCode, r.body).toBe(200);
      const done = ndjson(r.body).at(-1);
      expect(done, JSON.stringify(done.failed)).toMatchObject({ type: 'done', rowCount: 4, failedCount: 1 });
      expect(done.failed).toHaveLength(1);
      expect(done.failed[0]).toMatchObject({ row: 3, line: 4 });
      expect(done.failed[0].reason).toMatch(/abc|numeric|decimal|Incorrect/i);
      expect(await run(engine.read)).toEqual([
        { id: 1, name: 'Crème brûlée', active: engine.yes, added: '2024-02-29', price: '3.50' },
        { id: 2, name: `it's \\ "quoted"`, active: engine.no, added: '2024-03-01', price: '10.00' },
        { id: 4, name: 'No date', active: engine.no, added: null, price: '7.25' },
        { id: 5, name: 'Last', active: engine.yes, added: '2024-12-31', price: '0.00' },
      ]);
    });

    it('imports JSON lines, a nested value as JSON text', async () => {
      const jsonl =
        '{"id": 10, "item name": "json", "active": true, "doc": {"a": [1, 2]}}\n{"id": 11, "item name": "plain", "price": 1.5}\n';
      const r = await upload(
        '/api/db/import',
        {
          format: 'jsonl',
          mapping: [
            { source: 'id', column: 'id' },
            { source: 'item name', column: 'item name' },
            { source: 'active', column: 'active' },
            { source: 'doc', column: 'doc' },
            { source: 'price', column: 'price' },
          ],
        },
        jsonl,
        'items.jsonl',
      );
      expect(ndjson(r.body).at(-1)).toMatchObject({ type: 'done', rowCount: 2, failedCount: 0 });
      const rows = await run('SELECT id, doc FROM items WHERE id >= 10 ORDER BY id');
      expect(rows.map((x) => [x.id, x.doc === null ? null : JSON.parse(String(x.doc))])).toEqual([
        [10, { a: [1, 2] }],
        [11, null],
      ]);
    });
  });
}
