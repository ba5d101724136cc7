// MySQL / MariaDB classification (node-sql-parser over the engine's own lexical reading): reads, every
// guardrail value, at least thirty bypass forms including executable comments, `--` vs `#`, backslash
// escapes and stacked statements, plus objects and USE.
import { describe, expect, it } from 'vitest';
import { classifyScript, EFFECT_GUARDRAILS, GUARDRAIL_VALUES } from '../../src/governance/classify/index.js';
import { expectHeld, expectRead, MYSQL_BYPASSES, MYSQL_GUARDRAILS, MYSQL_READS } from './classify-corpus.js';

describe('mysql classification', () => {
  it.each(MYSQL_READS)('reads stay reads: %s', async (sql) => {
    await expectRead(sql, 'mysql');
  });

  it.each(MYSQL_GUARDRAILS)('guardrail: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'mysql', held);
  });

  it('covers every guardrail value', () => {
    const covered = new Set(MYSQL_GUARDRAILS.map(([, g]) => g));
    for (const g of GUARDRAIL_VALUES.filter((v) => !EFFECT_GUARDRAILS.includes(v)))
      expect(covered.has(g), g).toBe(true);
  });

  it('has at least thirty bypass forms', () => {
    expect(MYSQL_BYPASSES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(MYSQL_BYPASSES)('bypass held: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'mysql', held);
  });

  it('reads DDL keys and index targets as syntax, and still judges every call near them', async () => {
    const plain = async (sql: string) =>
      expect((await classifyScript(sql, 'mysql')).guardrails, sql).not.toContain('unverifiable');
    const unreadable = async (sql: string) =>
      expect((await classifyScript(sql, 'mysql')).guardrails, sql).toContain('unverifiable');
    await plain('CREATE TABLE t (id int, u int, PRIMARY KEY (id), FOREIGN KEY (u) REFERENCES p (id))');
    await plain('CREATE TABLE t (a int, UNIQUE KEY (a))');
    await plain('CREATE UNIQUE INDEX ix ON shop.t (a)');
    // A quoted routine named like the keyword, a call in an index expression, a call in a join condition.
    await unreadable('SELECT `key`(1)');
    await unreadable('CREATE INDEX ix ON t ((evil_fn(a)))');
    await unreadable('SELECT * FROM a JOIN b ON evil_fn(a.x) = b.y');
    await unreadable('SELECT * FROM a JOIN b ON shop.evil_fn(a.x)');
  });

  it('reads `mariadb` as mysql', async () => {
    await expectHeld('/*! DROP TABLE t */', 'mariadb' as 'mysql', 'drop');
  });

  it('treats executable comments as code and doubtful', async () => {
    const r = await classifyScript('/*!50000 DELETE FROM t */', 'mysql');
    expect(r.statements[0]).toMatchObject({ kind: 'write', doubtful: true });
    expect(r.statements[0].reason).toMatch(/executable comment/);
    // An optimizer hint is an ordinary comment.
    await expectRead('SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t', 'mysql');
  });

  it('follows MySQL comment rules: `-- ` needs a space, `#` is a comment', async () => {
    // `1--1` is arithmetic in MySQL, so the DELETE after it is a second statement.
    const dash = await classifyScript('SELECT 1--1;DELETE FROM t', 'mysql');
    expect(dash.statements[0].reason).toMatch(/more than one statement/);
    await expectRead('SELECT 1 -- real comment', 'mysql');
    await expectRead('SELECT 1 # real comment', 'mysql');
  });

  it('MySQL `||` is OR, so `id = 5 || 1` selects every row', async () => {
    const r = await classifyScript('UPDATE t SET a = 1 WHERE id = 5 || 1', 'mysql');
    expect(r.guardrails).toEqual(['update_always_true']);
    const pg = await classifyScript("UPDATE t SET a = 1 WHERE name = 'x' || 'y'", 'postgres');
    expect(pg.guardrails).toEqual([]);
  });

  it('answers statement types, objects and access', async () => {
    const r = await classifyScript('DELETE t1 FROM shop.t1 JOIN t2 ON t1.id = t2.id WHERE t2.x = 1', 'mysql');
    expect(r.statements[0]).toMatchObject({ statementType: 'DELETE', guardrails: ['delete'] });
    expect(r.statements[0].objects).toEqual([
      { schema: 'shop', name: 't1', access: 'write' },
      { name: 't2', access: 'read' },
    ]);
    const sel = await classifyScript(
      'SELECT * FROM `my db`.`t` AS x WHERE x.a IN (SELECT b FROM s.u)',
      'mysql',
    );
    expect(sel.statements[0].objects).toEqual([
      { schema: 'my db', name: 't', access: 'read' },
      { schema: 's', name: 'u', access: 'read' },
    ]);
    const cte = await classifyScript('WITH c AS (SELECT * FROM base) SELECT * FROM c', 'mysql');
    expect(cte.statements[0].objects).toEqual([{ name: 'base', access: 'read' }]);
  });

  it('GRANT on *.* is unplaceable; CALL is unplaceable', async () => {
    const g = await classifyScript("GRANT ALL ON *.* TO 'u'@'%'", 'mysql');
    expect(g.statements[0].unplaceable).toEqual(['*.*: privileges on every object']);
    const c = await classifyScript('CALL purge(1)', 'mysql');
    expect(c.statements[0]).toMatchObject({ statementType: 'CALL', kind: 'write' });
    expect(c.statements[0].unplaceable).toEqual(["CALL purge: a procedure's reach cannot be read"]);
  });

  it('USE makes later unqualified names unplaceable', async () => {
    const r = await classifyScript('USE other; SELECT * FROM t', 'mysql', { defaultSchema: 'shop' });
    expect(r.statements[0]).toMatchObject({ statementType: 'USE', kind: 'write' });
    expect(r.statements[1].unplaceable).toEqual(['t: name resolution was changed by an earlier statement']);
  });

  it('flags transaction control', async () => {
    for (const sql of [
      'START TRANSACTION',
      'BEGIN',
      'COMMIT',
      'ROLLBACK',
      'SET TRANSACTION ISOLATION LEVEL READ COMMITTED',
    ]) {
      const r = await classifyScript(sql, 'mysql');
      expect(r.transactionControl, sql).toBe(true);
      expect(r.isWrite, sql).toBe(false);
    }
    const ac = await classifyScript('SET autocommit = 0', 'mysql');
    expect(ac.transactionControl).toBe(true);
  });

  it('a splitter/lexer disagreement classifies the whole script', async () => {
    // The MariaDB-only `/*M!` form runs on MariaDB; the splitter drops it as a comment.
    const r = await classifyScript('/*M!100100 DELETE FROM t */', 'mysql');
    expect(r.isWrite).toBe(true);
    expect(r.guardrails).toContain('delete');
    expect(r.statements.at(-1)?.reason).toMatch(/splitter and the lexer disagree/);
  });
});
