// Object rules over classified scripts (objectRuleViolation), the guardrail reported on the 403 answer
// (firstGuardrail), and the quoted-name splitting of rule entries.
import { describe, expect, it } from 'vitest';
import {
  classifyScript,
  type Dialect,
  firstGuardrail,
  type ObjectRules,
  objectRuleViolation,
} from '../../src/governance/classify/index.js';
import { splitQualified } from '../../src/governance/classify/objects.js';

async function violation(sql: string, rules: ObjectRules, dialect: Dialect = 'postgres') {
  return objectRuleViolation(
    await classifyScript(sql, dialect, { defaultSchema: rules.defaultSchema }),
    rules,
  );
}

describe('objectRuleViolation', () => {
  it('refuses a hidden table and a hidden schema, case-insensitively', async () => {
    expect(await violation('SELECT * FROM secret.cards', { hidden: ['secret.*'] })).toEqual({
      kind: 'hidden',
      object: 'secret.cards',
      reason: 'names a hidden object',
      statementIndex: 0,
    });
    expect(
      await violation('SELECT 1; SELECT * FROM "PUBLIC"."USERS"', { hidden: ['public.users'] }),
    ).toMatchObject({
      kind: 'hidden',
      object: 'PUBLIC.USERS',
      statementIndex: 1,
    });
    expect(await violation('SELECT * FROM public.orders', { hidden: ['public.users'] })).toBeUndefined();
  });

  it('respects quoted rule entries', async () => {
    expect(await violation('SELECT * FROM "my.schema".t', { hidden: ['"my.schema".t'] })).toMatchObject({
      kind: 'hidden',
    });
    expect(await violation('SELECT * FROM "my.schema".u', { hidden: ['"my.schema".t'] })).toBeUndefined();
  });

  it('resolves unqualified names through the default schema, else refuses them', async () => {
    expect(await violation('SELECT * FROM users', { hidden: ['public.users'] })).toMatchObject({
      kind: 'unplaceable',
      object: 'users',
    });
    expect(
      await violation('SELECT * FROM users', { hidden: ['public.users'], defaultSchema: 'public' }),
    ).toMatchObject({
      kind: 'hidden',
      object: 'public.users',
    });
    expect(
      await violation('SELECT * FROM users', { hidden: ['public.users'], defaultSchema: 'app' }),
    ).toBeUndefined();
    // Without defaultSchema at classification time, the rule's defaultSchema still places the name.
    const r = await classifyScript('SELECT * FROM users', 'postgres');
    expect(objectRuleViolation(r, { hidden: ['public.users'], defaultSchema: 'public' })).toMatchObject({
      kind: 'hidden',
    });
  });

  it('a bare rule entry hides the name in every schema', async () => {
    expect(await violation('SELECT * FROM x.salaries', { hidden: ['salaries'] })).toMatchObject({
      kind: 'hidden',
    });
    expect(await violation('SELECT * FROM salaries', { hidden: ['salaries'] })).toMatchObject({
      kind: 'hidden',
    });
  });

  it('CTE names are not objects, but a real table of the same name elsewhere is', async () => {
    const rules = { hidden: ['public.users'], defaultSchema: 'public' };
    expect(await violation('WITH users AS (SELECT 1 AS id) SELECT * FROM users', rules)).toBeUndefined();
    expect(
      await violation('SELECT * FROM users UNION ALL (WITH users AS (SELECT 1) SELECT * FROM users)', rules),
    ).toMatchObject({ kind: 'hidden' });
  });

  it('wildcards, CALL, dynamic SQL and doubtful statements are unplaceable', async () => {
    const rules = { hidden: ['secret.*'], defaultSchema: 'public' };
    expect(await violation('CALL public.purge()', rules)).toMatchObject({
      kind: 'unplaceable',
      object: 'CALL public.purge',
    });
    expect(await violation('VACUUM', rules)).toMatchObject({ kind: 'unplaceable', object: '*' });
    expect(
      await violation("SELECT query_to_xml('SELECT * FROM secret.t', true, true, '')", rules),
    ).toMatchObject({
      kind: 'unplaceable',
      object: 'query_to_xml',
    });
    expect(await violation('SELECT 1 /*! , secret.t */', rules, 'mysql')).toMatchObject({
      kind: 'unplaceable',
    });
    expect(await violation("GRANT SELECT ON *.* TO 'u'@'%'", rules, 'mysql')).toMatchObject({
      kind: 'unplaceable',
      object: '*.*',
    });
  });

  it('schema-wide reach is hidden only when the schema holds hidden objects', async () => {
    const rules = { hidden: ['secret.cards'], defaultSchema: 'public' };
    expect(await violation('DROP SCHEMA secret CASCADE', rules)).toMatchObject({
      kind: 'hidden',
      object: 'secret.*',
    });
    expect(await violation('DROP SCHEMA scratch CASCADE', rules)).toBeUndefined();
    expect(await violation('GRANT SELECT ON ALL TABLES IN SCHEMA secret TO bob', rules)).toMatchObject({
      kind: 'hidden',
    });
  });

  it('covers other dialects: MySQL databases and T-SQL schemas', async () => {
    expect(await violation('SELECT * FROM secret.t', { hidden: ['secret.*'] }, 'mysql')).toMatchObject({
      kind: 'hidden',
    });
    expect(
      await violation('SELECT * FROM sales.dbo.cards', { hidden: ['dbo.cards'] }, 'mssql'),
    ).toMatchObject({
      kind: 'hidden',
    });
    expect(
      await violation(
        'PRAGMA table_info(cards)',
        { hidden: ['main.cards'], defaultSchema: 'main' },
        'sqlite',
      ),
    ).toMatchObject({ kind: 'hidden' });
    expect(
      await violation('USE secret; SELECT * FROM t', { hidden: ['secret.t'], defaultSchema: 'app' }, 'mysql'),
    ).toMatchObject({
      kind: 'unplaceable',
      object: 't',
    });
  });

  it('has nothing to enforce without hidden entries', async () => {
    expect(await violation('CALL anything()', { hidden: [] })).toBeUndefined();
  });
});

describe('firstGuardrail', () => {
  it('names the most specific guardrail of the first held statement', async () => {
    expect(firstGuardrail(await classifyScript('SELECT 1; DELETE FROM t; DROP TABLE u', 'postgres'))).toBe(
      'delete_without_where',
    );
    expect(firstGuardrail(await classifyScript('DELETE FROM t WHERE id = 1', 'postgres'))).toBe('delete');
    expect(firstGuardrail(await classifyScript('DROP ROLE r', 'postgres'))).toBe('grant');
    expect(
      firstGuardrail(await classifyScript('UPDATE t SET a = 1 WHERE id = 1', 'postgres')),
    ).toBeUndefined();
  });

  it('lists script guardrails in a stable order', async () => {
    const r = await classifyScript('TRUNCATE t; UPDATE t SET a = 1; DELETE FROM t WHERE id = 2', 'postgres');
    expect(r.guardrails).toEqual(['truncate', 'delete', 'update_without_where']);
  });
});

describe('splitQualified', () => {
  it('splits on dots outside quotes', () => {
    expect(splitQualified('a.b')).toEqual(['a', 'b']);
    expect(splitQualified('"my.schema"."T"')).toEqual(['my.schema', 'T']);
    expect(splitQualified('`db`.`t``x`')).toEqual(['db', 't`x']);
    expect(splitQualified('[dbo].[a]]b]')).toEqual(['dbo', 'a]b']);
    expect(splitQualified('"a""b".*')).toEqual(['a"b', '*']);
  });
});
