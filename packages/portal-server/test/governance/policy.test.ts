// evaluatePolicy, table-driven: the spec's order (read-only, ticket, freeze window, object rules, write
// approval, guardrails), defaults (guardrails on for managed datasources and production user connections),
// administrators and object rules; plus the concurrency limiter, freeze windows, export rules and the
// tolerant policy reader.
import { describe, expect, it } from 'vitest';
import { normalizePolicy } from '../../src/datasources/policy.js';
import { classifyScript } from '../../src/governance/classify/index.js';
import { ConcurrencyLimiter } from '../../src/governance/concurrency.js';
import { mayExport } from '../../src/governance/export-rules.js';
import { activeFreezeWindow } from '../../src/governance/freeze.js';
import {
  evaluatePolicy,
  type PolicyDatasource,
  type PolicyDecision,
  type PolicyInput,
} from '../../src/governance/policy.js';
import { classifyRequest } from '../../src/governance/request.js';
import { engineFor } from '../../src/providers/registry.js';
import { splitScript } from '../../src/sql/split.js';

const USER = { role: 'user' as const, username: 'alice' };
const ADMIN = { role: 'admin' as const, username: 'root' };
const NOW = new Date('2030-06-01T12:00:00Z');

function managed(policy: Record<string, unknown>, environment?: string): PolicyDatasource {
  return {
    id: 'ds',
    name: 'DS',
    engine: 'postgres',
    managed: true,
    policy: normalizePolicy(policy, { managed: true }),
    ...(environment ? { environment } : {}),
  };
}

async function decide(
  sql: string,
  ds: PolicyDatasource,
  extra: Partial<PolicyInput> = {},
): Promise<PolicyDecision> {
  const rules = (ds.policy?.objectRules ?? undefined) as { defaultSchema?: string } | undefined;
  const classification = await classifyScript(sql, 'postgres', { defaultSchema: rules?.defaultSchema });
  return evaluatePolicy({
    session: USER,
    datasource: ds,
    classification,
    route: 'query',
    requester: 'alice',
    now: NOW,
    ...extra,
  });
}

const code = (d: PolicyDecision) =>
  'deny' in d ? d.deny.code : 'hold' in d ? `hold:${d.hold.guardrail ?? 'write'}` : 'allow';

