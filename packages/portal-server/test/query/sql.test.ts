// Pure rules, table-driven: script splitting, transaction-control detection, parser-decided auto-limit,
// placeholders per statement, identifier quoting, export serialisation, connection identity and descriptor checks.
import { describe, expect, it } from 'vitest';
import { csvWriter, jsonWriter, sqlLiteral, sqlWriter } from '../../src/http/export-formats.js';
import { embeddedPath, resolveTimeouts } from '../../src/providers/descriptor.js';
import { connectionIdentity } from '../../src/providers/identity.js';
import { type Dialect, sqlDialect } from '../../src/providers/registry.js';
import { normalizeSsl, tlsOptions } from '../../src/providers/ssl.js';
import { jsonValue, uniqueFields } from '../../src/providers/values.js';
import { analyzeStatement } from '../../src/sql/analyze.js';
import { planLimit } from '../../src/sql/limit.js';
import { paramsForStatement } from '../../src/sql/placeholders.js';
import { quoteQualified, splitQualified } from '../../src/sql/quote.js';
import { splitScript } from '../../src/sql/split.js';
import { transactionControlKeyword } from '../../src/sql/transaction-control.js';

describe('splitScript', () => {
  it.each<[Dialect, string, string[]]>([
    ['postgres', "SELECT ';'; -- only a comment\n", ["SELECT ';'"]],
    ['postgres', 'DO $$ BEGIN PERFORM 1; END $$; SELECT 2', ['DO $$ BEGIN PERFORM 1; END $$', 'SELECT 2']],
    ['postgres', 'SELECT 1 --1;DELETE FROM t\n;SELECT 2', ['SELECT 1 --1;DELETE FROM t', 'SELECT 2']],
    [
      'mysql',
      'SELECT 1; CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END; SELECT 3',
      ['SELECT 1', 'CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2; END', 'SELECT 3'],
    ],
    ['mysql', "SELECT 'a\\';b'; SELECT 2", ["SELECT 'a\\';b'", 'SELECT 2']],
    ['mssql', 'SELECT 1\nGO\nSELECT 2; SELECT 3', ['SELECT 1', 'SELECT 2', 'SELECT 3']],
    [
      'oracle',
      'SELECT 1 FROM dual; BEGIN NULL; END;\n/\nSELECT 2 FROM dual',
      ['SELECT 1 FROM dual', 'BEGIN NULL; END;', 'SELECT 2 FROM dual'],
    ],
    ['sqlite', '/* a */ ; ;', []],
  ])('%s: %j', (dialect, sql, expected) => {
    expect(splitScript(sqlDialect(dialect), sql)).toEqual(expected);
  });
});

describe('transactionControlKeyword', () => {
  it.each<[Dialect, string, string | null]>([
    ['postgres', 'BEGIN', 'BEGIN'],
    ['postgres', 'begin isolation level serializable', 'BEGIN'],
    ['postgres', '-- note\n/* x */ commit', 'COMMIT'],
    ['postgres', 'END', 'END'],
    ['postgres', 'ABORT', 'ABORT'],
    ['postgres', 'start transaction read only', 'START TRANSACTION'],
    ['postgres', 'SAVEPOINT a', 'SAVEPOINT'],
    ['postgres', 'RELEASE SAVEPOINT a', 'RELEASE'],
    ['postgres', 'ROLLBACK TO SAVEPOINT a', 'ROLLBACK'],
    ['postgres', "PREPARE TRANSACTION 'x'", 'PREPARE TRANSACTION'],
    ['postgres', "SELECT 'COMMIT'", null],
    ['postgres', 'DO $$ BEGIN COMMIT; END $$', null],
    ['postgres', 'PREPARE q AS SELECT 1', null],
    ['mysql', 'BEGIN', 'BEGIN'],
    ['mysql', 'BEGIN WORK', 'BEGIN'],
    ['mysql', 'BEGIN NOT ATOMIC SELECT 1; END', null],
    ['mysql', 'SET autocommit = 0', 'SET autocommit'],
    ['mysql', 'set @@session.autocommit=0', 'SET autocommit'],
    ['mysql', 'SET @autocommit_like = 1', null],
    ['mysql', "XA START 'x'", 'XA'],
    ['mssql', 'BEGIN TRAN', 'BEGIN TRAN'],
    ['mssql', 'BEGIN TRANSACTION t1', 'BEGIN TRANSACTION'],
    ['mssql', 'BEGIN TRY SELECT 1 END TRY BEGIN CATCH END CATCH', null],
    ['mssql', 'SAVE TRANSACTION s', 'SAVE TRANSACTION'],
    ['mssql', 'SET IMPLICIT_TRANSACTIONS ON', 'SET IMPLICIT_TRANSACTIONS'],
    ['oracle', 'BEGIN NULL; END;', null],
    ['oracle', 'COMMIT', 'COMMIT'],
    ['oracle', 'SET TRANSACTION READ ONLY', 'SET TRANSACTION'],
    ['sqlite', 'END TRANSACTION', 'END'],
    ['duckdb', 'BEGIN TRANSACTION', 'BEGIN'],
  ])('%s: %s → %s', (dialect, sql, expected) => {
    expect(transactionControlKeyword(sqlDialect(dialect), sql)).toBe(expected);
  });
});

