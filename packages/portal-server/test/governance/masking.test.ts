// Masking rules and column lineage, without a database: values under full/partial/hash, which rules apply to
// a statement, and which output columns carry masked values through aliases, expressions, subqueries, CTEs,
// set operations and whole-row values, on the PostgreSQL parser and on node-sql-parser dialects.
import { describe, expect, it } from 'vitest';
import { classifyScript, type Dialect } from '../../src/governance/classify/index.js';
import { applicableRules, maskValue, mentionsMasked, statementMasker } from '../../src/governance/masking.js';
import { MASKING_KEY } from './policy-harness.js';

const RULES = [
  { column: 'users.email', rule: 'partial' as const },
  { column: 'users.ssn', rule: 'full' as const },
  { column: '*.phone', rule: 'hash' as const },
];

describe('maskValue', () => {
  it('full, partial and hash; nulls stay null', () => {
    expect(maskValue('secret', 'full', MASKING_KEY)).toBe('****');
    expect(maskValue(42, 'full', MASKING_KEY)).toBe('****');
    expect(maskValue(null, 'full', MASKING_KEY)).toBeNull();
    expect(maskValue('alice@example.com', 'partial', MASKING_KEY)).toBe('a***@example.com');
    expect(maskValue('4111111111111111', 'partial', MASKING_KEY)).toBe('****1111');
    expect(maskValue('abc', 'partial', MASKING_KEY)).toBe('a***');
    expect(maskValue('x', 'partial', MASKING_KEY)).toBe('****');
    const h1 = maskValue('+1 555 0100', 'hash', MASKING_KEY);
    expect(h1).toMatch(/^hash:[0-9a-f]{16}$/);
    expect(maskValue('+1 555 0100', 'hash', MASKING_KEY)).toBe(h1);
    expect(maskValue('+1 555 0100', 'hash', Buffer.alloc(32, 1))).not.toBe(h1);
    expect(maskValue({ a: 1 }, 'full', MASKING_KEY)).toBe('****');
  });
});

async function fieldRules(sql: string, fields: string[], dialect: Dialect = 'postgres') {
  const c = await classifyScript(sql, dialect);
  const m = await statementMasker(RULES, dialect, c.statements[0], MASKING_KEY, c.statements[0].text);
  return m.rulesFor(fields);
}

describe('which rules apply', () => {
  it('table rules when the table is reached (or the reach is unknown); star rules always', async () => {
    const reach = async (sql: string) => [
      ...applicableRules(RULES, (await classifyScript(sql, 'postgres')).statements[0]).keys(),
    ];
    expect(await reach('SELECT email FROM orders')).toEqual(['phone']);
    expect((await reach('SELECT email FROM public.users')).sort()).toEqual(['email', 'phone', 'ssn']);
    expect((await reach('SELECT $$;DELETE FROM t;$$, email FROM orders')).sort()).toEqual([
      'email',
      'phone',
      'ssn',
    ]);
    expect(
      applicableRules(
        [{ column: 'crm.users.email', rule: 'full' }],
        (await classifyScript('SELECT * FROM app.users', 'postgres')).statements[0],
      ).size,
    ).toBe(0);
  });
});