describe('evaluatePolicy', () => {
  const FROZEN = { from: '2030-06-01T00:00:00Z', to: '2030-06-02T00:00:00Z', reason: 'release' };
  const cases: Array<[string, string, Record<string, unknown>, Partial<PolicyInput>, string]> = [
    ['reads pass a read-only datasource', 'SELECT 1', { readOnly: true }, {}, 'allow'],
    [
      'writes are refused on a read-only one',
      'INSERT INTO t VALUES (1)',
      { readOnly: true },
      {},
      'READ_ONLY',
    ],
    ['a script with one write is a write', 'SELECT 1; DELETE FROM t', { readOnly: true }, {}, 'READ_ONLY'],
    ['doubtful text counts as a write', 'SELECT 1--1;DELETE FROM t', { readOnly: true }, {}, 'READ_ONLY'],
    [
      'read-only comes before the ticket',
      'UPDATE t SET a = 1 WHERE id = 1',
      { readOnly: true, requireTicket: true },
      {},
      'READ_ONLY',
    ],
    [
      'writes need a ticket',
      'UPDATE t SET a = 1 WHERE id = 1',
      { requireTicket: true },
      {},
      'TICKET_REQUIRED',
    ],
    ['reads need no ticket', 'SELECT 1', { requireTicket: true }, {}, 'allow'],
    [
      'a ticket lets the write through',
      'UPDATE t SET a = 1 WHERE id = 1',
      { requireTicket: true },
      { ticket: 'OPS-1' },
      'allow',
    ],
    [
      'the ticket comes before the freeze window',
      'UPDATE t SET a = 1 WHERE id = 1',
      { requireTicket: true, freezeWindows: [FROZEN] },
      {},
      'TICKET_REQUIRED',
    ],
    [
      'writes are refused inside a freeze window',
      'UPDATE t SET a = 1 WHERE id = 1',
      { freezeWindows: [FROZEN] },
      {},
      'FREEZE_WINDOW',
    ],
    [
      'outside the window writes pass',
      'UPDATE t SET a = 1 WHERE id = 1',
      { freezeWindows: [{ from: '2031-01-01T00:00:00Z', to: '2031-01-02T00:00:00Z' }] },
      {},
      'allow',
    ],
    ['reads pass a freeze window', 'SELECT 1', { freezeWindows: [FROZEN] }, {}, 'allow'],
    [
      'freeze comes before object rules',
      'UPDATE payroll.salaries SET a = 1 WHERE id = 1',
      { freezeWindows: [FROZEN], objectRules: { hidden: ['payroll.*'] } },
      {},
      'FREEZE_WINDOW',
    ],
    [
      'a hidden object is forbidden',
      'SELECT * FROM payroll.salaries',
      { objectRules: { hidden: ['payroll.salaries'] } },
      {},
      'OBJECT_FORBIDDEN',
    ],
    [
      'an unqualified name without default schema is forbidden',
      'SELECT * FROM salaries',
      { objectRules: { hidden: ['payroll.*'] } },
      {},
      'OBJECT_FORBIDDEN',
    ],
    [
      'the default schema places unqualified names',
      'SELECT * FROM orders',
      { objectRules: { hidden: ['payroll.*'], defaultSchema: 'public' } },
      {},
      'allow',
    ],
    [
      'CALL is unreadable reach',
      'CALL purge()',
      { objectRules: { hidden: ['payroll.*'], defaultSchema: 'public' }, guardrails: false },
      {},
      'OBJECT_FORBIDDEN',
    ],
    [
      'administrators are not held by object rules',
      'SELECT * FROM payroll.salaries',
      { objectRules: { hidden: ['payroll.*'] } },
      { session: ADMIN },
      'allow',
    ],
    [
      'object rules come before write approval',
      'INSERT INTO payroll.salaries VALUES (1)',
      { objectRules: { hidden: ['payroll.*'] }, writeApproval: true },
      {},
      'OBJECT_FORBIDDEN',
    ],
    ['write approval holds writes', 'INSERT INTO t VALUES (1)', { writeApproval: true }, {}, 'hold:write'],
    ['write approval lets reads through', 'SELECT * FROM t', { writeApproval: true }, {}, 'allow'],
    ['guardrails hold on their own', 'DELETE FROM t WHERE id = 1', {}, {}, 'hold:delete'],
    ['the most specific guardrail is reported', 'DELETE FROM t', {}, {}, 'hold:delete_without_where'],
    [
      'write approval with a guardrail carries it',
      'TRUNCATE t',
      { writeApproval: true },
      {},
      'hold:truncate',
    ],
    ['guardrails: false lets a DELETE run', 'DELETE FROM t WHERE id = 1', { guardrails: false }, {}, 'allow'],
    ['an ordinary write passes guardrails', 'INSERT INTO t VALUES (1)', {}, {}, 'allow'],
    ['administrators are held by guardrails', 'DROP TABLE t', {}, { session: ADMIN }, 'hold:drop'],
    ['the bot route reads the same policy', 'GRANT SELECT ON t TO bob', {}, { route: 'bot' }, 'hold:grant'],
  ];
  it.each(cases)('%s', async (_name, sql, policy, extra, expected) => {
    expect(code(await decide(sql, managed(policy), extra))).toBe(expected);
  });

  it('holds on user connections only in production', async () => {
    const conn = (environment?: string): PolicyDatasource => ({
      id: 'mine',
      name: 'Mine',
      engine: 'postgres',
      managed: false,
      ...(environment ? { environment } : {}),
    });
    expect(code(await decide('DELETE FROM t', conn('production')))).toBe('hold:delete_without_where');
    expect(code(await decide('DELETE FROM t', conn('staging')))).toBe('allow');
    expect(code(await decide('DELETE FROM t', conn()))).toBe('allow');
    // A user connection cannot bring its own policy keys.
    const sneaky = { ...conn(), policy: normalizePolicy({ readOnly: true }, { managed: true }) };
    expect(code(await decide('DELETE FROM t', sneaky))).toBe('allow');
  });

  it('answers the audit type and never names a hidden object in the message', async () => {
    const d = await decide(
      'SELECT * FROM payroll.salaries',
      managed({ objectRules: { hidden: ['payroll.*'] } }),
    );
    expect('deny' in d && d.deny).toMatchObject({ status: 403, audit: 'object_forbidden' });
    if ('deny' in d) {
      expect(d.deny.message).not.toContain('salaries');
      expect(d.deny.details).toMatchObject({ object: 'payroll.salaries', violation: 'hidden' });
    }
    const ro = await decide('DELETE FROM t', managed({ readOnly: true }));
    expect('deny' in ro && ro.deny.audit).toBe('permission_denied');
    const hold = await decide(
      'INSERT INTO t VALUES (1)',
      managed({ writeApproval: true, approvalsRequired: 2 }),
    );
    expect('hold' in hold && hold.hold).toMatchObject({ writeApproval: true });
    expect('hold' in hold && hold.hold.reason).toContain('2 reviewer');
  });
});

