// Job-run routes on SQLite and PostgreSQL: rerun as a new attempt (earlier attempt and its logs kept),
// approve and reject of gates with recorded comments, and their 400/404/409 answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import {
  applyAndGetPipelines,
  BUILD_PIPELINE,
  type Client,
  client,
  DEPLOY_PIPELINE,
  STORES,
  startApiServer,
} from '../api-helpers.js';
import { dbOf, finishJob, startJob, writeLogs } from './agent-sim.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const TWO_APPROVERS = DEPLOY_PIPELINE.replace('name: deploy', 'name: guarded').replace(
  'description: Ship it?',
  'description: Ship it?\n      required: 2',
);

describe.each(STORES)('job-run routes on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
    ids = await applyAndGetPipelines(api, 'shop', [BUILD_PIPELINE, DEPLOY_PIPELINE, TWO_APPROVERS]);
  });
  afterAll(async () => server?.close());

  const detail = async (runId: string) => (await api.get(`/api/v1/runs/${runId}`)).body;
  const newRun = async (pipeline: string) =>
    (await api.post(`/api/v1/pipelines/${pipeline}/trigger`)).body.run_id;
  const decisions = (jobId: string) =>
    dbOf(server)
      .selectFrom('job_run_decisions')
      .select(['decision', 'actor', 'comment'])
      .where('job_run_id', '=', jobId)
      .orderBy('at')
      .execute();

  it('reruns a failed job as attempt 2, keeping attempt 1 and its logs readable', async () => {
    const runId = await newRun(ids.build);
    const first = (await detail(runId)).stages[0].jobs[0].id;
    await startJob(server, first);
    await writeLogs(server, first, 3);
    await finishJob(server, first, 'failed', 2);
    const failed = await detail(runId);
    expect(failed.status).toBe('failed');
    expect(failed.stages.map((s: { status: string }) => s.status)).toEqual(['failed', 'skipped']);

    const res = await api.post(`/api/v1/job_runs/${first}/rerun`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ job_run_id: expect.any(String), run_id: runId, attempt: 2 });
    expect(res.body.job_run_id).not.toBe(first);
    const again = await detail(runId);
    expect(again.status).toBe('running');
    expect(again.finished_at).toBeNull();
    const attempts = again.stages[0].jobs;
    expect(attempts.map((j: { attempt: number; status: string }) => [j.attempt, j.status])).toEqual([
      [1, 'failed'],
      [2, 'queued'],
    ]);
    expect(attempts[0].exit_code).toBe(2);
    expect(attempts[0].logs.map((l: { text: string }) => l.text)).toEqual(['line 1', 'line 2', 'line 3']);
    expect(attempts[1].logs).toEqual([]);
    expect(again.stages[1].status).toBe('created');
    expect(again.stages[1].jobs.map((j: { status: string }) => j.status)).toEqual(['created', 'created']);

    // The superseded attempt and the active one cannot be rerun.
    expect((await api.post(`/api/v1/job_runs/${first}/rerun`)).status).toBe(409);
    const busy = await api.post(`/api/v1/job_runs/${res.body.job_run_id}/rerun`);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatch(/queued/);
    await startJob(server, res.body.job_run_id);
    await finishJob(server, res.body.job_run_id, 'success');
    expect((await detail(runId)).stages[1].jobs.map((j: { status: string }) => j.status)).toEqual([
      'queued',
      'queued',
    ]);
  });

  it('approves a gate with a recorded comment and releases the next stage', async () => {
    const runId = await newRun(ids.deploy);
    const run = await detail(runId);
    expect(run.status).toBe('running');
    const gate = run.stages[0].jobs[0];
    expect(gate).toMatchObject({ name: 'approve', status: 'awaiting_approval' });
    expect(gate.started_at).not.toBeNull();

    const res = await api.post(`/api/v1/job_runs/${gate.id}/approve`, { comment: 'looks good' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      job_run_id: gate.id,
      run_id: runId,
      status: 'success',
      run_status: 'running',
    });
    expect(await decisions(gate.id)).toEqual([
      { decision: 'approve', actor: 'anonymous', comment: 'looks good' },
    ]);
    const after = await detail(runId);
    expect(after.stages.map((s: { status: string }) => s.status)).toEqual(['success', 'running']);
    expect(after.stages[1].jobs[0].status).toBe('queued');
    expect(after.stages[0].jobs[0].gate).toMatchObject({ required: 1, approvals: 1 });
    expect(after.stages[1].jobs[0]).toMatchObject({ gate: null, needs: [] });

    const twice = await api.post(`/api/v1/job_runs/${gate.id}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatch(/awaiting_approval/);
    const notGate = await api.post(`/api/v1/job_runs/${after.stages[1].jobs[0].id}/approve`);
    expect(notGate.status).toBe(409);
  });

  it('rejects a gate: the run fails and the comment is recorded; the body is optional', async () => {
    const runId = await newRun(ids.deploy);
    const gate = (await detail(runId)).stages[0].jobs[0];
    const res = await api.post(`/api/v1/job_runs/${gate.id}/reject`, { comment: 'not today' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ job_run_id: gate.id, run_id: runId, status: 'failed', run_status: 'failed' });
    const after = await detail(runId);
    expect(after.status).toBe('failed');
    expect(after.finished_at).not.toBeNull();
    expect(after.stages[1].jobs[0].status).toBe('skipped');
    expect(await decisions(gate.id)).toEqual([
      { decision: 'reject', actor: 'anonymous', comment: 'not today' },
    ]);
    expect((await api.post(`/api/v1/job_runs/${gate.id}/reject`)).status).toBe(409);

    const other = (await detail(await newRun(ids.deploy))).stages[0].jobs[0];
    const bare = await api.post(`/api/v1/job_runs/${other.id}/reject`);
    expect(bare.status).toBe(200);
    expect(await decisions(other.id)).toEqual([{ decision: 'reject', actor: 'anonymous', comment: null }]);
  });

  it('needs distinct approvers when a gate requires two', async () => {
    const runId = await newRun(ids.guarded);
    const gate = (await detail(runId)).stages[0].jobs[0];
    expect(gate.gate).toEqual({
      description: 'Ship it?',
      required: 2,
      approvals: 0,
      decisions: [],
      approvers: [],
      approver_groups: [],
      allow_self_approval: false,
    });
    const first = await api.post(`/api/v1/job_runs/${gate.id}/approve`, { comment: 'first look' });
    expect(first.body.status).toBe('awaiting_approval');
    // The run detail shows the gate's description, approvals needed and received, and who approved why.
    const shown = (await detail(runId)).stages[0].jobs[0].gate;
    expect(shown).toEqual({
      description: 'Ship it?',
      required: 2,
      approvals: 1,
      decisions: [{ decision: 'approve', actor: 'anonymous', comment: 'first look', at: expect.any(String) }],
      approvers: [],
      approver_groups: [],
      allow_self_approval: false,
    });
    const same = await api.post(`/api/v1/job_runs/${gate.id}/approve`);
    expect(same.status).toBe(409);
    expect(same.body.error).toMatch(/already approved/);
  });

  it('answers 400 for malformed ids and bodies and 404 for unknown job runs', async () => {
    const runId = await newRun(ids.deploy);
    const gate = (await detail(runId)).stages[0].jobs[0];
    for (const action of ['approve', 'reject', 'rerun']) {
      const malformed = await api.post(`/api/v1/job_runs/not-a-uuid/${action}`);
      expect(malformed.status, action).toBe(400);
      expect(malformed.body.error, action).toMatch(/UUID/);
      const unknown = await api.post(`/api/v1/job_runs/${UNKNOWN}/${action}`);
      expect(unknown.status, action).toBe(404);
      expect(unknown.body).toEqual({ error: `job run ${UNKNOWN} not found` });
    }
    const badField = await api.post(`/api/v1/job_runs/${gate.id}/approve`, { note: 'x' });
    expect(badField.status).toBe(400);
    expect(badField.body.error).toMatch(/unknown field "note"/);
    const badType = await api.post(`/api/v1/job_runs/${gate.id}/reject`, { comment: 5 });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toMatch(/comment must be string/);
    expect((await detail(runId)).stages[0].jobs[0].status).toBe('awaiting_approval');
    expect(await decisions(gate.id)).toEqual([]);
  });
});
