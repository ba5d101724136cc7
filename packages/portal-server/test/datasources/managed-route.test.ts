import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@app/kit';
import { tempDir } from '@app/kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ManagedDatasources } from '../../src/datasources/registry.js';
import { registerConnectionRoutes } from '../../src/http/connections.js';
import type { PortalServer } from '../../src/index.js';
import { as, fakeSessions, testApp } from '../audit/fake-session.js';
import { ADMIN, portal, sessionFor, USER } from '../auth/helpers.js';

const SECRETS = ['pg-password-1', 'agent-password-2', 'cs-password-3', 'tunnel-key-4', 'hidden_schema'];

const FILE = `datasources:
  - id: prod
    name: Production
    type: postgres
    host: db.internal
    port: 5432
    user: app_owner
    password: \${DS_PG_PASSWORD}
    database: orders
    environment: production
    sshTunnel: { host: bastion, privateKey: tunnel-key-4 }
    roles: [admin, user]
    policy:
      writeApproval: true
      approvalsRequired: 2
      requireTicket: true
      objectRules: { hidden: [hidden_schema.payroll], defaultSchema: public }
      masking: [{ column: users.email, rule: partial }]
      maxRows: 1000
      agent: { user: agent_ro, password: agent-password-2 }
  - id: reports
    type: mysql
    connectionString: mysql://r:cs-password-3@reports/db
    roles: [user]
    policy: { readOnly: true, exportRoles: [admin, bob] }
  - id: ops
    type: redis
    host: cache
    policy: { guardrails: false }
  - id: broken
    type: postgres
    host: h
    roles: [admin, user]
    password: \${DS_NOT_SET}
`;

function datasourcesFile(): string {
  const file = join(tempDir('portal-managed-'), 'datasources.yaml');
  writeFileSync(file, FILE);
  return file;
}