describe('auto-limit decided by the parser', () => {
  it.each<[Dialect, string, string | null]>([
    ['postgres', 'SELECT * FROM t', 'SELECT * FROM t\nLIMIT 501'],
    ['postgres', 'SELECT * FROM t -- trailing comment', 'SELECT * FROM t -- trailing comment\nLIMIT 501'],
    ['postgres', 'SELECT 1 UNION SELECT 2', 'SELECT 1 UNION SELECT 2\nLIMIT 501'],
    ['postgres', 'WITH x AS (SELECT 1) SELECT * FROM x', 'WITH x AS (SELECT 1) SELECT * FROM x\nLIMIT 501'],
    ['postgres', 'VALUES (1), (2)', 'VALUES (1), (2)\nLIMIT 501'],
    ['postgres', 'SELECT * FROM t LIMIT 5', null],
    ['postgres', 'SELECT * FROM t OFFSET 5', null],
    ['postgres', 'SELECT * FROM t FETCH FIRST 5 ROWS ONLY', null],
    ['postgres', 'SELECT * FROM t FOR UPDATE', null],
    ['postgres', 'SELECT * INTO t2 FROM t', null],
    ['postgres', 'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', null],
    ['postgres', 'UPDATE t SET a = 1', null],
    ['postgres', 'SELEC broken', null],
    ['duckdb', 'SELECT * FROM range(10)', 'SELECT * FROM range(10)\nLIMIT 501'],
    ['mysql', 'SELECT * FROM t', 'SELECT * FROM t\nLIMIT 501'],
    ['mysql', 'SELECT * FROM t LIMIT 5', null],
    ['mysql', 'SELECT 1 UNION SELECT 2 LIMIT 1', null],
    ['mysql', 'SELECT * FROM t FOR UPDATE', null],
    ['mysql', 'SELECT a INTO @x FROM t', null],
    ['mysql', 'SHOW TABLES', null],
    ['sqlite', 'SELECT * FROM t', 'SELECT * FROM t\nLIMIT 501'],
    [
      'mssql',
      'SELECT * FROM t',
      'SELECT * FROM t\nORDER BY (SELECT NULL) OFFSET 0 ROWS FETCH NEXT 501 ROWS ONLY',
    ],
    [
      'mssql',
      'SELECT * FROM t ORDER BY a',
      'SELECT * FROM t ORDER BY a\nOFFSET 0 ROWS FETCH NEXT 501 ROWS ONLY',
    ],
    ['mssql', 'SELECT TOP 5 * FROM t', null],
    ['oracle', 'SELECT * FROM t', 'SELECT * FROM t\nOFFSET 0 ROWS FETCH NEXT 501 ROWS ONLY'],
    ['oracle', 'SELECT * FROM t FETCH FIRST 5 ROWS ONLY', null],
  ])('%s: %s', async (dialect, sql, expected) => {
    const plan = await planLimit(sqlDialect(dialect), sql, 500, 0);
    expect(plan.injected).toBe(expected !== null);
    expect(plan.sql).toBe(expected ?? sql);
  });

  it('pages with an offset', async () => {
    expect((await planLimit(sqlDialect('postgres'), 'SELECT 1', 100, 200)).sql).toBe(
      'SELECT 1\nLIMIT 101 OFFSET 200',
    );
    expect((await planLimit(sqlDialect('mssql'), 'SELECT 1', 100, 200)).sql).toBe(
      'SELECT 1\nORDER BY (SELECT NULL) OFFSET 200 ROWS FETCH NEXT 101 ROWS ONLY',
    );
  });

  it('never reads an unparseable statement as a read', async () => {
    expect(await analyzeStatement(sqlDialect('mysql'), 'SELECT 1; DELETE FROM t')).toMatchObject({
      kind: 'unknown',
      readOnly: false,
    });
    expect(await analyzeStatement(sqlDialect('postgres'), 'SELECT 1; SELECT 2')).toMatchObject({
      kind: 'unknown',
      readOnly: false,
    });
    expect(await analyzeStatement(sqlDialect('postgres'), 'SELECT * FROM t')).toEqual({
      kind: 'select',
      readOnly: true,
      hasLimit: false,
      hasOrderBy: false,
    });
  });
});

