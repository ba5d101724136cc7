// The masked-predicate rule without a database: a masked column may be shown (outer select list, write
// positions) but never steer the result (WHERE, HAVING, JOIN ON/USING, ORDER/GROUP/PARTITION BY, subqueries,
// CTEs, positional ORDER BY over a masked column, whole-row references), on several dialects.
import { describe, expect, it } from 'vitest';
import { classifyScript, type Dialect } from '../../src/governance/classify/index.js';
import { findMaskedPredicate, maskedPredicateMessage } from '../../src/governance/masked-predicates.js';

const RULES = [
  { column: 'users.email', rule: 'partial' as const },
  { column: '*.phone', rule: 'hash' as const },
];

async function verdict(sql: string, dialect: Dialect = 'postgres') {
  const c = await classifyScript(sql, dialect);
  for (const s of c.statements) {
    const found = findMaskedPredicate(RULES, dialect, s, s.text);
    if (found) return found;
  }
  return undefined;
}

describe('masked columns may be shown', () => {
  it.each([
    'SELECT id, email, phone FROM users',
    'SELECT * FROM users WHERE id = 3 ORDER BY id',
    'SELECT upper(email) AS e, substring(email FROM 1 FOR 3) AS s FROM users',
    'SELECT u.email AS contact FROM users u JOIN orders o ON o.user_id = u.id WHERE o.total > 10',
    "INSERT INTO users (id, email, phone) VALUES (4, 'd@example.com', '555')",
    "UPDATE users SET email = 'x@example.com' WHERE id = 1 RETURNING email",
    'SELECT email FROM users; SELECT id FROM orders ORDER BY 1',
    // A table rule applies only where its table is reached.
    'SELECT email FROM contacts WHERE email LIKE $1',
    'SELECT count(*) FROM users GROUP BY id HAVING count(*) > 1',
    // A positional reference is checked against the item it names; count(*) is no star.
    'SELECT name, count(*) AS n FROM users GROUP BY 1 ORDER BY 2 DESC',
    'SELECT id, email FROM users ORDER BY 1',
    'CREATE TABLE users (id int PRIMARY KEY, email varchar(100), phone text)',
    'CREATE INDEX users_email ON users (email)',
    'ALTER TABLE users DROP COLUMN phone',
  ])('%s', async (sql) => {
    expect(await verdict(sql)).toBeUndefined();
  });
});

describe('masked columns may not steer', () => {
  it.each([
    ["SELECT id FROM users WHERE email LIKE 'a%'", 'email', 'where'],
    ["SELECT id FROM users WHERE lower(EMAIL) > 'm'", 'email', 'where'],
    ['SELECT id FROM users WHERE "email" = $1', 'email', 'where'],
    ['SELECT id, name FROM users ORDER BY email', 'email', 'order'],
    ['SELECT email FROM users ORDER BY 1', 'position 1', 'order'],
    ['SELECT * FROM users ORDER BY 3 DESC', 'position 3', 'order'],
    ['SELECT id, u.* FROM users u ORDER BY 2', 'position 2', 'order'],
    ['SELECT id, lower(email) FROM users ORDER BY 2', 'position 2', 'order'],
    ['SELECT email FROM users UNION SELECT name FROM users ORDER BY 1', 'position 1', 'order'],
    ['SELECT name FROM users UNION SELECT phone FROM users ORDER BY 1', 'position 1', 'order'],
    ['SELECT name, email FROM users GROUP BY 2', 'position 2', 'group'],
    ['SELECT count(*) FROM users GROUP BY phone', 'phone', 'group'],
    ["SELECT count(*) FROM users HAVING max(email) > 'b'", 'email', 'having'],
    ['SELECT o.id FROM orders o JOIN users u ON u.email = o.email', 'email', 'on'],
    ['SELECT id FROM users JOIN people USING (phone)', 'phone', 'using'],
    ['SELECT id, row_number() OVER (ORDER BY email) AS r FROM users', 'email', 'order'],
    ["SELECT id, (SELECT 1 WHERE email LIKE 'a%') AS probe FROM users", 'email', 'where'],
    ['SELECT x FROM (SELECT email AS x FROM users) t', 'email', 'subquery'],
    ["WITH t AS (SELECT email AS e FROM users) SELECT id FROM t WHERE e LIKE 'a%'", 'email', 'subquery'],
    ["SELECT id FROM users u WHERE u.*::text LIKE '%@a%'", '*', 'where'],
    ["SELECT id FROM users WHERE id IN (SELECT id FROM users WHERE phone LIKE '+1%')", 'phone', 'where'],
    ["UPDATE users SET name = 'x' WHERE email LIKE 'a%'", 'email', 'where'],
    ["DELETE FROM users WHERE email = 'a@example.com'", 'email', 'where'],
    ["SELECT 1; SELECT id FROM users WHERE email = 'a'", 'email', 'where'],
    ["CREATE VIEW v AS SELECT id FROM users WHERE email LIKE 'a%'", 'email', 'where'],
    ["CREATE INDEX i ON users (id); SELECT id FROM users WHERE phone = '1'", 'phone', 'where'],
  ])('%s', async (sql, column, clause) => {
    expect(await verdict(sql)).toEqual({ column, clause });
  });

  it.each([
    ['mysql', "SELECT id FROM users WHERE `email` LIKE 'a%'"],
    ['sqlite', "SELECT id FROM users WHERE email GLOB 'a*'"],
    ['mysql', 'SELECT id FROM users ORDER BY email'],
  ] as const)('on %s: %s', async (dialect, sql) => {
    expect(await verdict(sql, dialect)).toMatchObject({ column: 'email' });
  });

  it('says what to do', () => {
    expect(maskedPredicateMessage({ column: 'email', clause: 'where' })).toBe(
      'Column "email" is masked and cannot be used in WHERE: its hidden values would steer the result',
    );
    expect(maskedPredicateMessage({ column: 'position 1', clause: 'order' })).toMatch(
      /ORDER BY 1 would sort/,
    );
    expect(maskedPredicateMessage({ column: 'email', clause: 'subquery' })).toMatch(/in a subquery/);
  });

  it('is not checked on engines without SQL grammar', () => {
    expect(findMaskedPredicate(RULES, undefined, undefined, '{"filter": {"email": "a"}}')).toBeUndefined();
  });
});
