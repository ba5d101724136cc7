// Engine read forms no borrowed grammar knows, rewritten for the parser on code tokens only
// (providers/classifier-reading.ts; mysql/allowlist.ts, mssql/reading.ts, oracle/reading.ts): everyday reads
// are plain reads instead of held, and no rewrite hides a table, a call or a second statement. Also Oracle's
// unreserved keywords (SAMPLE, PIVOT, ROLLUP, OVER, …) are syntax only where its grammar puts them: a user
// function may carry the name.
import { describe, expect, it } from 'vitest';
import { classifyScript, type Dialect } from '../../src/governance/classify/index.js';
import { expectRead, expectUnverifiable } from './classify-corpus.js';

const objectsOf = async (sql: string, dialect: Dialect) =>
  (await classifyScript(sql, dialect)).statements.flatMap((s) => s.objects.map((o) => o.name));

const MSSQL_READS = [
  'SELECT TRY_CAST(a AS int) FROM t',
  "SELECT TRY_PARSE('1' AS int), PARSE('1' AS int USING 'en-US')",
  "SELECT GETDATE() AT TIME ZONE 'UTC', d AT TIME ZONE z FROM t",
  'SELECT a FROM t OPTION (MAXDOP 1, RECOMPILE)',
  'WITH c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 200) SELECT n FROM c OPTION (MAXRECURSION 300)',
  'SELECT * FROM t TABLESAMPLE (10 PERCENT)',
  'SELECT * FROM t TABLESAMPLE SYSTEM (100 ROWS) REPEATABLE (7)',
  'SELECT * FROM t a INNER HASH JOIN u b ON a.x = b.x LEFT OUTER LOOP JOIN v c ON c.x = a.x',
  'SELECT a FROM t ORDER BY a DESC OFFSET 10 ROWS',
  "SELECT OBJECT_ID('dbo.t'), OBJECT_NAME(1), DB_NAME(), SCHEMA_NAME(), COLUMNPROPERTY(1, 'a', 'IsIdentity')",
];

const ORACLE_READS = [
  'SELECT level FROM dual CONNECT BY level <= 10',
  'SELECT employee_id, manager_id FROM emp START WITH manager_id IS NULL CONNECT BY PRIOR employee_id = manager_id',
  'SELECT a FROM emp WHERE x = 1 CONNECT BY NOCYCLE PRIOR id = parent START WITH parent IS NULL ORDER SIBLINGS BY a',
  'SELECT CONNECT_BY_ROOT a, LEVEL FROM t CONNECT BY PRIOR a = b',
  'SELECT * FROM t SAMPLE (10)',
  'SELECT * FROM t SAMPLE BLOCK (5, 2) SEED (42)',
  "SELECT q'[it's]', nq'{x}' FROM dual",
  'SELECT CAST(a AS VARCHAR2(10)), CAST(b AS NUMBER(10, 2)), CAST(c AS NVARCHAR2(5)) FROM t',
  'SELECT a, SUM(b) FROM t GROUP BY ROLLUP (a)',
  'SELECT a, SUM(b) FROM t GROUP BY CUBE (a, c)',
  'SELECT a FROM t JOIN u USING (a)',
  'SELECT SUM(a) OVER (PARTITION BY b) FROM t',
];

describe('SQL Server read forms', () => {
  it.each(MSSQL_READS)('read: %s', async (sql) => {
    await expectRead(sql, 'mssql');
  });

  it('no rewrite hides a second statement, a call or a table', async () => {
    // T-SQL needs no `;` between statements: the DELETE after the hint is a statement of its own.
    expect((await classifyScript('SELECT a FROM t OPTION (MAXDOP 1) DELETE FROM t', 'mssql')).isWrite).toBe(
      true,
    );
    // The words in a string are not code: the string ends before DELETE.
    expect((await classifyScript("SELECT 'x AT TIME ZONE ' DELETE FROM t SELECT ''", 'mssql')).isWrite).toBe(
      true,
    );
    await expectUnverifiable('SELECT TRY_CAST(dbo.f(a) AS int) FROM t', 'mssql');
    await expectUnverifiable('SELECT dbo.TRY_CAST(a AS int)', 'mssql');
    await expectUnverifiable('SELECT * FROM t TABLESAMPLE (10 PERCENT) WHERE dbo.f(a) = 1', 'mssql');
    await expectUnverifiable("SELECT a FROM t OPTION (USE HINT('X'))", 'mssql');
    await expectUnverifiable('SELECT a FROM t OPTION (OPTIMIZE FOR (@p = dbo.f(1)))', 'mssql');
    expect(await objectsOf('SELECT * FROM a INNER /* x */ HASH JOIN secret ON 1 = 1', 'mssql')).toContain(
      'secret',
    );
    expect(await objectsOf('SELECT GETDATE() AT TIME ZONE (SELECT TOP 1 z FROM secret)', 'mssql')).toContain(
      'secret',
    );
  });
});

describe('Oracle read forms', () => {
  it.each(ORACLE_READS)('read: %s', async (sql) => {
    await expectRead(sql, 'oracle');
  });

  it('no rewrite hides a call, a table or a second statement', async () => {
    await expectUnverifiable('SELECT level FROM dual CONNECT BY level <= evil()', 'oracle');
    await expectUnverifiable('SELECT a FROM t START WITH evil(a) = 1 CONNECT BY PRIOR a = b', 'oracle');
    expect(
      await objectsOf('SELECT level FROM dual CONNECT BY level <= (SELECT COUNT(*) FROM secret)', 'oracle'),
    ).toContain('secret');
    expect((await classifyScript("SELECT q'[x]' FROM dual; DELETE FROM t", 'oracle')).isWrite).toBe(true);
    // A sequence's START WITH is not a query's: the statement is judged as written.
    expect((await classifyScript('CREATE SEQUENCE s START WITH 1', 'oracle')).isWrite).toBe(true);
  });

  // Oracle resolves an unqualified call in the user's schema and does not reserve these words.
  it.each([
    'SELECT sample(1) FROM dual',
    'SELECT pivot(1) FROM dual',
    'SELECT a FROM t ORDER BY rollup(a)',
    'SELECT a FROM t WHERE cube(a) = 1',
    'SELECT over(1) FROM dual',
    'SELECT a, keep(a) FROM t',
    'SELECT a FROM t WHERE a = columns(1)',
    'SELECT match_recognize(1) FROM dual',
    'SELECT a FROM t WHERE interval(a) > 1',
    'UPDATE t SET a = partition(a) WHERE id = 1',
  ])('a keyword-named function is a call: %s', (sql) => expectUnverifiable(sql, 'oracle'));
});

describe('MariaDB NATURAL JOIN', () => {
  it('reads the joined table, and a NATURAL in a comment does not swallow the join', async () => {
    expect(await objectsOf('SELECT * FROM a NATURAL LEFT OUTER JOIN b', 'mysql')).toEqual(['a', 'b']);
    for (const sql of [
      'SELECT * FROM a # NATURAL\nJOIN secret',
      'SELECT * FROM a -- NATURAL\nJOIN secret ON 1 = 1',
      'SELECT * FROM a /* NATURAL */ JOIN secret',
    ])
      expect(await objectsOf(sql, 'mysql'), sql).toContain('secret');
  });
});
