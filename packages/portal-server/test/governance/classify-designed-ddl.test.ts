// SQL Server's and Oracle's classifiers read the table designer's own DDL as the plain write it is
// (governance/classify/designed-ddl.ts) and stay fail closed around it: a call anywhere (a default, a
// computed column, a CHECK, an index expression), EXEC and dynamic SQL, OPENROWSET/OPENQUERY/OPENDATASOURCE,
// `xp_`/`sp_` routines, PL/SQL blocks, DBMS_/UTL_ packages, EXECUTE IMMEDIATE, database links, quoted names
// where keywords belong, keyword and system-routine names, comments and alternative quoting: each one holds
// the statement as `unverifiable`.
import { describe, expect, it } from 'vitest';
import { classifyScript, type Dialect } from '../../src/governance/classify/index.js';
import { expectUnverifiable } from './classify-corpus.js';

const MSSQL_ATTACKS: string[] = [
  'CREATE TABLE t ([a] int DEFAULT dbo.evil())',
  'CREATE TABLE t ([a] datetime DEFAULT GETDATE())',
  'CREATE TABLE t ([a] int DEFAULT (NEXT VALUE FOR s))',
  'CREATE TABLE t ([a] int, [b] AS (dbo.f([a])))',
  'CREATE TABLE t ([a] int, [b] AS [a] * 2)',
  'CREATE TABLE t ([a] int CHECK (dbo.f([a]) = 1))',
  'CREATE TABLE t ([a] int, CONSTRAINT [c] CHECK ([a] > 0))',
  'CREATE TABLE t ([a] int DEFAULT (SELECT TOP 1 x FROM secret))',
  "CREATE TABLE t ([a] int DEFAULT 1; EXEC xp_cmdshell 'dir')",
  "CREATE TABLE t ([a] int DEFAULT 1)\nGO\nEXEC xp_cmdshell 'dir'",
  "CREATE TABLE t ([a] int DEFAULT 1) EXEC xp_cmdshell 'dir'",
  "CREATE TABLE t ([a] int DEFAULT 1) EXEC('DROP TABLE x')",
  "CREATE TABLE t ([a] int) ; EXEC sp_executesql N'DROP TABLE x'",
  'CREATE TABLE t ([a] [int])',
  'CREATE TABLE t ([a] dbo.mytype)',
  'CREATE TABLE t ([a] int /* ; DROP TABLE x */ NOT NULL)',
  'CREATE TABLE t ([a] int -- DROP TABLE x\n NOT NULL)',
  'CREATE TABLE t ([a] int /* /* */ DEFAULT 1 */ NOT NULL)',
  'CREATE TABLE t ([a] int [NOT] NULL)',
  'CREATE TABLE t ([a] int "DEFAULT" 1)',
  'CREATE TABLE t ([EXEC] int)',
  'CREATE TABLE [xp_cmdshell] ([a] int)',
  'CREATE TABLE t ([a] int) AS SELECT * FROM secret',
  'CREATE TABLE t ([a] int IDENTITY(1,1))',
  'CREATE TABLE t ([a] nvarchar(max))',
  'CREATE TABLE t ([a] int COLLATE Latin1_General_CI_AS)',
  'CREATE TABLE srv.db.dbo.t ([a] int)',
  'CREATE TABLE t ([a] int) ON [PRIMARY]',
  "CREATE TABLE t ([a] int DEFAULT OPENROWSET('SQLNCLI', 'Server=x;', 'SELECT 1'))",
  "CREATE TABLE t ([a] int, FOREIGN KEY ([a]) REFERENCES OPENQUERY(srv, 'SELECT 1') ([a]))",
  "CREATE TABLE t ([a] int, FOREIGN KEY ([a]) REFERENCES OPENDATASOURCE('SQLNCLI', 'x').db.dbo.t ([a]))",
  'CREATE TABLE #t ([a] int DEFAULT dbo.f())',
  'CREATE TABLE t ([a] int DEFAULT @v)',
  'CREATE TABLE t ([a] int DEFAULT 0x41)',
  'CREATE INDEX [ix] ON [t] (dbo.f([a]))',
  'CREATE INDEX [ix] ON [t] ([a]) WHERE dbo.f([a]) = 1',
  'CREATE INDEX [ix] ON [t] ([a]) INCLUDE ([b]) WITH (DROP_EXISTING = ON)',
  'ALTER TABLE t ADD [b] AS dbo.f([a])',
  'ALTER TABLE t ADD [b] int DEFAULT dbo.f()',
  'ALTER TABLE t ADD CONSTRAINT [c] DEFAULT dbo.f() FOR [a]',
  'ALTER TABLE t ADD CONSTRAINT [c] CHECK (dbo.f([a]) = 1)',
  "ALTER TABLE t ALTER COLUMN [a] int NOT NULL; EXEC sp_configure 'xp_cmdshell', 1",
  'ALTER TABLE t ALTER COLUMN [a] dbo.mytype NULL',
  'ALTER TABLE t SWITCH TO secret',
  "EXEC sp_rename N'[dbo].[t].[a]', N'b', N'COLUMN'",
  "EXECUTE ('CREATE TABLE t ([a] int)')",
  "EXEC sp_executesql N'CREATE TABLE t ([a] int)'",
  "EXEC xp_cmdshell 'dir'",
  "EXEC master..xp_dirtree 'c:\\'",
  "SELECT * FROM OPENROWSET('SQLNCLI', 'Server=x;', 'SELECT 1')",
  "SELECT * FROM OPENQUERY(srv, 'DELETE FROM t')",
];

