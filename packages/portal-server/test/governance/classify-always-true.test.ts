// Always-true WHERE detection for UPDATE (and DELETE's "without where") across the parser families:
// literal truths, constant folds, self-comparisons, top-level OR, tautologies; selective predicates are not.
import { describe, expect, it } from 'vitest';
import { alwaysTrue, type Expr } from '../../src/governance/classify/always-true.js';
import { classifyScript, type Dialect } from '../../src/governance/classify/index.js';

const ALWAYS = [
  '1 = 1',
  'true',
  "'a' = 'a'",
  '2 > 1',
  '1 + 1 = 2',
  '3 * 2 - 1 = 5',
  'id = id',
  't.id = id',
  'NOT false',
  'NOT (1 = 0)',
  '1 IN (1)',
  '1 IN (3, 2, 1)',
  '1 IS NOT NULL',
  'id = 4 OR 1 = 1',
  '(id = 4 AND x = 2) OR 2 >= 1',
  '1 = 1 AND 2 = 2',
  'id IS NULL OR id IS NOT NULL',
  "name LIKE '%'",
  'id BETWEEN id AND id',
  '1 BETWEEN 0 AND 2',
  'NOT (id <> id)',
  'EXISTS (SELECT 1)',
  '(SELECT 1) = 1',
  "'1' = 1",
  "lower('A') = 'a'",
  'coalesce(NULL, 1) = 1',
  'abs(-1) = 1',
  "'a' <> 'A'",
];

const SELECTIVE = [
  'id = 5',
  'id = 5 AND 1 = 1',
  'a = b',
  't.id = u.id',
  'id IN (1, 2)',
  'id IS NULL',
  "name LIKE 'a%'",
  '1 = 0',
  'false',
  'NULL',
  '1 = 0 OR id = 3',
  'NOT (id = id)',
  'id IN (SELECT id FROM other)',
  'EXISTS (SELECT 1 FROM other WHERE other.id = t.id)',
  'id > 5 OR id < 3',
];

const DIALECTS: Dialect[] = ['postgres', 'mysql', 'sqlite'];

describe('always-true WHERE', () => {
  for (const dialect of DIALECTS) {
    it.each(ALWAYS)(`${dialect}: UPDATE … WHERE %s is update_always_true`, async (where) => {
      const r = await classifyScript(`UPDATE t SET a = 1 WHERE ${where}`, dialect);
      expect(r.isWrite).toBe(true);
      expect(r.guardrails).toEqual(['update_always_true']);
    });

    it.each(SELECTIVE)(`${dialect}: UPDATE … WHERE %s is not held`, async (where) => {
      const r = await classifyScript(`UPDATE t SET a = 1 WHERE ${where}`, dialect);
      expect(r.statements[0].doubtful, r.statements[0].reason).toBe(false);
      expect(r.guardrails).toEqual([]);
    });
  }

  it('an always-true DELETE counts as one without WHERE', async () => {
    const r = await classifyScript('DELETE FROM t WHERE 1 = 1 OR id = 2', 'postgres');
    expect(r.guardrails).toEqual(['delete_without_where', 'delete']);
  });

  it('evaluates the expression form directly', () => {
    const col: Expr = { k: 'col', name: 'id' };
    const o = { pipesAreOr: false };
    expect(alwaysTrue({ k: 'op', op: '=', args: [col, col] }, o)).toBe(true);
    expect(alwaysTrue({ k: 'op', op: '<>', args: [col, col] }, o)).toBe(false);
    expect(
      alwaysTrue(
        {
          k: 'op',
          op: '||',
          args: [
            { k: 'const', v: 0 },
            { k: 'const', v: 1 },
          ],
        },
        { pipesAreOr: true },
      ),
    ).toBe(true);
    expect(alwaysTrue({ k: 'func', name: 'RANDOM', args: [] }, o)).toBe(false);
    expect(alwaysTrue({ k: 'unknown' }, o)).toBe(false);
  });
});