describe('GET /api/connections/managed', () => {
  const closers: Array<() => void> = [];
  afterEach(() => {
    for (const c of closers.splice(0)) c();
  });

  async function app() {
    const registry = await ManagedDatasources.open(datasourcesFile(), {
      env: { DS_PG_PASSWORD: 'pg-password-1' },
      watch: false,
    });
    closers.push(() => registry.close());
    const a = testApp();
    registerConnectionRoutes(a, { sessions: fakeSessions, datasources: () => registry });
    return a;
  }

  it('lists the seed runs in flight on the datasources the caller sees, and only those', async () => {
    const registry = await ManagedDatasources.open(datasourcesFile(), {
      env: { DS_PG_PASSWORD: 'pg-password-1' },
      watch: false,
    });
    closers.push(() => registry.close());
    const a = testApp();
    const run = (datasourceId: string, runId: string) => ({
      datasourceId,
      runId,
      status: 'running',
      mode: 'copy',
    });
    registerConnectionRoutes(a, {
      sessions: fakeSessions,
      datasources: () => registry,
      pendingSeeds: async () => [
        run('prod', 'r1'),
        run('ops', 'r2'),
        run('gone', 'r3'),
        run('reports', 'r4'),
      ],
    });
    const user = await a.inject({ method: 'GET', url: '/api/connections/managed', headers: as('user:bob') });
    expect(user.json().pendingSeeds).toEqual([run('prod', 'r1'), run('reports', 'r4')]);
    // `reports` is for users only: an administrator is not told of its run either.
    const admin = await a.inject({
      method: 'GET',
      url: '/api/connections/managed',
      headers: as('admin:ann'),
    });
    expect(admin.json().pendingSeeds).toEqual([run('prod', 'r1'), run('ops', 'r2')]);
  });

  it('needs a session', async () => {
    const res = await (await app()).inject({ method: 'GET', url: '/api/connections/managed' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Authentication required', code: 'UNAUTHORIZED', statusCode: 401 });
  });

  it('lists what the role may see, marked managed, without secrets or objectRules', async () => {
    const a = await app();
    const user = await a.inject({ method: 'GET', url: '/api/connections/managed', headers: as('user:bob') });
    expect(user.statusCode).toBe(200);
    const body = user.json();
    expect(body.pendingSeeds).toEqual([]);
    expect(body.connections.map((c: { id: string }) => c.id)).toEqual(['prod', 'reports', 'broken']);
    const [prod, reports, broken] = body.connections;
    expect(prod).toEqual({
      id: 'prod',
      name: 'Production',
      type: 'postgres',
      managed: true,
      available: true,
      host: 'db.internal',
      port: 5432,
      database: 'orders',
      environment: 'production',
      readOnly: false,
      requireTicket: true,
      approvalsRequired: 2,
      canExport: false,
      policy: {
        readOnly: false,
        writeApproval: true,
        approvalsRequired: 2,
        approverRoles: [],
        requireTicket: true,
        freezeWindows: [],
        guardrails: true,
        masking: [{ column: 'users.email', rule: 'partial' }],
        maxRows: 1000,
      },
    });
    expect(reports).toMatchObject({
      id: 'reports',
      readOnly: true,
      exportRoles: ['admin', 'bob'],
      canExport: true,
    });
    expect(reports).not.toHaveProperty('connectionString');
    // An unavailable datasource is listed, but its reason (variable names) is for administrators.
    expect(broken).toEqual({
      id: 'broken',
      name: 'broken',
      type: 'postgres',
      managed: true,
      available: false,
    });
    for (const secret of [...SECRETS, 'app_owner', 'agent_ro', 'objectRules', 'password']) {
      expect(user.body).not.toContain(secret);
    }

    const admin = await a.inject({
      method: 'GET',
      url: '/api/connections/managed',
      headers: as('admin:root'),
    });
    const adminBody = admin.json();
    expect(adminBody.connections.map((c: { id: string }) => c.id)).toEqual(['prod', 'ops', 'broken']);
    expect(adminBody.connections[0].canExport).toBe(true);
    expect(adminBody.connections[2].unavailableReason).toBe(
      'environment variable DS_NOT_SET not set (used in password)',
    );
    for (const secret of [...SECRETS, 'objectRules', '"password"']) expect(admin.body).not.toContain(secret);
  });
});

describe('managed datasources in the running portal', () => {
  let server: PortalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves the list to signed-in users and follows edits of the file', async () => {
    const file = datasourcesFile();
    // The registry reads the process environment for `${ENV}` references.
    process.env.DS_PG_PASSWORD = 'pg-password-1';
    server = await portal({
      PORTAL_DATASOURCES: file,
      USER_EMAIL: USER.email,
      USER_PASSWORD: USER.password,
    });
    const get = (cookie: string) =>
      server!.app.inject({
        method: 'GET',
        url: '/api/connections/managed',
        headers: { cookie: `auth-token=${cookie}` },
      });
    const userCookie = await sessionFor(server, USER);
    const adminCookie = await sessionFor(server, ADMIN);
    const ids = async (cookie: string) =>
      (await get(cookie)).json().connections.map((c: { id: string }) => c.id);
    expect(await ids(userCookie)).toEqual(['prod', 'reports', 'broken']);
    expect(await ids(adminCookie)).toEqual(['prod', 'ops', 'broken']);
    expect((await server.app.inject({ method: 'GET', url: '/api/connections/managed' })).statusCode).toBe(
      401,
    );
    expect(server.datasources.getManaged('ops')?.policy.guardrails).toBe(false);
    // The server-side definition keeps what the listing leaves out.
    expect(server.datasources.getManaged('prod')).toMatchObject({
      connection: { password: 'pg-password-1', user: 'app_owner' },
      policy: { objectRules: { hidden: ['hidden_schema.payroll'] }, agent: { user: 'agent_ro' } },
    });
    const listed = await get(userCookie);
    for (const secret of SECRETS) expect(listed.body).not.toContain(secret);

    writeFileSync(file, 'datasources:\n  - { id: fresh, type: postgres, host: h, roles: [user] }\n');
    await waitFor(async () => (await ids(userCookie)).includes('fresh'), {
      what: 'the edited datasources file',
    });
    expect(await ids(userCookie)).toEqual(['fresh']);
  });
});