describe('freeze windows', () => {
  it('bounds are inclusive and bad windows are ignored', () => {
    const w = [
      { from: 'garbage', to: '2030-01-02T00:00:00Z' },
      { from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z', reason: 'x' },
    ];
    expect(activeFreezeWindow(w, new Date('2030-01-01T00:00:00Z'))?.reason).toBe('x');
    expect(activeFreezeWindow(w, new Date('2030-01-02T00:00:00Z'))?.reason).toBe('x');
    expect(activeFreezeWindow(w, new Date('2030-01-02T00:00:01Z'))).toBeUndefined();
  });
});

describe('ConcurrencyLimiter', () => {
  it('refuses the slot over the cap with 429 CONCURRENCY_LIMIT and frees on release', () => {
    const l = new ConcurrencyLimiter();
    const a = l.acquire('ds', 2);
    const b = l.acquire('ds', 2);
    expect(() => l.acquire('ds', 2)).toThrowError(
      expect.objectContaining({ statusCode: 429, code: 'CONCURRENCY_LIMIT' }),
    );
    // Another datasource has its own count; no cap means no counting.
    l.acquire('other', 1)();
    l.acquire('ds', undefined);
    a();
    a(); // idempotent
    expect(l.inUse('ds')).toBe(1);
    l.acquire('ds', 2);
    b();
    expect(l.inUse('ds')).toBe(1);
  });
});

describe('export rules and policy defaults', () => {
  it('exportRoles names roles and people; the default spares production from users', () => {
    expect(mayExport(USER, { exportRoles: ['admin', 'ALICE'] })).toBe(true);
    expect(mayExport({ role: 'user', username: 'bob' }, { exportRoles: ['admin'] })).toBe(false);
    expect(mayExport(ADMIN, { exportRoles: [] })).toBe(false);
    expect(mayExport(USER, { environment: 'production' })).toBe(false);
    expect(mayExport(ADMIN, { environment: 'production' })).toBe(true);
    expect(mayExport(USER, {})).toBe(true);
  });

  it('reads loose policies fail-safe', () => {
    const p = normalizePolicy(
      {
        guardrails: 'no',
        approvalsRequired: 3,
        masking: [{ column: 'a.b', rule: 'weird' }],
        maxConcurrent: 0,
      },
      { managed: true },
    );
    expect(p).toMatchObject({ guardrails: true, approvalsRequired: 1, masking: [], readOnly: false });
    expect(p.maxConcurrent).toBeUndefined();
    expect(normalizePolicy(undefined, { managed: false, environment: 'production' }).guardrails).toBe(true);
  });
});

describe('classifyRequest', () => {
  const SCRIPTS: Record<string, string> = {
    postgres: "SELECT 1; SELECT 'a;b' AS x;\n-- note\nSELECT $$;$$",
    duckdb: 'SELECT 1; FROM t; SELECT 2',
    mysql: "SELECT 1; SELECT 'a;b' # c\n; SELECT `x;y` FROM t",
    sqlite: "SELECT 1; SELECT 'a;b' FROM t; PRAGMA table_info(t)",
    libsql: 'SELECT 1; SELECT 2',
    mssql: 'SELECT 1; SELECT [a;b] FROM t',
    oracle: 'SELECT 1 FROM dual; SELECT 2 FROM dual',
  };
  it.each(Object.entries(SCRIPTS))('agrees with the executor split on %s', async (engine, sql) => {
    const factory = engineFor(engine);
    const executed = splitScript(factory.sqlDialect, sql);
    const c = await classifyRequest(sql, engine, executed, undefined);
    expect(c.statements.map((s) => s.text)).toEqual(executed);
    expect(c.isWrite).toBe(false);
  });

  it('a different split counts as a doubtful write', async () => {
    const c = await classifyRequest('SELECT 1', 'postgres', ['SELECT 2'], undefined);
    expect(c.isWrite).toBe(true);
    expect(c.statements.at(-1)).toMatchObject({ doubtful: true, kind: 'write' });
  });
});
