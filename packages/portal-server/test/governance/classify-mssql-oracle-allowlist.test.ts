// SQL Server and Oracle fail closed by allowlist (providers/{mssql,oracle}/allowlist.ts): a user-defined
// function, unqualified, qualified, quoted or bracketed, in any clause (SELECT list, WHERE, ORDER BY, a
// subquery, a CTE, a JOIN condition, an INSERT's VALUES, an UPDATE's SET, a computed column, a table function
// in FROM) is unverifiable; ordinary reads with the engines' built-ins stay plain reads, and the table
// designer's DDL stays a plain write (classify-designed-ddl.test.ts).
import { describe, expect, it } from 'vitest';
import { classifyScript } from '../../src/governance/classify/index.js';
import { expectRead, expectUnverifiable } from './classify-corpus.js';

const MSSQL_USER_CALLS: string[] = [
  'SELECT dbo.f(1)',
  'SELECT [dbo].[f](1)',
  'SELECT [evil](1)',
  'SELECT "evil"(1)',
  'SELECT evil(1)',
  'SELECT db.dbo.f(1)',
  'SELECT srv.db.dbo.f(1)',
  'SELECT a FROM t WHERE dbo.f(a) = 1',
  'SELECT a FROM t ORDER BY dbo.f(a)',
  'SELECT a FROM t WHERE a IN (SELECT dbo.f(b) FROM u)',
  'SELECT a FROM t WHERE a = (SELECT MAX(dbo.f(b)) FROM u)',
  'WITH c AS (SELECT dbo.f(1) AS x) SELECT x FROM c',
  'SELECT t.a FROM t JOIN u ON dbo.f(t.a) = u.b',
  'INSERT INTO t (a) VALUES (dbo.f(1))',
  'INSERT dbo.t (a) SELECT dbo.f(b) FROM u',
  'UPDATE t SET a = dbo.f(a) WHERE id = 1',
  'SELECT * FROM dbo.tvf(1)',
  'SELECT * FROM tvf(1)',
  'SELECT * FROM t CROSS APPLY dbo.tvf(t.a) x',
  'SELECT CAST(dbo.f(1) AS int)',
  'SELECT COUNT(dbo.f(a)) FROM t',
  'SELECT ROW_NUMBER() OVER (ORDER BY dbo.f(a)) AS rn FROM t',
  'SELECT TOP 10 dbo.f(a) FROM t',
  'CREATE TABLE t ([a] int, [b] AS (dbo.f([a])))',
  'SELECT IDENTITY(int, 1, 1) AS id INTO #t FROM t',
  "SELECT SESSION_CONTEXT(N'k')",
];

const ORACLE_USER_CALLS: string[] = [
  'SELECT evil() FROM dual',
  'SELECT app.purge_all(1) FROM dual',
  'SELECT app.pkg.f(1) FROM dual',
  'SELECT "EVIL"(1) FROM dual',
  'SELECT "APP"."PURGE_ALL"(1) FROM dual',
  'SELECT "NVL"(a, 0) FROM t',
  'SELECT a FROM t WHERE evil(a) = 1',
  'SELECT a FROM t ORDER BY evil(a)',
  'SELECT a FROM t WHERE a IN (SELECT evil(b) FROM u)',
  'WITH c AS (SELECT evil(1) x FROM dual) SELECT x FROM c',
  'SELECT t.a FROM t JOIN u ON evil(t.a) = u.b',
  'INSERT INTO t (a) VALUES (evil(1))',
  'UPDATE t SET a = evil(a) WHERE id = 1',
  'SELECT * FROM TABLE(pkg.rows(1))',
  'SELECT NVL(evil(a), 0) FROM t',
  "SELECT LISTAGG(evil(a), ',') WITHIN GROUP (ORDER BY a) FROM t",
  'SELECT timestamp(1) FROM dual',
  'SELECT nvarchar2(1) FROM dual',
  'SELECT a FROM t WHERE a IN (SELECT timestamp(1) FROM dual)',
  'CREATE VIEW v AS SELECT timestamp(1) x FROM dual',
  'CREATE TABLE t (a TIMESTAMP(6) DEFAULT evil())',
  'SELECT a FROM t FETCH FIRST evil(1) ROWS ONLY',
  'SELECT xmlquery(\'fn:doc("/x")\' RETURNING CONTENT) FROM dual',
  "SELECT sys_context('USERENV', 'SESSION_USER') FROM dual",
  'CREATE TABLE t ("a" NUMBER, "b" AS (evil("a")))',
];