const ORACLE_ATTACKS: string[] = [
  'CREATE TABLE t ("a" NUMBER DEFAULT evil())',
  'CREATE TABLE t ("a" DATE DEFAULT SYSDATE)',
  'CREATE TABLE t ("a" VARCHAR2(30) DEFAULT USER)',
  'CREATE TABLE t ("a" NUMBER DEFAULT s.NEXTVAL)',
  'CREATE TABLE t ("a" NUMBER DEFAULT dbms_random.value)',
  'CREATE TABLE t ("a" NUMBER DEFAULT pkg.f("b"))',
  'CREATE TABLE t ("a" NUMBER, "b" NUMBER GENERATED ALWAYS AS (f("a")) VIRTUAL)',
  'CREATE TABLE t ("a" NUMBER, "b" AS (f("a")))',
  'CREATE TABLE t ("a" NUMBER CHECK (f("a") = 1))',
  'CREATE TABLE t ("a" NUMBER, FOREIGN KEY ("a") REFERENCES "u"@remote ("a"))',
  'CREATE TABLE t ("a" NUMBER, FOREIGN KEY ("a") REFERENCES u@remote ("a"))',
  'CREATE TABLE t@remote ("a" NUMBER)',
  'CREATE TABLE t AS SELECT * FROM secret@remote',
  'CREATE TABLE t ("a" NUMBER) TABLESPACE users',
  'CREATE TABLE t ("a" NUMBER GENERATED ALWAYS AS IDENTITY)',
  'CREATE TABLE t ("a" "NUMBER")',
  'CREATE TABLE t ("a" NUMBER "NOT" NULL)',
  'CREATE TABLE t ("a" NUMBER /* ; DROP TABLE x */ NOT NULL)',
  'CREATE TABLE t ("a" NUMBER DEFAULT q\'[x]\' NOT NULL)',
  'CREATE TABLE t ("a" NUMBER DEFAULT :x)',
  'CREATE TABLE "DBMS_SQL" ("a" NUMBER)',
  'CREATE TABLE t ("EXECUTE" NUMBER)',
  'CREATE INDEX "ix" ON t (UPPER("a"))',
  'CREATE INDEX "ix" ON t ("a") TABLESPACE users',
  'ALTER TABLE t ADD ("b" NUMBER DEFAULT f())',
  'ALTER TABLE t ADD "b" NUMBER DEFAULT f()',
  'ALTER TABLE t MODIFY ("a" DEFAULT f())',
  'ALTER TABLE t MODIFY ("a" DEFAULT SYSDATE)',
  'ALTER TABLE t ADD CONSTRAINT "c" CHECK (f("a") = 1)',
  'BEGIN EXECUTE IMMEDIATE \'CREATE TABLE t ("a" NUMBER)\'; END;',
  'DECLARE x NUMBER; BEGIN DELETE FROM t; END;',
  'BEGIN dbms_sql.execute(1); END;',
  "CALL dbms_utility.exec_ddl_statement('DROP TABLE t')",
  "EXECUTE IMMEDIATE 'DROP TABLE t'",
  'CREATE OR REPLACE PROCEDURE p AS BEGIN DELETE FROM t; END;',
  "SELECT dbms_xmlgen.getxml('SELECT * FROM secret') FROM dual",
  'SELECT * FROM secret@remote',
];