describe('paramsForStatement', () => {
  it('gives each statement the values its placeholders name', () => {
    expect(paramsForStatement(sqlDialect('postgres'), '$n', 'SELECT $2, $1', [1, 2, 3])).toEqual([1, 2]);
    expect(paramsForStatement(sqlDialect('postgres'), '$n', "SELECT '$1'", [1])).toEqual([]);
    expect(paramsForStatement(sqlDialect('mysql'), '?', 'SELECT ?, ? -- ?', ['a', 'b', 'c'])).toEqual([
      'a',
      'b',
    ]);
    expect(paramsForStatement(sqlDialect('oracle'), ':n', 'SELECT :1 FROM dual', ['a', 'b'])).toEqual(['a']);
    expect(paramsForStatement(sqlDialect('mssql'), '@pn', 'SELECT @p3', [1, 2, 3, 4])).toEqual([1, 2, 3]);
  });
});

describe('quoting', () => {
  it('splits dotted names outside quotes and quotes each part', () => {
    expect(splitQualified('a.b')).toEqual(['a', 'b']);
    expect(splitQualified('"a.b".c')).toEqual(['a.b', 'c']);
    expect(splitQualified('[s].[t]]x]')).toEqual(['s', 't]x']);
    expect(quoteQualified(sqlDialect('postgres'), 'public."we""ird"')).toBe('"public"."we""ird"');
    expect(quoteQualified(sqlDialect('mysql'), 'db.t`x')).toBe('`db`.`t``x`');
    expect(quoteQualified(sqlDialect('mssql'), 'dbo.t]x')).toBe('[dbo].[t]]x]');
    expect(() => quoteQualified(sqlDialect('postgres'), 'a..b')).toThrow();
  });
});

describe('export serialisation', () => {
  it('quotes CSV fields per RFC 4180', () => {
    const w = csvWriter(',');
    expect(w.head(['a', 'b,c'], undefined)).toBe('a,"b,c"\r\n');
    expect(w.rows([['x"y', 'line\nnext', null, 1.5, true, { k: 'v' }, 'plain', ' padded ', 'cr\r']])).toBe(
      '"x""y","line\nnext",,1.5,true,"{""k"":""v""}",plain, padded ,"cr\r"\r\n',
    );
    expect(csvWriter('\t').rows([['a\tb', 'c,d']])).toBe('"a\tb"\tc,d\r\n');
    expect(csvWriter('|').rows([['a|b']])).toBe('"a|b"\r\n');
  });

  it('writes JSON arrays and SQL literals per dialect', () => {
    const j = jsonWriter();
    const text =
      j.head(['a', 'b'], undefined) +
      j.rows([
        [1, 'x'],
        [Buffer.from([1, 255]), null],
      ]) +
      j.tail();
    expect(JSON.parse(text)).toEqual([
      { a: 1, b: 'x' },
      { a: '0x01ff', b: null },
    ]);
    expect(sqlLiteral(sqlDialect('postgres'), "it's")).toBe("'it''s'");
    expect(sqlLiteral(sqlDialect('mysql'), 'back\\slash')).toBe("'back\\\\slash'");
    expect(sqlLiteral(sqlDialect('mssql'), true)).toBe('1');
    expect(sqlLiteral(sqlDialect('postgres'), true)).toBe('TRUE');
    expect(sqlLiteral(sqlDialect('postgres'), 12345678901234567890n)).toBe("'12345678901234567890'");
    const ddl = sqlWriter(sqlDialect('mysql'), 't', true);
    expect(ddl.head(['id', 'v'], ['INT', 'weird;type'])).toBe(
      'CREATE TABLE `t` (\n  `id` INT,\n  `v` TEXT\n);\n\n',
    );
    expect(ddl.rows([[1, null]])).toBe('INSERT INTO `t` (`id`, `v`) VALUES (1, NULL);\n');
  });
});