const MSSQL_BUILTIN_READS: string[] = [
  'SELECT COUNT(*) FROM dbo.t',
  'SELECT TOP 10 a FROM t ORDER BY a',
  'SELECT TOP (10) a FROM t ORDER BY a',
  'SELECT CAST(x AS NVARCHAR(10)) FROM t',
  'SELECT CONVERT(VARCHAR(10), d, 120) FROM t',
  'SELECT DATEADD(day, 1, GETDATE()) AS d',
  "SELECT FORMAT(d, 'yyyy'), DATEDIFF(day, a, b), DATEPART(year, d), SYSDATETIME() FROM t",
  'SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) AS rn FROM t',
  "SELECT STRING_AGG(a, ',') WITHIN GROUP (ORDER BY a) FROM t",
  "SELECT JSON_VALUE(j, '$.a'), JSON_QUERY(j, '$.b'), ISJSON(j) FROM t",
  "SELECT * FROM OPENJSON(N'[1,2]')",
  "SELECT IIF(a > 1, 'x', 'y'), CHOOSE(1, 'a', 'b'), ISNULL(a, 0), COALESCE(a, b), NULLIF(a, 0), NEWID() FROM t",
  'SELECT a FROM t ORDER BY a OFFSET 0 ROWS FETCH NEXT 10 ROWS ONLY',
  'SELECT * FROM (SELECT a, b FROM t) s PIVOT (SUM(b) FOR a IN ([x], [y])) p',
  'SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1',
  "SELECT a FROM t WHERE a LIKE 'x%' AND EXISTS (SELECT 1 FROM u WHERE u.id = t.id)",
  "SELECT UPPER(LTRIM(RTRIM(a))), LEN(a), SUBSTRING(a, 1, 2), REPLACE(a, 'x', 'y'), ROUND(b, 2), ABS(b) FROM t",
];

const ORACLE_BUILTIN_READS: string[] = [
  'SELECT COUNT(*) FROM t',
  "SELECT NVL(a, 0), TO_CHAR(d, 'YYYY') FROM t",
  "SELECT LISTAGG(a, ',') WITHIN GROUP (ORDER BY a) FROM t",
  'SELECT MAX(a) KEEP (DENSE_RANK FIRST ORDER BY b) FROM t',
  'SELECT a FROM t FETCH FIRST 10 ROWS ONLY',
  'SELECT SYSDATE, ADD_MONTHS(SYSDATE, 1), TRUNC(SYSDATE), EXTRACT(YEAR FROM SYSDATE) FROM dual',
  "SELECT TO_DATE('2020-01-01', 'YYYY-MM-DD'), TO_NUMBER('1'), DECODE(a, 1, 'x', 'y'), NVL2(a, 1, 2) FROM t",
  'SELECT ROW_NUMBER() OVER (PARTITION BY a ORDER BY b) rn FROM t',
  "SELECT REGEXP_SUBSTR(a, '[0-9]+'), REGEXP_REPLACE(a, 'x', 'y') FROM t",
  "SELECT JSON_VALUE(j, '$.a') FROM t",
  'SELECT CAST(a AS TIMESTAMP(6)) FROM t',
  'SELECT a FROM t WHERE a IN (SELECT b FROM u) AND EXISTS (SELECT 1 FROM dual)',
  'SELECT SYSTIMESTAMP, COALESCE(a, b), GREATEST(a, b), LENGTH(a), SUBSTR(a, 1, 2) FROM t',
];

describe('SQL Server fails closed by allowlist', () => {
  it.each(MSSQL_USER_CALLS)('unverifiable: %s', (sql) => expectUnverifiable(sql, 'mssql'));
  it.each(MSSQL_BUILTIN_READS)('built-ins read: %s', async (sql) => {
    await expectRead(sql, 'mssql');
  });

  it('names the routine it cannot verify', async () => {
    const r = await classifyScript('SELECT a FROM t WHERE dbo.purge(a) = 1', 'mssql');
    expect(r.statements[0].reason).toMatch(/PURGE\(\): a quoted or qualified routine name/);
    expect((await classifyScript('SELECT evil(1)', 'mssql')).statements[0].reason).toMatch(
      /evil\(\): not on the engine allowlist/,
    );
  });

  it('an INSERT without INTO names its table, not a call; NEXT VALUE FOR writes', async () => {
    const r = await classifyScript('INSERT dbo.t (a) VALUES (1)', 'mssql');
    expect({ write: r.isWrite, guardrails: r.guardrails }).toEqual({ write: true, guardrails: [] });
    expect((await classifyScript('SELECT NEXT VALUE FOR s', 'mssql')).isWrite).toBe(true);
  });
});

describe('Oracle fails closed by allowlist', () => {
  it.each(ORACLE_USER_CALLS)('unverifiable: %s', (sql) => expectUnverifiable(sql, 'oracle'));
  it.each(ORACLE_BUILTIN_READS)('built-ins read: %s', async (sql) => {
    await expectRead(sql, 'oracle');
  });

  it('a sequence advanced by NEXTVAL is a write', async () => {
    const r = await classifyScript('SELECT s.NEXTVAL FROM dual', 'oracle');
    expect({ write: r.isWrite, guardrails: r.guardrails }).toEqual({ write: true, guardrails: [] });
  });

  it('the ordered-aggregate reading removes nothing the parser must see', async () => {
    // A subquery in the ordering, or an ordering that would pull the next line into a comment, is not taken out.
    await expectUnverifiable(
      "SELECT LISTAGG(a, ',') WITHIN GROUP (ORDER BY (SELECT x FROM hidden)) FROM t",
      'oracle',
    );
    const r = await classifyScript(
      'SELECT 1 FROM dual -- WITHIN GROUP (ORDER BY x\n, (SELECT c FROM hidden) h',
      'oracle',
    );
    expect(r.statements[0].objects.map((o) => o.name)).toContain('hidden');
  });
});
