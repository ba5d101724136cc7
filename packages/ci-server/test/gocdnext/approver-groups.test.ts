// gocdnext's approval gates as its docs write them (issue 29): `approver_groups` naming a group (kept by an
// admin through /api/v1/admin/approver-groups), `required` as a quorum of distinct listed approvers, and the
// gate's window as the job's `timeout`. With authentication on and real users: a gate naming a group nobody
// defined refuses everyone (403 naming the group), members approve, non-members get 403 in our `{error}`
// shape, the same person twice does not make a quorum; and the group's change applies to a waiting gate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { ADMIN_PASSWORD, asSession, createUser, login, startAuthServer } from '../auth/helpers.js';

let server: CiServer;
const as: Record<string, Record<string, string>> = {};
let pipeline = '';

const call = async (who: string, method: string, url: string, payload?: unknown) => {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: as[who],
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
};

// Written as gocdnext's approvals page shows it (concepts/approvals.md, "Groups + quorum").
const PROMOTE = `name: cd
stages: [prod]
jobs:
  promote-prod:
    stage: prod
    approval:
      description: "Promote build to production"
      approver_groups: [release-approvers, security-leads]
      required: 2
    timeout: 24h
`;

beforeAll(async () => {
  server = await startAuthServer();
  as.admin = asSession(await login(server, 'admin', ADMIN_PASSWORD));
  for (const [name, role] of [
    ['bob', 'maintainer'],
    ['carol', 'admin'],
  ]) {
    const u = await createUser(server, as.admin, name, role);
    as[name] = asSession(await login(server, name, u.password));
  }
  // dave is listed by his e-mail address.
  const dave = await call('admin', 'POST', '/api/v1/admin/users', {
    username: 'dave',
    password: 'dave-password-123',
    role: 'maintainer',
    email: 'dave@example.com',
  });
  expect(dave.status).toBe(201);
  as.dave = asSession(await login(server, 'dave', 'dave-password-123'));
  const applied = await call('admin', 'POST', '/api/v1/projects/apply', {
    slug: 'gocd-gates',
    files: [{ name: '.gocdnext/cd.yaml', content: PROMOTE }],
  });
  expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  pipeline = (await call('admin', 'GET', '/api/v1/projects/gocd-gates')).body.pipelines[0].id;
});
afterAll(() => server?.close());

/** The gate job run of a new run (the gate is the first stage: it waits at once). */
async function gateOfNewRun(): Promise<{ id: string; gate: any }> {
  const t = await call('admin', 'POST', `/api/v1/pipelines/${pipeline}/trigger`, {});
  expect(t.status).toBe(201);
  const run = (await call('admin', 'GET', `/api/v1/runs/${t.body.run_id}`)).body;
  const gate = run.stages[0].jobs[0];
  return { id: gate.id, gate: gate.gate };
}

describe("gocdnext's approver groups and quorum", () => {
  it('stores the gate as written: groups, quorum 2 and the 24 h window', async () => {
    const { gate } = await gateOfNewRun();
    expect(gate).toMatchObject({
      required: 2,
      approvers: [],
      approver_groups: ['release-approvers', 'security-leads'],
    });
  });

  it('refuses everyone while no group is defined, then admits members only, two distinct for the quorum', async () => {
    const { id } = await gateOfNewRun();
    const early = await call('bob', 'POST', `/api/v1/job_runs/${id}/approve`, {});
    expect(early.status).toBe(403);
    expect(early.body).toEqual({
      error: expect.stringMatching(
        /only group release-approvers or group security-leads may approve gate "promote-prod".*approver group release-approvers, security-leads is not defined/,
      ),
    });

    const put = await call('admin', 'PUT', '/api/v1/admin/approver-groups/release-approvers', {
      members: ['bob', 'Dave@Example.com'],
    });
    expect(put).toMatchObject({ status: 201, body: { name: 'release-approvers' } });
    expect((await call('bob', 'PUT', '/api/v1/admin/approver-groups/x', { members: [] })).status).toBe(403);
    expect(
      (await call('admin', 'PUT', '/api/v1/admin/approver-groups/admin', { members: ['bob'] })).status,
    ).toBe(400);

    // carol is an admin but in no listed group: refused, in our error shape.
    const carol = await call('carol', 'POST', `/api/v1/job_runs/${id}/approve`, {});
    expect(carol.status).toBe(403);
    expect(carol.body.error).toMatch(/carol \(admin\) is not one of them/);

    const first = await call('bob', 'POST', `/api/v1/job_runs/${id}/approve`, {});
    expect(first).toMatchObject({ status: 200, body: { status: 'awaiting_approval' } });
    expect((await call('bob', 'POST', `/api/v1/job_runs/${id}/approve`, {})).status).toBe(409);
    const second = await call('dave', 'POST', `/api/v1/job_runs/${id}/approve`, {});
    expect(second).toMatchObject({ status: 200, body: { status: 'success' } });

    const listed = await call('admin', 'GET', '/api/v1/admin/approver-groups');
    expect(listed.body.groups).toEqual([{ name: 'release-approvers', members: ['bob', 'Dave@Example.com'] }]);
    expect((await call('admin', 'DELETE', '/api/v1/admin/approver-groups/release-approvers')).status).toBe(
      204,
    );
    expect((await call('admin', 'DELETE', '/api/v1/admin/approver-groups/release-approvers')).status).toBe(
      404,
    );
  });

  it('a listed member may reject, which fails the gate at once', async () => {
    await call('admin', 'PUT', '/api/v1/admin/approver-groups/security-leads', { members: ['bob'] });
    const { id } = await gateOfNewRun();
    const rejected = await call('bob', 'POST', `/api/v1/job_runs/${id}/reject`, { comment: 'not today' });
    expect(rejected).toMatchObject({ status: 200, body: { run_status: 'failed' } });
  });
});