/** Hand-written statements of the designer's forms: plain writes, nothing held. */
const MSSQL_DESIGNED: string[] = [
  "CREATE TABLE [dbo].[t] ([id] int NOT NULL, [n] nvarchar(20) NULL DEFAULT N'it''s', [at] datetime2 DEFAULT CURRENT_TIMESTAMP, [d] decimal(10,2) DEFAULT -1.5, CONSTRAINT [pk_t] PRIMARY KEY ([id]))",
  'CREATE TABLE t (id int PRIMARY KEY, u int UNIQUE, CONSTRAINT fk FOREIGN KEY (u) REFERENCES dbo.c (id) ON DELETE SET NULL ON UPDATE NO ACTION)',
  'ALTER TABLE [dbo].[t] ADD [x] bit NOT NULL DEFAULT 0',
  'ALTER TABLE [dbo].[t] ALTER COLUMN [x] varchar(10) NULL',
  'ALTER TABLE [dbo].[t] ADD CONSTRAINT [u_x] UNIQUE ([x] DESC)',
  'ALTER TABLE [dbo].[t] DROP CONSTRAINT [u_x]',
  'CREATE UNIQUE INDEX [ix] ON [dbo].[t] ([a], [b] DESC)',
];
const ORACLE_DESIGNED: string[] = [
  'CREATE TABLE "S"."t" ("id" NUMBER(10) NOT NULL, "at" TIMESTAMP WITH LOCAL TIME ZONE DEFAULT CURRENT_TIMESTAMP, "d" DATE DEFAULT CURRENT_DATE, "n" VARCHAR2(20) DEFAULT \'x\' NOT NULL, PRIMARY KEY ("id"))',
  'ALTER TABLE "S"."t" MODIFY ("n" DEFAULT NULL)',
  'ALTER TABLE "S"."t" MODIFY ("n" NVARCHAR2(40))',
  'ALTER TABLE "S"."t" RENAME TO "u"',
  'ALTER TABLE "S"."t" RENAME COLUMN "n" TO "m"',
  'CREATE INDEX "S"."ix" ON "S"."t" ("n")',
];

const expectPlainWrite = async (sql: string, dialect: Dialect) => {
  const r = await classifyScript(sql, dialect);
  expect({ sql, reason: r.statements[0].reason, guardrails: r.guardrails, write: r.isWrite }).toEqual({
    sql,
    reason: undefined,
    guardrails: [],
    write: true,
  });
};

describe('designed DDL on SQL Server and Oracle', () => {
  it.each(MSSQL_DESIGNED)('mssql plain DDL write: %s', (sql) => expectPlainWrite(sql, 'mssql'));
  it.each(ORACLE_DESIGNED)('oracle plain DDL write: %s', (sql) => expectPlainWrite(sql, 'oracle'));

  it('a dropped column keeps the drop guardrail and nothing else', async () => {
    for (const [sql, dialect] of [
      ['ALTER TABLE [dbo].[t] DROP COLUMN [x]', 'mssql'],
      ['ALTER TABLE "S"."t" DROP COLUMN "x"', 'oracle'],
    ] as const)
      expect((await classifyScript(sql, dialect)).guardrails).toEqual(['drop']);
  });

  it('has at least forty attack forms per engine family', () => {
    expect(MSSQL_ATTACKS.length + ORACLE_ATTACKS.length).toBeGreaterThanOrEqual(80);
  });

  it.each(MSSQL_ATTACKS)('mssql held as unverifiable: %s', (sql) => expectUnverifiable(sql, 'mssql'));
  it.each(ORACLE_ATTACKS)('oracle held as unverifiable: %s', (sql) => expectUnverifiable(sql, 'oracle'));

  it('the designed forms of one engine are not read on the other', async () => {
    // T-SQL's ALTER COLUMN is not Oracle's, Oracle's MODIFY and RENAME are not T-SQL's.
    await expectUnverifiable('ALTER TABLE "S"."t" ALTER COLUMN "x" NUMBER NULL', 'oracle');
    await expectUnverifiable('ALTER TABLE [dbo].[t] MODIFY ([x] int)', 'mssql');
  });
});
