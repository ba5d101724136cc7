// biome-ignore-all lint/suspicious/noTemplateCurlyInString: literal ${ENV} references are what is under test
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { interpolate } from '../../src/datasources/interpolate.js';
import { readDatasources } from '../../src/datasources/validate.js';

const read = (yaml: string, env: NodeJS.ProcessEnv = {}) => readDatasources(parse(yaml), env);

describe('interpolate', () => {
  it('replaces ${NAME}, keeps $${ literal and reports unset variables with their paths', () => {
    const r = interpolate({ a: 'x-${A}-y', b: ['${B}', '$${A}'], c: { d: '${A}${C}' }, n: 5 }, { A: '1' });
    expect(r.value).toEqual({ a: 'x-1-y', b: ['${B}', '${A}'], c: { d: '1${C}' }, n: 5 });
    expect(r.missing).toEqual(['B', 'C']);
    expect([...r.unresolved]).toEqual(['b[0]', 'c.d']);
    expect([...r.resolved].sort()).toEqual(['a', 'c.d']);
  });
});

describe('reading PORTAL_DATASOURCES', () => {
  it('reads a full datasource with its policy and defaults', () => {
    const { entries, errors } = read(
      `
datasources:
  - id: prod-db
    name: Production
    type: postgres
    host: \${PGHOST}
    port: "\${PGPORT}"
    user: app
    password: \${PGPASSWORD}
    database: orders
    environment: production
    ssl: true
    roles: [admin, user]
    policy:
      readOnly: false
      writeApproval: true
      approvalsRequired: 2
      approverRoles: [admin, lead@example.com, "chat:U123"]
      requireTicket: true
      freezeWindows:
        - { from: "2030-12-24T00:00:00Z", to: "2030-12-26T23:59:59+01:00", reason: holidays }
      objectRules: { hidden: [payroll.salaries, "secret.*"], defaultSchema: public }
      masking: [{ column: users.email, rule: partial }, { column: "*.ssn", rule: hash }]
      maxRows: 5000
      maxConcurrent: 4
      exportRoles: [admin]
      agent: { user: agent_ro, password: "\${AGENT_PW}" }
  - id: local-sqlite
    type: sqlite
    database: ./local.db
`,
      { PGHOST: 'db.internal', PGPORT: '5433', PGPASSWORD: 'pw', AGENT_PW: 'apw' },
    );
    expect(errors).toEqual([]);
    expect(entries).toHaveLength(2);
    const [prod, local] = entries;
    expect(prod).toEqual({
      available: true,
      datasource: {
        id: 'prod-db',
        name: 'Production',
        type: 'postgres',
        roles: ['admin', 'user'],
        connection: {
          host: 'db.internal',
          port: 5433,
          user: 'app',
          password: 'pw',
          database: 'orders',
          environment: 'production',
          ssl: true,
        },
        policy: {
          readOnly: false,
          writeApproval: true,
          approvalsRequired: 2,
          approverRoles: ['admin', 'lead@example.com', 'chat:U123'],
          requireTicket: true,
          freezeWindows: [
            { from: '2030-12-24T00:00:00.000Z', to: '2030-12-26T22:59:59.000Z', reason: 'holidays' },
          ],
          guardrails: true,
          objectRules: { hidden: ['payroll.salaries', 'secret.*'], defaultSchema: 'public' },
          masking: [
            { column: 'users.email', rule: 'partial' },
            { column: '*.ssn', rule: 'hash' },
          ],
          maxRows: 5000,
          maxConcurrent: 4,
          exportRoles: ['admin'],
          agent: { user: 'agent_ro', password: 'apw' },
        },
      },
    });
    // Name defaults to the id, roles to administrators only, guardrails on.
    expect(local).toMatchObject({
      available: true,
      datasource: {
        id: 'local-sqlite',
        name: 'local-sqlite',
        roles: ['admin'],
        policy: { guardrails: true, readOnly: false },
      },
    });
  });

  it('marks only the datasource with an unset variable unavailable, with the reason', () => {
    const { entries, errors } = read(
      `
datasources:
  - { id: a, type: postgres, host: h, password: "\${MISSING_PW}", port: "\${MISSING_PORT}" }
  - { id: b, type: mysql, host: h, password: "\${SET_PW}" }
`,
      { SET_PW: 'x' },
    );
    expect(errors).toEqual([]);
    expect(entries[0]).toEqual({
      available: false,
      datasource: {
        id: 'a',
        name: 'a',
        type: 'postgres',
        roles: ['admin'],
        reason: 'environment variables MISSING_PW, MISSING_PORT not set (used in password, port)',
      },
    });
    expect(entries[1]).toMatchObject({
      available: true,
      datasource: { id: 'b', connection: { password: 'x' } },
    });
  });

  it.each([
    [
      'id: Bad_Id\n    type: postgres\n    host: h',
      'datasources[0]: id must match [a-z0-9-]{1,64} (got "Bad_Id")',
    ],
    ['type: postgres\n    host: h', 'datasources[0]: id is required'],
    ['id: a\n    host: h', 'datasource "a": type is required (one of postgres, mysql'],
    ['id: a\n    type: mongo\n    host: h', 'datasource "a": type must be one of postgres, mysql'],
    [
      'id: a\n    type: postgres\n    host: h\n    hostname: x',
      'datasource "a": hostname is not a known key',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    readOnly: true',
      'datasource "a": readOnly is not a known key (policy keys go under policy, e.g. policy.readOnly)',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { approvalsRequired: 3 }',
      'datasource "a": policy.approvalsRequired must be 1 or 2 (got 3)',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { readOnly: yes }',
      'datasource "a": policy.readOnly must be true or false (got "yes")',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { maxRows: 0 }',
      'datasource "a": policy.maxRows must be an integer between 1 and',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { readonly: true }',
      'datasource "a": policy.readonly is not a known key',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { masking: [{ column: email, rule: full }] }',
      'datasource "a": policy.masking[0].column must be "table.column" or "*.column" (got "email")',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { masking: [{ column: t.c, rule: blur }] }',
      'datasource "a": policy.masking[0].rule must be one of full, partial, hash (got "blur")',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { objectRules: { hidden: ["*.x"] } }',
      'datasource "a": policy.objectRules.hidden[0] must be "schema.table" or "schema.*" (got "*.x")',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { freezeWindows: [{ from: tomorrow, to: "2030-01-01T00:00:00Z" }] }',
      'datasource "a": policy.freezeWindows[0].from must be an ISO-8601 instant',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { freezeWindows: [{ from: "2030-01-02T00:00:00Z", to: "2030-01-01T00:00:00Z" }] }',
      'datasource "a": policy.freezeWindows[0] ends before it starts',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    policy: { agent: { password: x } }',
      'datasource "a": policy.agent.user is required',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    roles: [admin, viewer]',
      'datasource "a": roles[1] must be admin or user (got "viewer")',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    port: 70000',
      'datasource "a": port must be an integer between 1 and 65535 (got 70000)',
    ],
    [
      'id: a\n    type: postgres',
      'datasource "a": host is required for the postgres engine (or give connectionString)',
    ],
    ['id: a\n    type: sqlite', 'datasource "a": database is required for the sqlite engine'],
    [
      'id: a\n    type: cassandra\n    host: h',
      'datasource "a": localDataCenter is required for the cassandra engine',
    ],
    [
      'id: a\n    type: trino\n    connectionString: x',
      'datasource "a": connectionString is not accepted by the trino engine',
    ],
    ['id: a\n    type: athena', 'datasource "a": region is required for the athena engine'],
    [
      'id: a\n    type: postgres\n    host: h\n    password: 1234',
      'datasource "a": password must be a string (got 1234); quote it in YAML',
    ],
    [
      'id: a\n    type: postgres\n    host: h\n    members: [ghost]',
      'datasource "a": members names "ghost", which is not declared',
    ],
  ])('refuses %j naming the datasource and key', (body, message) => {
    const { errors } = read(`datasources:\n  - ${body}\n`);
    expect(errors.some((e) => e.startsWith(message))).toBe(true);
  });

  it('refuses a duplicate id, unknown top-level keys and a missing list', () => {
    expect(
      read('datasources:\n  - { id: a, type: redis, host: h }\n  - { id: a, type: redis, host: h }\n').errors,
    ).toEqual(['datasource "a": id is declared twice']);
    expect(read('datasource: []\n').errors).toEqual([
      'datasource is not a known top-level key',
      'datasources must be a list (got nothing)',
    ]);
    expect(read('').errors).toEqual(['the file is empty; expected datasources: [...]']);
  });

  it('never echoes a value that came from the environment', () => {
    const { errors } = read('datasources:\n  - { id: a, type: postgres, host: h, port: "${PW}" }\n', {
      PW: 'hunter2',
    });
    expect(errors).toEqual([
      'datasource "a": port must be an integer between 1 and 65535 (got a value from the environment)',
    ]);
  });
});
