// The table browser's statement building (src/sql/table-statements.ts), table-driven per dialect: quoted
// identifiers (odd names included), bound filter values, the key as tie-break, keyed edits with the original
// values compared (NULL as IS NULL), literals that cannot break out of their quotes, and the refusals.
import { describe, expect, it } from 'vitest';
import { sqlDialect } from '../../src/providers/registry.js';
import {
  browseStatements,
  editStatements,
  literal,
  type RowChange,
  type TableShape,
} from '../../src/sql/table-statements.js';

const shape = (over: Partial<TableShape> = {}): TableShape => ({
  path: ['main', 'odd"table'],
  columns: [
    { name: 'id', type: 'INTEGER', isPrimary: true },
    { name: 'we"ird `col`', type: 'TEXT', isPrimary: false },
    { name: 'city', type: 'TEXT', isPrimary: false },
    { name: 'score', type: 'REAL', isPrimary: false },
  ],
  key: ['id'],
  ...over,
});

describe('browseStatements', () => {
  const cases = [
    {
      dialect: 'sqlite' as const,
      style: '?' as const,
      select:
        'SELECT * FROM "main"."odd""table" WHERE CAST("city" AS TEXT) LIKE ? ESCAPE \'!\' AND "we""ird `col`" = ? ORDER BY "we""ird `col`" DESC, "id" LIMIT 50 OFFSET 100',
    },
    {
      dialect: 'postgres' as const,
      style: '$n' as const,
      select:
        'SELECT * FROM "main"."odd""table" WHERE CAST("city" AS TEXT) ILIKE $1 ESCAPE \'!\' AND "we""ird `col`" = $2 ORDER BY "we""ird `col`" DESC, "id" LIMIT 50 OFFSET 100',
    },
    {
      dialect: 'mysql' as const,
      style: '?' as const,
      select:
        'SELECT * FROM `main`.`odd"table` WHERE CAST(`city` AS CHAR) LIKE ? ESCAPE \'!\' AND `we"ird ``col``` = ? ORDER BY `we"ird ``col``` DESC, `id` LIMIT 50 OFFSET 100',
    },
    {
      dialect: 'mssql' as const,
      style: '@pn' as const,
      select:
        'SELECT * FROM [main].[odd"table] WHERE CAST([city] AS NVARCHAR(MAX)) LIKE @p1 ESCAPE \'!\' AND [we"ird `col`] = @p2 ORDER BY [we"ird `col`] DESC, [id] OFFSET 100 ROWS FETCH NEXT 50 ROWS ONLY',
    },
  ];
  for (const c of cases) {
    it(`builds a filtered, sorted page and its count in ${c.dialect}`, () => {
      const out = browseStatements(sqlDialect(c.dialect), c.style, shape(), {
        filters: [
          { column: 'city', op: 'contains', value: "50%_off!'; DROP TABLE x; --" },
          { column: 'we"ird `col`', op: 'equals', value: 'x' },
        ],
        sorts: [{ column: 'we"ird `col`', direction: 'desc' }],
        offset: 100,
        limit: 50,
      });
      expect(out.select).toBe(c.select);
      // Values never enter the text: they are bound, LIKE wildcards of the user's text escaped.
      expect(out.params).toEqual(["%50!%!_off!!'; DROP TABLE x; --%", 'x']);
      expect(out.count).toContain('SELECT COUNT(*) AS ');
      expect(out.count).not.toContain('ORDER BY');
    });
  }

  it('refuses a column the table does not have, whatever its spelling', () => {
    for (const column of ['nope', 'id; DROP TABLE t', '"id"', 'ID']) {
      expect(() =>
        browseStatements(sqlDialect('sqlite'), '?', shape(), {
          filters: [{ column, op: 'equals', value: 1 }],
          sorts: [],
          offset: 0,
          limit: 10,
        }),
      ).toThrow(/Unknown column/);
      expect(() =>
        browseStatements(sqlDialect('sqlite'), '?', shape(), {
          filters: [],
          sorts: [{ column, direction: 'asc' }],
          offset: 0,
          limit: 10,
        }),
      ).toThrow(/Unknown column/);
    }
  });

  it('refuses an unknown operator or direction and a value-less comparison', () => {
    const base = { sorts: [], offset: 0, limit: 10 };
    expect(() =>
      browseStatements(sqlDialect('sqlite'), '?', shape(), {
        ...base,
        filters: [{ column: 'id', op: 'drop' as 'equals', value: 1 }],
      }),
    ).toThrow(/operator/);
    expect(() =>
      browseStatements(sqlDialect('sqlite'), '?', shape(), {
        ...base,
        filters: [{ column: 'id', op: 'gt' }],
      }),
    ).toThrow(/needs a value/);
    expect(() =>
      browseStatements(sqlDialect('sqlite'), '?', shape(), {
        filters: [],
        sorts: [{ column: 'id', direction: 'sideways' as 'asc' }],
        offset: 0,
        limit: 10,
      }),
    ).toThrow(/direction/);
  });

  it('projects and orders by SQLite rowid for a table without a key; leaves masked keys out of the order', () => {
    const out = browseStatements(sqlDialect('sqlite'), '?', shape({ key: [], rowId: 'rowid' }), {
      filters: [{ column: 'city', op: 'is_null' }],
      sorts: [],
      offset: 0,
      limit: 10,
    });
    expect(out.select).toBe(
      'SELECT rowid AS "__rowid", * FROM "main"."odd""table" WHERE "city" IS NULL ORDER BY rowid LIMIT 10 OFFSET 0',
    );
    const masked = browseStatements(sqlDialect('postgres'), '$n', shape(), {
      filters: [],
      sorts: [],
      offset: 0,
      limit: 10,
      unsortable: new Set(['id']),
    });
    expect(masked.select).toBe('SELECT * FROM "main"."odd""table" LIMIT 10 OFFSET 0');
  });
});