describe('connection identity and descriptors', () => {
  const base = { id: 'a', type: 'postgres', host: 'h', port: 5432, user: 'u', password: 'p', database: 'd' };
  it('hashes every field the server reads, in any key order, and nothing else', () => {
    const id = connectionIdentity(base);
    expect(
      connectionIdentity({
        database: 'd',
        password: 'p',
        user: 'u',
        port: 5432,
        host: 'h',
        type: 'postgres',
        id: 'a',
      }),
    ).toBe(id);
    expect(connectionIdentity({ ...base, color: 'red', group: 'g', environment: 'production' })).toBe(id);
    for (const change of [
      { password: 'q' },
      { host: 'h2' },
      { queryTimeout: 500 },
      { ssl: true },
      { sshProfile: 'b' },
      { schema: 's' },
      { agentPassword: 'x' },
      { region: 'eu-west-2' },
      { workgroup: 'w2' },
      { outputLocation: 's3://other' },
      { endpoint: 'http://127.0.0.1:9' },
    ]) {
      expect(connectionIdentity({ ...base, ...change }), JSON.stringify(change)).not.toBe(id);
    }
  });

  it('resolves timeouts with the spec bounds', () => {
    expect(resolveTimeouts(base)).toEqual({ queryTimeoutMs: 60000, connectTimeoutMs: 10000 });
    expect(resolveTimeouts({ ...base, queryTimeout: 2147483647 }).queryTimeoutMs).toBe(2147483647);
    for (const bad of [0, -1, 2147483648, 1.5, '100'])
      expect(() => resolveTimeouts({ ...base, queryTimeout: bad as number })).toThrow();
  });

  it('keeps embedded files inside the portal folder unless privileged', () => {
    expect(embeddedPath('a.db', '/data/db', false)).toBe('/data/db/a.db');
    expect(embeddedPath('sub/a.db', '/data/db', false)).toBe('/data/db/sub/a.db');
    expect(embeddedPath(':memory:', '/data/db', false)).toBe(':memory:');
    expect(() => embeddedPath('/etc/x.db', '/data/db', false)).toThrow();
    expect(() => embeddedPath('../portal.db', '/data/db', false)).toThrow();
    expect(embeddedPath('/srv/x.db', '/data/db', true)).toBe('/srv/x.db');
    expect(() => embeddedPath('', '/data/db', true)).toThrow();
  });

  it('maps SSL options to TLS settings', () => {
    expect(normalizeSsl(true)).toEqual({ mode: 'require' });
    expect(normalizeSsl({ mode: 'disable' })).toBeUndefined();
    expect(() => normalizeSsl({ mode: 'bogus' as 'require' })).toThrow();
    expect(tlsOptions({ mode: 'require' }, 'db')).toMatchObject({
      rejectUnauthorized: false,
      servername: 'db',
    });
    expect(tlsOptions({ mode: 'verify-full', ca: 'PEM' }, 'db')).toMatchObject({
      rejectUnauthorized: true,
      ca: 'PEM',
    });
  });

  it('makes result values and field names safe', () => {
    expect(uniqueFields(['id', 'id', 'name', 'id (2)', 'id'])).toEqual([
      'id',
      'id (3)',
      'name',
      'id (2)',
      'id (4)',
    ]);
    expect(jsonValue(2n ** 60n)).toBe('1152921504606846976');
    expect(jsonValue(5n)).toBe(5);
    expect(jsonValue(Number.NaN)).toBe('NaN');
  });
});
