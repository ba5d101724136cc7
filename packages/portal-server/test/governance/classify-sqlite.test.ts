// SQLite / libSQL classification plus T-SQL spot checks and the other engines: PRAGMA read and write forms,
// at least thirty SQLite bypass forms, EXEC and dynamic SQL, and fail-closed handling of unknown engines.
import { describe, expect, it } from 'vitest';
import {
  CLASSIFIER_DIALECTS,
  classifyScript,
  type Dialect,
  dialectForEngine,
} from '../../src/governance/classify/index.js';
import {
  expectHeld,
  expectRead,
  MSSQL_HELD,
  MSSQL_READS,
  SQLITE_BYPASSES,
  SQLITE_GUARDRAILS,
  SQLITE_READS,
} from './classify-corpus.js';

describe('sqlite classification', () => {
  it.each(SQLITE_READS)('reads stay reads: %s', async (sql) => {
    await expectRead(sql, 'sqlite');
  });

  it.each(SQLITE_GUARDRAILS)('guardrail: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'sqlite', held);
  });

  it('has at least thirty bypass forms', () => {
    expect(SQLITE_BYPASSES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(SQLITE_BYPASSES)('bypass held: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'sqlite', held);
  });

  it('libsql reads like sqlite', async () => {
    await expectRead('PRAGMA table_info(t)', 'libsql');
    await expectHeld('PRAGMA journal_mode = WAL', 'libsql', 'write');
  });

  it('PRAGMA read forms name their table', async () => {
    const r = await classifyScript('PRAGMA main.table_info(orders)', 'sqlite');
    expect(r.statements[0]).toMatchObject({ statementType: 'PRAGMA', kind: 'read' });
    expect(r.statements[0].objects).toEqual([{ name: 'orders', access: 'read' }]);
    const set = await classifyScript('PRAGMA foreign_keys = OFF', 'sqlite');
    expect(set.statements[0]).toMatchObject({ statementType: 'PRAGMA', kind: 'write', doubtful: false });
  });

  it('BEGIN and COMMIT are transaction control', async () => {
    const r = await classifyScript('BEGIN IMMEDIATE; INSERT INTO t VALUES (1); COMMIT', 'sqlite');
    expect(r.statements.map((s) => s.transactionControl)).toEqual([true, false, true]);
    expect(r.isWrite).toBe(true);
  });
});

describe('mssql spot checks', () => {
  it.each(MSSQL_READS)('reads stay reads: %s', async (sql) => {
    await expectRead(sql, 'mssql');
  });

  it.each(MSSQL_HELD)('held: %s → %s', async (sql, held) => {
    await expectHeld(sql, 'mssql', held);
  });

  it('places two- and three-part names by their schema', async () => {
    const r = await classifyScript(
      'SELECT * FROM sales.dbo.orders o JOIN dbo.items i ON i.o = o.id',
      'mssql',
    );
    expect(r.statements[0].objects).toEqual([
      { schema: 'dbo', name: 'orders', access: 'read' },
      { schema: 'dbo', name: 'items', access: 'read' },
    ]);
  });

  it('EXEC is a write whose reach cannot be placed', async () => {
    const r = await classifyScript('EXEC sp_who', 'mssql');
    expect(r.statements[0]).toMatchObject({ statementType: 'CALL', kind: 'write' });
    expect(r.statements[0].unplaceable.length).toBeGreaterThan(0);
  });

  it('BEGIN TRAN is transaction control', async () => {
    const r = await classifyScript('BEGIN TRAN', 'mssql');
    expect(r).toMatchObject({ transactionControl: true, isWrite: false });
  });
});

describe('other engines', () => {
  const others: Dialect[] = [
    'oracle',
    'clickhouse',
    'trino',
    'athena',
    'cassandra',
    'druid',
    'elasticsearch',
    'opensearch',
    'couchbase',
  ];

  it.each(others)('%s: a plain SELECT reads, a DELETE and a hidden DELETE are held', async (dialect) => {
    await expectRead('SELECT a, count(*) FROM s.t WHERE x = 1 GROUP BY a', dialect);
    await expectHeld('DELETE FROM t', dialect, 'delete_without_where');
    await expectHeld('SELECT 1; DELETE FROM t WHERE id = 1', dialect, 'delete');
    await expectHeld('UPDATE t SET a = 1 WHERE 1 = 1', dialect, 'update_always_true');
    await expectHeld('DROP TABLE t', dialect, 'drop');
    await expectHeld('S\u0415LECT 1', dialect, 'write');
  });

  it('CQL ALLOW FILTERING stays a read', async () => {
    await expectRead('SELECT * FROM ks.t WHERE k = 1 ALLOW FILTERING', 'cassandra');
  });

  it('Oracle q-quoted strings hide nothing', async () => {
    await expectRead("SELECT q'[a; DELETE FROM t]' FROM dual", 'oracle');
  });

  it('an engine without a grammar fails closed', async () => {
    // (MongoDB has its own reader now: an id no engine has stands for "no grammar".)
    const r = await classifyScript('db.users.find({})', 'nosuchengine' as Dialect);
    expect(r).toMatchObject({ isWrite: true });
    expect(r.statements[0]).toMatchObject({ doubtful: true, statementType: 'UNKNOWN', kind: 'write' });
    const drop = await classifyScript('DROP TABLE t', 'nosuchengine' as Dialect);
    expect(drop.guardrails).toEqual(['drop']);
  });

  it('maps engine ids to dialects', () => {
    expect(CLASSIFIER_DIALECTS).toHaveLength(15);
    expect(dialectForEngine('postgres')).toBe('postgres');
    expect(dialectForEngine('mariadb')).toBe('mysql');
    expect(dialectForEngine('mongodb')).toBeUndefined();
  });

  it('an empty script has no statements and does not write', async () => {
    const r = await classifyScript('  -- nothing\n', 'postgres');
    expect(r).toEqual({ statements: [], isWrite: false, guardrails: [], transactionControl: false });
  });
});