describe('editStatements', () => {
  const original = { id: 7, 'we"ird `col`': "it's", city: null, score: 0.1 };
  const changes: RowChange[] = [
    { op: 'update' as const, original, values: { city: 'Berlin', 'we"ird `col`': "it's" } },
    { op: 'insert' as const, values: { id: 8, city: "O'Hare\\", 'we"ird `col`': null } },
    { op: 'delete' as const, original },
  ];
  const cases = [
    {
      dialect: 'sqlite' as const,
      out: [
        `UPDATE "main"."odd""table" SET "city" = 'Berlin' WHERE "id" = 7 AND "we""ird \`col\`" = 'it''s' AND "city" IS NULL`,
        `INSERT INTO "main"."odd""table" ("id", "city", "we""ird \`col\`") VALUES (8, 'O''Hare\\', NULL)`,
        `DELETE FROM "main"."odd""table" WHERE "id" = 7 AND "we""ird \`col\`" = 'it''s' AND "city" IS NULL`,
      ],
    },
    {
      dialect: 'postgres' as const,
      out: [
        `UPDATE "main"."odd""table" SET "city" = 'Berlin' WHERE "id" = 7 AND "we""ird \`col\`" = 'it''s' AND "city" IS NULL`,
        `INSERT INTO "main"."odd""table" ("id", "city", "we""ird \`col\`") VALUES (8, 'O''Hare\\', NULL)`,
        `DELETE FROM "main"."odd""table" WHERE "id" = 7 AND "we""ird \`col\`" = 'it''s' AND "city" IS NULL`,
      ],
    },
    {
      dialect: 'mysql' as const,
      out: [
        "UPDATE `main`.`odd\"table` SET `city` = 'Berlin' WHERE `id` = 7 AND `we\"ird ``col``` = 'it''s' AND `city` IS NULL",
        // MySQL reads backslashes as escapes inside literals: doubled.
        "INSERT INTO `main`.`odd\"table` (`id`, `city`, `we\"ird ``col```) VALUES (8, 'O''Hare\\\\', NULL)",
        "DELETE FROM `main`.`odd\"table` WHERE `id` = 7 AND `we\"ird ``col``` = 'it''s' AND `city` IS NULL",
      ],
    },
  ];
  for (const c of cases) {
    it(`keys updates and deletes by the primary key and the original values in ${c.dialect}`, () => {
      const out = editStatements(sqlDialect(c.dialect), shape(), changes, { locked: new Set() });
      expect(out.map((s) => s.text)).toEqual(c.out);
      expect(out.map((s) => [s.op, s.change])).toEqual([
        ['update', 0],
        ['insert', 1],
        ['delete', 2],
      ]);
    });
  }

  it('drops an update that changes nothing; an insert of nothing takes the defaults', () => {
    const out = editStatements(
      sqlDialect('postgres'),
      shape(),
      [
        { op: 'update', original, values: { city: null } },
        { op: 'insert', values: {} },
      ],
      { locked: new Set() },
    );
    expect(out.map((s) => s.text)).toEqual(['INSERT INTO "main"."odd""table" DEFAULT VALUES']);
    expect(
      editStatements(sqlDialect('mysql'), shape(), [{ op: 'insert', values: {} }], { locked: new Set() })[0]
        .text,
    ).toBe('INSERT INTO `main`.`odd"table` () VALUES ()');
  });

  it('keys a rowid table by its rowid', () => {
    const out = editStatements(
      sqlDialect('sqlite'),
      shape({ key: [], rowId: 'rowid' }),
      [{ op: 'delete', original: { __rowid: 3, id: 1, city: 'x' } }],
      { locked: new Set() },
    );
    expect(out[0].text).toBe(
      'DELETE FROM "main"."odd""table" WHERE rowid = 3 AND "id" = 1 AND "city" = \'x\'',
    );
  });

  it('never writes or compares masked columns, and refuses editing one', () => {
    const locked = new Set(['city']);
    const out = editStatements(
      sqlDialect('sqlite'),
      shape(),
      [{ op: 'update', original: { ...original, city: '****' }, values: { 'we"ird `col`': 'new' } }],
      { locked },
    );
    expect(out[0].text).toBe(
      `UPDATE "main"."odd""table" SET "we""ird \`col\`" = 'new' WHERE "id" = 7 AND "we""ird \`col\`" = 'it''s'`,
    );
    expect(() =>
      editStatements(sqlDialect('sqlite'), shape(), [{ op: 'update', original, values: { city: 'x' } }], {
        locked,
      }),
    ).toThrow(/masked/);
    expect(() =>
      editStatements(sqlDialect('sqlite'), shape(), [{ op: 'insert', values: { city: 'x' } }], { locked }),
    ).toThrow(/masked/);
  });

  it('refuses keyless tables, missing keys, unknown columns and values that are not scalars', () => {
    const none = { locked: new Set<string>() };
    expect(() =>
      editStatements(sqlDialect('sqlite'), shape({ key: [] }), [{ op: 'delete', original }], none),
    ).toThrow(/no primary key/);
    expect(() =>
      editStatements(sqlDialect('sqlite'), shape(), [{ op: 'delete', original: { city: 'x' } }], none),
    ).toThrow(/key id is missing/);
    expect(() =>
      editStatements(
        sqlDialect('sqlite'),
        shape(),
        [{ op: 'insert', values: { 'id) VALUES (1); --': 1 } }],
        none,
      ),
    ).toThrow(/Unknown column/);
    expect(() =>
      editStatements(
        sqlDialect('sqlite'),
        shape(),
        [{ op: 'insert', values: { city: { evil: true } as unknown as string } }],
        none,
      ),
    ).toThrow(/scalars|strings/);
    expect(() => literal(sqlDialect('postgres'), Number.NaN)).toThrow(/finite/);
  });

  it('writes booleans as each dialect spells them', () => {
    expect([
      literal(sqlDialect('postgres'), true),
      literal(sqlDialect('mysql'), true),
      literal(sqlDialect('sqlite'), false),
    ]).toEqual(['TRUE', '1', '0']);
  });
});
