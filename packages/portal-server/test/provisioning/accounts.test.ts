// Account provisioning end to end against the real PostgreSQL and MariaDB of the kit harness and the Vault
// KV v2 test double: the plan shows every statement with its purpose and masked passwords; a run writes the
// generated passwords to the vault (never to the response) and creates the accounts; the database itself
// then refuses writes by the read profile and the agent role and accepts them from readwrite. Blockers, a
// missing vault, a refusing vault (502, nothing created), a refused statement (409, the rest skipped),
// other engines, non-admins and malformed bodies get their answers.
import { randomBytes } from 'node:crypto';
import { createMariadbDatabase, createPostgresDatabase } from '@app/kit/testing';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type BotHarness, botPortal, datasourceEntry, sqliteFile } from '../bot/harness.js';
import { adminPost, type Family, sqlOn } from '../seed/helpers.js';
import { startVaultDouble, type VaultDouble } from './vault-double.js';

type Statement = {
  shown: string;
  purpose: string;
  optional?: boolean;
  account: string;
  outcome?: string;
  error?: string;
};

describe.each(['postgres', 'mysql'] as const)('account provisioning on %s', (family: Family) => {
  let url: string;
  let second: string;
  let vault: VaultDouble;
  let h: BotHarness;
  const id = `acct-${randomBytes(4).toString('hex')}`;
  const slug = id.replace(/-/g, '_');
  const schemas = () =>
    family === 'postgres'
      ? ['public', 'sales']
      : [new URL(url).pathname.slice(1), new URL(second).pathname.slice(1)];
  const path = (suffix: string) => `/api/admin/datasources/${suffix}`;

  async function connectAs(user: string, password: string, statements: string[]): Promise<unknown> {
    const u = new URL(url);
    if (family === 'postgres') {
      const c = new pg.Client({
        host: u.hostname,
        port: Number(u.port),
        user,
        password,
        database: u.pathname.slice(1),
      });
      await c.connect();
      try {
        let out: unknown;
        for (const s of statements) out = (await c.query(s)).rows;
        return out;
      } finally {
        await c.end();
      }
    }
    const c = await mysql.createConnection({
      host: u.hostname,
      port: Number(u.port),
      user,
      password,
      database: u.pathname.slice(1),
    });
    try {
      let out: unknown;
      for (const s of statements) out = (await c.query(s))[0];
      return out;
    } finally {
      await c.end();
    }
  }

  beforeAll(async () => {
    const services = inject('services');
    if (family === 'postgres') {
      url = await createPostgresDatabase(services.postgresUrl, 'acct');
      second = url;
      await sqlOn(family, url, [
        'CREATE TABLE items (id INT PRIMARY KEY, name TEXT)',
        "INSERT INTO items VALUES (1, 'one')",
        'CREATE SCHEMA sales',
        'CREATE TABLE sales.deals (id INT PRIMARY KEY)',
      ]);
    } else {
      url = await createMariadbDatabase(services.mariadbUrl, 'acct');
      second = await createMariadbDatabase(services.mariadbUrl, 'acct');
      await sqlOn(family, url, [
        'CREATE TABLE items (id INT PRIMARY KEY, name TEXT)',
        "INSERT INTO items VALUES (1, 'one')",
      ]);
      await sqlOn(family, second, ['CREATE TABLE deals (id INT PRIMARY KEY)']);
    }
    vault = await startVaultDouble();
    h = await botPortal({
      datasources: (dir) =>
        [
          datasourceEntry(id, family, url),
          `  - id: lite\n    type: sqlite\n    database: ${sqliteFile(dir, 'lite.db', 'CREATE TABLE t (id INTEGER PRIMARY KEY)')}\n    roles: [admin]\n`,
        ].join(''),
      env: { VAULT_ADDR: vault.addr, VAULT_TOKEN: vault.token },
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    await vault?.close();
  });

  it('plans every statement with its purpose and masked passwords', async () => {
    const res = await adminPost(h, path(`${id}/account/plan`), {
      profile: 'read',
      schemas: schemas(),
      agent: true,
      vaultPath: `portal/${id}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      inventory: Record<string, unknown>;
      plan: { roleName: string; agentRoleName: string; statements: Statement[]; blockers: string[] };
      destination: Record<string, unknown>;
    };
    expect(body.plan.roleName).toBe(`portal_ro_${slug}`);
    expect(body.plan.agentRoleName).toBe(`portal_agent_${slug}`);
    expect(body.plan.blockers).toEqual([]);
    expect(body.inventory).toMatchObject({
      canCreateRoles: true,
      schemas: schemas().map((name) => ({ name, exists: true })),
      existingAccounts: [],
    });
    expect(body.destination).toEqual({ kind: 'vault', path: `secret/portal/${id}` });
    const creates = body.plan.statements.filter((s) => /^CREATE (ROLE|USER)/.test(s.shown));
    expect(creates.map((s) => s.account)).toEqual([body.plan.roleName, body.plan.agentRoleName]);
    for (const s of creates) expect(s.shown).toContain("'********'");
    for (const s of body.plan.statements) expect(s.purpose.length).toBeGreaterThan(10);
    for (const schema of schemas())
      expect(body.plan.statements.some((s) => s.shown.includes(schema))).toBe(true);
    expect(vault.requests).toBe(0);
  });

  it('refuses without a vault to write to, and answers 502 when the vault refuses, creating nothing', async () => {
    const noVault = await adminPost(h, path(`${id}/account`), {
      profile: 'read',
      schemas: schemas(),
      agent: false,
    });
    expect(noVault.statusCode).toBe(409);
    expect(noVault.json()).toMatchObject({ code: 'NO_VAULT', completed: false });
    const refusing = await botPortal({
      datasources: () => datasourceEntry(id, family, url),
      env: { VAULT_ADDR: vault.addr, VAULT_TOKEN: 'wrong-token' },
    });
    try {
      const res = await adminPost(refusing, path(`${id}/account`), {
        profile: 'read',
        schemas: schemas(),
        agent: false,
        vaultPath: `portal/${id}`,
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toMatch(/permission denied/);
    } finally {
      await refusing.close();
    }
    const plan = await adminPost(h, path(`${id}/account/plan`), {
      profile: 'read',
      schemas: schemas(),
      agent: false,
    });
    expect(plan.json().inventory.existingAccounts).toEqual([]);
  });

  it('creates the read account and the agent role; the database refuses their writes', async () => {
    const res = await adminPost(h, path(`${id}/account`), {
      profile: 'read',
      schemas: schemas(),
      agent: true,
      vaultPath: `portal/${id}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      completed: boolean;
      plan: { roleName: string; agentRoleName: string; statements: Statement[] };
      destination: Record<string, unknown>;
    };
    expect(body.completed).toBe(true);
    for (const s of body.plan.statements) expect(s.outcome).toBe('ran');
    expect(body.destination).toMatchObject({ kind: 'vault', version: 1 });
    const stored = vault.secrets.get(`secret/portal/${id}`)?.data as Record<string, string>;
    const readPassword = stored[body.plan.roleName];
    const agentPassword = stored[body.plan.agentRoleName];
    expect(readPassword).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(res.body).not.toContain(readPassword);
    expect(res.body).not.toContain(agentPassword);
    for (const [user, password] of [
      [body.plan.roleName, readPassword],
      [body.plan.agentRoleName, agentPassword],
    ]) {
      expect(await connectAs(user, password, ['SELECT name FROM items'])).toEqual([{ name: 'one' }]);
      await expect(connectAs(user, password, ["INSERT INTO items VALUES (2, 'two')"])).rejects.toThrow(
        /read-only|denied/i,
      );
    }
    expect(Number((await sqlOn(family, url, ['SELECT COUNT(*) AS n FROM items']))[0].n)).toBe(1);
    const events = await h.auditOf('account_provisioning');
    expect(events.some((e) => e.action === 'run' && e.result === 'success')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(readPassword);
  });

  it('gives the readwrite profile writes, and resets the password of an account that exists', async () => {
    const res = await adminPost(h, path(`${id}/account`), {
      profile: 'readwrite',
      schemas: schemas(),
      agent: true,
      vaultPath: `portal/${id}-rw`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { plan: { roleName: string; agentRoleName: string; statements: Statement[] } };
    // The agent role exists from the previous test: its password is reset, not created.
    expect(body.plan.statements.find((s) => s.account === body.plan.agentRoleName)?.shown).toMatch(
      /^ALTER (ROLE|USER)/,
    );
    const stored = vault.secrets.get(`secret/portal/${id}-rw`)?.data as Record<string, string>;
    await connectAs(body.plan.roleName, stored[body.plan.roleName], [
      "INSERT INTO items VALUES (3, 'three')",
    ]);
    expect(await sqlOn(family, url, ['SELECT name FROM items WHERE id = 3'])).toEqual([{ name: 'three' }]);
  });

  it('stops at blockers and at a statement the database refuses', async () => {
    const blocked = await adminPost(h, path(`${id}/account`), {
      profile: 'read',
      schemas: ['no_such_schema'],
      agent: false,
      vaultPath: `portal/${id}`,
    });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({ code: 'PLAN_BLOCKED', completed: false });
    expect(blocked.json().plan.blockers).toContain(
      'schema no_such_schema does not exist (or the connecting account cannot see it)',
    );
    // A bootstrap account that may create accounts but not grant on the schemas, or alter elevated roles.
    const boot = `boot_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    if (family === 'postgres') {
      // The read role exists (an earlier test made it, as a superuser): this account may not alter it.
      await sqlOn(family, url, [`CREATE ROLE ${boot} LOGIN CREATEROLE PASSWORD '${password}'`]);
    } else {
      // May create users and read the database, but holds no GRANT OPTION to pass SELECT on.
      const db = new URL(url).pathname.slice(1);
      await sqlOn(family, url, [
        `CREATE USER '${boot}'@'%' IDENTIFIED BY '${password}'`,
        `GRANT CREATE USER ON *.* TO '${boot}'@'%'`,
        `GRANT SELECT ON \`${db}\`.* TO '${boot}'@'%'`,
      ]);
    }
    const res = await adminPost(h, path(`${id}/account`), {
      profile: 'read',
      // MariaDB shows an account only the databases it holds privileges on.
      schemas: family === 'postgres' ? schemas() : [schemas()[0]],
      agent: true,
      bootstrap: { user: boot, password },
      vaultPath: `portal/${id}-boot`,
    });
    expect(res.statusCode, res.body).toBe(409);
    const statements = res.json().plan.statements as Statement[];
    const refused = statements.findIndex((s) => s.outcome === 'refused' && !s.optional);
    expect(refused).toBeGreaterThanOrEqual(0);
    expect(statements[refused].error).toBeTruthy();
    for (const s of statements.slice(refused + 1)) expect(s.outcome).toBe('skipped');
    expect(res.json().completed).toBe(false);
  });

  it('reports a GRANT the connecting account may not give as refused, with fresh accounts', async () => {
    // A new datasource id (new account names) on the same database, and an account that may create accounts
    // but may not grant on the schema. PostgreSQL refuses outright when the account has no privilege there
    // at all, and only warns (caught by the check after the GRANT) when it has some but no grant option.
    const boot = `boot_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    const schema = family === 'postgres' ? 'sales' : schemas()[0];
    if (family === 'postgres') {
      await sqlOn(family, url, [`CREATE ROLE ${boot} LOGIN CREATEROLE PASSWORD '${password}'`]);
    } else {
      await sqlOn(family, url, [
        `CREATE USER '${boot}'@'%' IDENTIFIED BY '${password}'`,
        `GRANT CREATE USER ON *.* TO '${boot}'@'%'`,
        `GRANT SELECT ON \`${schema}\`.* TO '${boot}'@'%'`,
      ]);
    }
    const other = await botPortal({
      datasources: () => datasourceEntry(`${id}-b`, family, url),
      env: { VAULT_ADDR: vault.addr, VAULT_TOKEN: vault.token },
    });
    try {
      const res = await adminPost(other, path(`${id}-b/account`), {
        profile: 'read',
        schemas: [schema],
        agent: false,
        bootstrap: { user: boot, password },
        vaultPath: `portal/${id}-b`,
      });
      expect(res.statusCode, res.body).toBe(409);
      const statements = res.json().plan.statements as Statement[];
      expect(statements[0]).toMatchObject({
        outcome: 'ran',
        shown: expect.stringMatching(/^CREATE (ROLE|USER)/),
      });
      const grant = statements.find((s) => s.outcome === 'refused');
      expect(grant?.shown).toMatch(/^GRANT /);
      expect(grant?.error).toMatch(/denied|granted nothing/i);
    } finally {
      await other.close();
    }
  });

  it('answers 400, 403 and 404 where the spec says', async () => {
    const ok = { profile: 'read', schemas: schemas(), agent: false };
    expect((await adminPost(h, path(`${id}/account/plan`), ok, 'user')).statusCode).toBe(403);
    expect((await adminPost(h, path(`${id}/account`), ok, 'user')).statusCode).toBe(403);
    expect((await adminPost(h, path('lite/account/plan'), ok)).statusCode).toBe(403);
    expect((await adminPost(h, path('nope/account/plan'), ok)).statusCode).toBe(404);
    expect((await adminPost(h, path(`${id}/account/plan`), { ...ok, profile: 'admin' })).statusCode).toBe(
      400,
    );
    expect(
      (
        await adminPost(h, path(`${id}/account/plan`), {
          ...ok,
          schemas: Array.from({ length: 101 }, (_, i) => `s${i}`),
        })
      ).statusCode,
    ).toBe(400);
    expect((await adminPost(h, path(`${id}/account/plan`), { ...ok, agent: 'yes' })).statusCode).toBe(400);
    expect(
      (await adminPost(h, path(`${id}/account/plan`), { ...ok, vaultPath: '../escape' })).statusCode,
    ).toBe(400);
    expect(
      (await adminPost(h, path(`${id}/account/plan`), { ...ok, bootstrap: { user: 1 } })).statusCode,
    ).toBe(400);
  });
});
