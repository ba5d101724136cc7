// Who may decide a manual gate, with authentication on and real users: `approval.approvers` (a user name or
// an e-mail address), `approval.approver_groups` (roles), no self-approval by whoever triggered the run
// unless `approval.allow_self_approval: true` (rejecting one's own gate stays allowed); refusals are 403
// `{error}` naming why, and the run detail says who may approve. The rule itself is also table-tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalSpec } from '../../src/domain/index.js';
import type { CiServer } from '../../src/index.js';
import { type Decider, refuseDecision } from '../../src/services/gate-approvers.js';
import { bundle } from '../api-helpers.js';
import { ADMIN_PASSWORD, asSession, createUser, login, startAuthServer } from '../auth/helpers.js';

const gate = (name: string, approval: string) => `name: ${name}
stages: [gate]
jobs:
  ${name}-gate: { stage: gate, approval: ${approval} }`;

describe('gate approvers (authentication on)', () => {
  let server: CiServer;
  const as: Record<string, Record<string, string>> = {};
  const pipelines: Record<string, string> = {};

  const call = async (who: string, method: string, url: string, payload?: unknown) => {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      headers: as[who],
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  /** A run of `pipeline` triggered by `who`; answers the gate's job run. */
  const gateOf = async (pipeline: string, who: string) => {
    const t = await call(who, 'POST', `/api/v1/pipelines/${pipelines[pipeline]}/trigger`, {});
    expect(t.status).toBe(201);
    const run = await call(who, 'GET', `/api/v1/runs/${t.body.run_id}`);
    return run.body.stages[0].jobs[0];
  };

  beforeAll(async () => {
    server = await startAuthServer();
    as.admin = asSession(await login(server, 'admin', ADMIN_PASSWORD));
    const alice = await server.app.inject({
      method: 'POST',
      url: '/api/v1/admin/users',
      headers: as.admin,
      payload: {
        username: 'alice',
        password: 'alice-password-123',
        role: 'maintainer',
        email: 'Alice@Example.com',
      },
    });
    expect(alice.statusCode).toBe(201);
    as.alice = asSession(await login(server, 'alice', 'alice-password-123'));
    for (const [name, role] of [
      ['bob', 'maintainer'],
      ['carol', 'admin'],
    ]) {
      const u = await createUser(server, as.admin, name, role);
      as[name] = asSession(await login(server, name, u.password));
    }
    const applied = await call('admin', 'POST', '/api/v1/projects/apply', {
      yaml: bundle('gates', [
        gate('named', '{ approvers: [alice@example.com], timeout: 24h }'),
        gate('roles', '{ approver_groups: [admin], timeout: never }'),
        gate('plain', '{ description: Ship? }'),
        gate('selfok', '{ allow_self_approval: true }'),
      ]),
    });
    expect(applied.status).toBe(200);
    const detail = await call('admin', 'GET', '/api/v1/projects/gates');
    for (const p of detail.body.pipelines) pipelines[p.name] = p.id;
  });
  afterAll(() => server?.close());

  it('approvers by e-mail: others get 403 naming who may; the named user approves', async () => {
    const job = await gateOf('named', 'carol');
    expect(job.gate).toMatchObject({
      approvers: ['alice@example.com'],
      approver_groups: [],
      allow_self_approval: false,
    });
    const bob = await call('bob', 'POST', `/api/v1/job_runs/${job.id}/approve`, {});
    expect(bob.status).toBe(403);
    expect(bob.body).toEqual({
      error: expect.stringMatching(
        /only alice@example\.com may approve gate "named-gate".*bob \(maintainer\) is not one of them/,
      ),
    });
    expect((await call('bob', 'POST', `/api/v1/job_runs/${job.id}/reject`, {})).status).toBe(403);
    const ok = await call('alice', 'POST', `/api/v1/job_runs/${job.id}/approve`, {});
    expect(ok).toMatchObject({ status: 200, body: { status: 'success' } });
  });

  it('approver_groups are roles: a maintainer is refused an admin gate, an admin approves', async () => {
    const job = await gateOf('roles', 'alice');
    const bob = await call('bob', 'POST', `/api/v1/job_runs/${job.id}/approve`, {});
    expect(bob.status).toBe(403);
    expect(bob.body.error).toMatch(/only role admin may approve/);
    expect((await call('carol', 'POST', `/api/v1/job_runs/${job.id}/approve`, {})).status).toBe(200);
  });

  it('whoever triggered the run may not approve its gate by default, but may reject it', async () => {
    const job = await gateOf('plain', 'bob');
    const self = await call('bob', 'POST', `/api/v1/job_runs/${job.id}/approve`, {});
    expect(self.status).toBe(403);
    expect(self.body.error).toMatch(/bob triggered this run and may not approve .*allow_self_approval: true/);
    expect((await call('alice', 'POST', `/api/v1/job_runs/${job.id}/approve`, {})).status).toBe(200);

    const other = await gateOf('plain', 'bob');
    expect((await call('bob', 'POST', `/api/v1/job_runs/${other.id}/reject`, { comment: 'no' })).status).toBe(
      200,
    );
  });

  it('allow_self_approval: true lets the one who triggered approve', async () => {
    const job = await gateOf('selfok', 'bob');
    expect(job.gate.allow_self_approval).toBe(true);
    expect((await call('bob', 'POST', `/api/v1/job_runs/${job.id}/approve`, {})).status).toBe(200);
  });

  it('a viewer is still refused by the role check (403)', async () => {
    const job = await gateOf('plain', 'admin');
    const v = await createUser(server, as.admin, 'vera', 'viewer');
    const vera = asSession(await login(server, 'vera', v.password));
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/v1/job_runs/${job.id}/approve`,
      headers: vera,
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('refuseDecision', () => {
  const who = (username: string, role: Decider['role'], email: string | null = null): Decider => ({
    username,
    role,
    email,
    anonymous: false,
  });
  it.each([
    ['no list: any maintainer', {}, 'approve', who('bob', 'maintainer'), 'alice', null],
    ['listed by name, any case', { approvers: ['BOB'] }, 'approve', who('bob', 'maintainer'), 'x', null],
    [
      'listed by e-mail',
      { approvers: ['b@x.org'] },
      'approve',
      who('bob', 'maintainer', 'B@x.org'),
      'x',
      null,
    ],
    ['not listed', { approvers: ['alice'] }, 'approve', who('bob', 'admin'), 'x', /only alice may approve/],
    [
      'role maintainer admits admins',
      { approver_groups: ['maintainer'] },
      'approve',
      who('c', 'admin'),
      'x',
      null,
    ],
    [
      'role admin refuses maintainers',
      { approver_groups: ['admin'] },
      'reject',
      who('c', 'maintainer'),
      'x',
      /reject/,
    ],
    [
      'name or role',
      { approvers: ['bob'], approver_groups: ['admin'] },
      'approve',
      who('bob', 'maintainer'),
      'x',
      null,
    ],
    ['self', {}, 'approve', who('bob', 'maintainer'), 'Bob', /bob triggered this run/],
    ['self through a webhook login', {}, 'approve', who('bob', 'maintainer'), 'github:bob', /triggered/],
    ['self by e-mail', {}, 'approve', who('bob', 'maintainer', 'b@x.org'), 'b@x.org', /triggered/],
    ['self allowed', { allow_self_approval: true }, 'approve', who('bob', 'maintainer'), 'bob', null],
    ['self may reject', {}, 'reject', who('bob', 'maintainer'), 'bob', null],
    [
      'authentication off: nobody is "self"',
      {},
      'approve',
      { ...who('anonymous', 'admin'), anonymous: true },
      'anonymous',
      null,
    ],
  ] as [string, Partial<ApprovalSpec>, 'approve' | 'reject', Decider, string, RegExp | null][])(
    '%s',
    (_name, extra, decision, decider, triggeredBy, expected) => {
      const refusal = refuseDecision('g', { required: 1, ...extra }, decision, decider, triggeredBy);
      if (expected === null) expect(refusal).toBeNull();
      else expect(refusal).toMatch(expected);
    },
  );
});
