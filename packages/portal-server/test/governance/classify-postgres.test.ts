// PostgreSQL-family classification (libpg-query): reads stay reads, every guardrail value, at least thirty
// bypass forms held, CTE writes, EXPLAIN ANALYZE, PREPARE/EXECUTE, transaction control, objects with scoping.
import { describe, expect, it } from 'vitest';
import { classifyScript, EFFECT_GUARDRAILS, GUARDRAIL_VALUES } from '../../src/governance/classify/index.js';
import { expectHeld, expectRead, PG_BYPASSES, PG_GUARDRAILS, PG_READS } from './classify-corpus.js';

describe('postgres classification', () => {
  it.each(PG_READS)('reads stay reads: %s', async (sql) => {
    await expectRead(sql, 'postgres');
  });

  it.each(PG_GUARDRAILS)('guardrail: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'postgres', held);
  });

  it('covers every guardrail value', () => {
    const covered = new Set(PG_GUARDRAILS.map(([, g]) => g));
    for (const g of GUARDRAIL_VALUES.filter((v) => !EFFECT_GUARDRAILS.includes(v)))
      expect(covered.has(g), g).toBe(true);
  });

  it('has at least thirty bypass forms', () => {
    expect(PG_BYPASSES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(PG_BYPASSES)('bypass held: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'postgres', held);
  });

  it('the same forms hold on DuckDB, which shares the grammar', async () => {
    for (const [sql, held] of PG_BYPASSES.slice(0, 12)) await expectHeld(sql, 'duckdb', held);
  });

  it('answers the exact guardrails and statement types', async () => {
    const del = await classifyScript('DELETE FROM t', 'postgres');
    expect(del.statements[0]).toMatchObject({
      kind: 'write',
      statementType: 'DELETE',
      guardrails: ['delete_without_where', 'delete'],
      doubtful: false,
    });
    const upd = await classifyScript('UPDATE t SET a = 1 WHERE id = 5', 'postgres');
    expect(upd.statements[0]).toMatchObject({ kind: 'write', statementType: 'UPDATE', guardrails: [] });
    const role = await classifyScript('DROP ROLE bob', 'postgres');
    expect(role.guardrails).toEqual(['grant', 'drop']);
  });

  it('does not call a selective WHERE always true', async () => {
    for (const where of [
      'id = 5',
      'a = b',
      't.a = u.a',
      'id > 5 AND 1 = 1',
      'x IS NULL',
      'NOT (a = a)',
      '1 = 0 OR id = 2',
    ]) {
      const r = await classifyScript(`UPDATE t SET a = 1 WHERE ${where}`, 'postgres');
      expect(r.guardrails, where).toEqual([]);
    }
    const none = await classifyScript('UPDATE t SET a = 1 WHERE false', 'postgres');
    expect(none.guardrails).toEqual([]);
  });

  it('splits scripts and classifies every statement', async () => {
    const r = await classifyScript("SELECT 1; SELECT 'a;b'; DELETE FROM t WHERE id = 3", 'postgres');
    expect(r.statements.map((s) => [s.index, s.kind, s.statementType])).toEqual([
      [0, 'read', 'SELECT'],
      [1, 'read', 'SELECT'],
      [2, 'write', 'DELETE'],
    ]);
    expect(r.statements[1].text).toBe("SELECT 'a;b'");
    expect(r).toMatchObject({ isWrite: true, guardrails: ['delete'], transactionControl: false });
  });

  it('marks doubtful readings with a reason and unplaceable reach', async () => {
    const r = await classifyScript('SELECT 1--1;DELETE FROM t', 'postgres');
    expect(r.statements).toHaveLength(1);
    expect(r.statements[0]).toMatchObject({ kind: 'write', doubtful: true });
    expect(r.statements[0].reason).toMatch(/hides a statement/);
    expect(r.statements[0].unplaceable.join()).toMatch(/cannot be read reliably/);
  });

  it('EXPLAIN runs nothing unless it ANALYZEs', async () => {
    const plain = await classifyScript('EXPLAIN DELETE FROM t', 'postgres');
    expect(plain.statements[0]).toMatchObject({ kind: 'read', statementType: 'EXPLAIN', guardrails: [] });
    expect(plain.statements[0].objects).toEqual([{ name: 't', access: 'read' }]);
    const off = await classifyScript('EXPLAIN (ANALYZE false) DELETE FROM t', 'postgres');
    expect(off.isWrite).toBe(false);
    const run = await classifyScript('EXPLAIN ANALYZE DELETE FROM t', 'postgres');
    expect(run.statements[0]).toMatchObject({ kind: 'write', statementType: 'EXPLAIN' });
    expect(run.statements[0].objects).toEqual([{ name: 't', access: 'write' }]);
  });

  it('EXECUTE inherits what PREPARE prepared, and is unplaceable', async () => {
    const r = await classifyScript('PREPARE x AS DELETE FROM t WHERE id = $1; EXECUTE x(5)', 'postgres');
    expect(r.statements[0]).toMatchObject({ statementType: 'PREPARE', guardrails: ['delete'] });
    expect(r.statements[1]).toMatchObject({
      statementType: 'EXECUTE',
      kind: 'write',
      guardrails: ['delete'],
    });
    expect(r.statements[1].unplaceable).toEqual(['EXECUTE x: runs a prepared statement']);
  });

  it('flags transaction control', async () => {
    for (const sql of [
      'BEGIN',
      'START TRANSACTION',
      'COMMIT',
      'END',
      'ROLLBACK',
      'SAVEPOINT a',
      'RELEASE a',
      'SET TRANSACTION READ ONLY',
    ]) {
      const r = await classifyScript(sql, 'postgres');
      expect(r.transactionControl, sql).toBe(true);
      expect(r.isWrite, sql).toBe(false);
    }
    const script = await classifyScript('BEGIN; DELETE FROM t WHERE id = 1; COMMIT', 'postgres');
    expect(script.transactionControl).toBe(true);
    expect(script.statements.map((s) => s.transactionControl)).toEqual([true, false, true]);
  });

  it('SET and writing functions are writes without guardrails', async () => {
    for (const sql of ["SET search_path = 'x'", "SELECT nextval('s')", 'SELECT * FROM t FOR SHARE']) {
      const r = await classifyScript(sql, 'postgres');
      expect(r.isWrite, sql).toBe(true);
      expect(r.guardrails, sql).toEqual([]);
    }
  });
});

describe('postgres objects', () => {
  const objects = async (sql: string, defaultSchema?: string) =>
    (await classifyScript(sql, 'postgres', { defaultSchema })).statements.flatMap((s) => s.objects);

  it('reads schema-qualified, quoted and aliased relations, not aliases or CTE names', async () => {
    expect(await objects('SELECT * FROM "Sales"."Orders" o JOIN public.items AS i ON i.o = o.id')).toEqual([
      { schema: 'Sales', name: 'Orders', access: 'read' },
      { schema: 'public', name: 'items', access: 'read' },
    ]);
    expect(
      await objects('WITH c AS (SELECT * FROM s.base) SELECT * FROM c JOIN (SELECT * FROM s.sub) x ON true'),
    ).toEqual([
      { schema: 's', name: 'base', access: 'read' },
      { schema: 's', name: 'sub', access: 'read' },
    ]);
  });

  it('scopes CTE names as PostgreSQL does', async () => {
    // `b` inside the first CTE is the real table: a non-recursive CTE only sees the ones before it.
    expect(await objects('WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a, b')).toEqual([
      { name: 'b', access: 'read' },
    ]);
    expect(
      await objects('SELECT * FROM secret UNION (WITH secret AS (SELECT 1) SELECT * FROM secret)'),
    ).toEqual([{ name: 'secret', access: 'read' }]);
    expect(
      await objects('WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT n + 1 FROM r) SELECT * FROM r'),
    ).toEqual([]);
  });

  it('marks write targets and fills the default schema', async () => {
    expect(await objects('INSERT INTO app.log SELECT * FROM events', 'public')).toEqual([
      { schema: 'app', name: 'log', access: 'write' },
      { schema: 'public', name: 'events', access: 'read', defaulted: true },
    ]);
    expect(await objects('WITH d AS (DELETE FROM s.t RETURNING *) SELECT * FROM d')).toEqual([
      { schema: 's', name: 't', access: 'write' },
    ]);
    expect(await objects('DROP SCHEMA s CASCADE')).toEqual([{ schema: 's', name: '*', access: 'write' }]);
    expect(await objects('GRANT SELECT ON ALL TABLES IN SCHEMA public TO bob')).toEqual([
      { schema: 'public', name: '*', access: 'write' },
    ]);
  });

  it('records unplaceable reach', async () => {
    const r = await classifyScript('CALL app.purge(); VACUUM; DO $$ BEGIN NULL; END $$', 'postgres');
    expect(r.statements.map((s) => s.unplaceable)).toEqual([
      ["CALL app.purge: a procedure's reach cannot be read"],
      ['*: reaches every object of the database'],
      ['DO: an anonymous code block'],
    ]);
  });

  it('unqualified names after SET search_path are unplaceable', async () => {
    const r = await classifyScript('SET search_path = secret; SELECT * FROM t', 'postgres', {
      defaultSchema: 'public',
    });
    expect(r.statements[1].unplaceable).toEqual(['t: name resolution was changed by an earlier statement']);
  });
});