describe('column lineage (PostgreSQL parser)', () => {
  const cases: Array<[string, string[], Array<string | undefined>]> = [
    ['SELECT id, email FROM users', ['id', 'email'], [undefined, 'partial']],
    ['SELECT * FROM users', ['id', 'email', 'ssn', 'phone'], [undefined, 'partial', 'full', 'hash']],
    ['SELECT email AS contact, id FROM users', ['contact', 'id'], ['partial', undefined]],
    ['SELECT upper(email), lower(name) FROM users', ['upper', 'lower'], ['partial', undefined]],
    ['SELECT ssn || email AS x FROM users', ['x'], ['full']],
    ['SELECT x FROM (SELECT email AS x FROM users) s', ['x'], ['partial']],
    ['SELECT y FROM (SELECT email FROM users) s(y)', ['y'], ['partial']],
    ['WITH c(k) AS (SELECT ssn FROM users) SELECT k AS z FROM c', ['z'], ['full']],
    ['WITH c AS (SELECT email AS e FROM users) SELECT * FROM c', ['e'], ['partial']],
    ['SELECT id FROM orders UNION SELECT ssn FROM users', ['id'], ['full']],
    ['SELECT (SELECT email FROM users LIMIT 1) AS first', ['first'], ['partial']],
    ['SELECT row_to_json(u) AS j FROM users u', ['j'], ['full']],
    ['SELECT u FROM users u', ['u'], ['full']],
    ['SELECT min(email), count(*) FROM users GROUP BY name', ['min', 'count'], ['partial', undefined]],
    ['SELECT CASE WHEN ssn IS NULL THEN 0 ELSE 1 END AS has FROM users', ['has'], ['full']],
    ['SELECT phone FROM contacts', ['phone'], ['hash']],
    ['SELECT id, name FROM users WHERE email LIKE $1', ['id', 'name'], [undefined, undefined]],
    ['DELETE FROM users WHERE id = 1 RETURNING email', ['email'], ['partial']],
    ['UPDATE users SET name = name WHERE id = 1 RETURNING ssn AS s', ['s'], ['full']],
    ['SELECT *, email AS e2 FROM users', ['id', 'email', 'e2'], [undefined, 'partial', 'partial']],
    // Repeated names arrive as `email (2)`.
    ['SELECT email, email FROM users', ['email', 'email (2)'], ['partial', 'partial']],
  ];
  it.each(cases)('%s', async (sql, fields, expected) => {
    expect(await fieldRules(sql, fields)).toEqual(expected);
  });

  it('masks every column when an unnamed expression over a masked column sits next to a star', async () => {
    expect(await fieldRules('SELECT *, 1 + length(email) FROM users', ['id', 'name', '?column?'])).toEqual([
      'partial',
      'partial',
      'partial',
    ]);
  });
});

describe('column lineage (node-sql-parser dialects)', () => {
  const cases: Array<[Dialect, string, string[], Array<string | undefined>]> = [
    ['mysql', 'SELECT id, email FROM users', ['id', 'email'], [undefined, 'partial']],
    ['mysql', 'SELECT UPPER(email) FROM users', ['UPPER(email)'], ['partial']],
    ['mysql', 'SELECT x FROM (SELECT email AS x FROM users) s', ['x'], ['partial']],
    ['mysql', 'SELECT CONCAT(ssn, "") AS a, id FROM users', ['a', 'id'], ['full', undefined]],
    ['mysql', 'SELECT id FROM orders UNION SELECT email FROM users', ['id'], ['partial']],
    ['sqlite', 'SELECT * FROM users', ['id', 'email'], [undefined, 'partial']],
    ['sqlite', 'SELECT e FROM (SELECT email AS e FROM users)', ['e'], ['partial']],
    ['sqlite', 'SELECT substr(ssn, 1, 3) FROM users', ['substr(ssn, 1, 3)'], ['full']],
  ];
  it.each(cases)('%s: %s', async (dialect, sql, fields, expected) => {
    expect(await fieldRules(sql, fields, dialect)).toEqual(expected);
  });

  it('an unreadable statement that names a masked column masks every column', async () => {
    expect(await fieldRules('SELECT email FROM users STRAIGHT_JOIN x', ['email', 'other'], 'mysql')).toEqual([
      'partial',
      'partial',
    ]);
  });
});

describe('engine messages', () => {
  it('are withheld when the statement names a masked column or reads every column', async () => {
    const c = async (sql: string) => (await classifyScript(sql, 'postgres')).statements[0];
    expect(mentionsMasked(RULES, 'postgres', await c('SELECT email::int FROM users'))).toBe(true);
    expect(mentionsMasked(RULES, 'postgres', await c('SELECT * FROM users'))).toBe(true);
    expect(mentionsMasked(RULES, 'postgres', await c('SELECT name::int FROM users'))).toBe(false);
    expect(mentionsMasked(RULES.slice(0, 2), 'postgres', await c('SELECT email FROM orders'))).toBe(false);
  });
});
