// Agent reports applied as one UPDATE of the job's row (store/job-report-statements.ts) and as the full
// transition: the same outcome either way, the run row written only when the run's status changes, and the
// report that completes a stage (or releases a job waiting on needs) still advancing the run. Reports go
// straight to JobTransitions with the run known, as the agent endpoint sends them for jobs it handed out.
import { describe, expect, it } from 'vitest';
import { JobTransitions } from '../../src/dispatch/job-transitions.js';
import type { Effect } from '../../src/domain/index.js';
import type { RunChange } from '../../src/events/run-events.js';
import { claimJobs, upsertAgent } from '../../src/store/agent-leases.js';
import {
  applyPipeline,
  cleanupsAfterEach,
  databaseUrl,
  PIPE,
  STORES,
  type Started,
  startServer,
  trigger,
} from './helpers.js';

const cleanups = cleanupsAfterEach();

const PIPELINE = `name: p
materials:
  - git: { url: "https://git.example.test/repo.git", branch: main }
stages: [build, deploy]
jobs:
  m:
    stage: build
    script: ["true"]
    matrix:
      N: ["1", "2", "3"]
  after:
    stage: build
    needs: [m]
    script: ["true"]
  ship:
    stage: deploy
    script: ["true"]
`;

async function setup(kind: (typeof STORES)[number]) {
  const s = await startServer(await databaseUrl(kind));
  cleanups.push(() => s.server.close());
  const db = s.server.database.db;
  const transitions = new JobTransitions({
    db,
    postgres: s.server.database.dialect === 'postgres',
    events: s.server.events,
  });
  const agentA = { id: await upsertAgent(db, agentInfo('a')), name: 'a' };
  const agentB = { id: await upsertAgent(db, agentInfo('b')), name: 'b' };
  const effects: Effect[] = [];
  const onChange = (c: RunChange) => effects.push(...c.effects);
  s.server.events.on('change', onChange);
  cleanups.push(async () => void s.server.events.off('change', onChange));
  return { s, db, transitions, agentA, agentB, effects };
}

const agentInfo = (name: string) => ({ name, tags: [], capacity: 8, version: 'test', hostname: 'h' });

async function runState(s: Started, runId: string) {
  const db = s.server.database.db;
  const run = await db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
  const stages = await db
    .selectFrom('stage_runs')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
  const jobs = await db
    .selectFrom('job_runs')
    .selectAll()
    .where('run_id', '=', runId)
    .orderBy('position')
    .orderBy('attempt')
    .execute();
  return { run, stages, jobs };
}

describe.each(STORES)('job reports on %s', (kind) => {
  it('starts and finishes jobs touching only their rows until the run or a stage moves', async () => {
    const { s, db, transitions, agentA, agentB, effects } = await setup(kind);
    const pipeline = await applyPipeline(s, 'reports', PIPELINE);
    const runId = await trigger(s, pipeline);
    let state = await runState(s, runId);
    const matrix = state.jobs.filter((j) => j.name === 'm');
    const after = state.jobs.find((j) => j.name === 'after')!;
    expect(matrix.map((j) => j.status)).toEqual(['queued', 'queued', 'queued']);
    expect(after.status).toBe('created');
    expect(state.run.status).toBe('queued');
    const [m1, m2, m3] = matrix.map((j) => j.id);
    const won = await claimJobs(
      db,
      matrix.map((j) => ({ jobRunId: j.id, agent: agentA })),
      60_000,
    );
    expect(won.size).toBe(3);

    // Another agent's report is refused, and changes nothing.
    expect(await transitions.started(m1, agentB.id, runId)).toBe('the job run is not assigned to this agent');
    // The first start of the run: the run becomes running.
    expect(await transitions.started(m1, agentA.id, runId, 'sandbox')).toBeNull();
    state = await runState(s, runId);
    expect(state.run.status).toBe('running');
    expect(state.run.started_at).not.toBeNull();
    const runRow = state.run;

    // The next starts change their own rows only.
    expect(await transitions.started(m2, agentA.id, runId, 'podman')).toBeNull();
    expect(await transitions.started(m3, agentA.id, runId, 'bogus')).toBeNull();
    // A repeated start is accepted and changes nothing.
    expect(await transitions.started(m3, agentA.id, runId)).toBeNull();
    state = await runState(s, runId);
    expect(state.run).toEqual(runRow);
    const byId = new Map(state.jobs.map((j) => [j.id, j]));
    expect(byId.get(m2)).toMatchObject({ status: 'running', engine: 'podman', lease_agent_id: agentA.id });
    expect(byId.get(m2)?.started_at).not.toBeNull();
    expect(byId.get(m3)?.engine).toBeNull();

    // A finish while "after" waits on m: the full transition (it stays created until all of m succeeded).
    expect(
      await transitions.finished(
        m1,
        agentA.id,
        { status: 'success', exitCode: 0, error: '', commit: '' },
        runId,
      ),
    ).toMatchObject({ accepted: true, status: 'success' });
    expect(
      await transitions.finished(
        m2,
        agentA.id,
        { status: 'success', exitCode: 0, error: 'x', commit: '' },
        runId,
      ),
    ).toMatchObject({ accepted: true, status: 'success' });
    state = await runState(s, runId);
    expect(state.jobs.find((j) => j.id === m2)).toMatchObject({
      status: 'success',
      exit_code: 0,
      error: null,
      lease_agent_id: null,
      lease_expires_at: null,
    });
    expect(state.jobs.find((j) => j.id === after.id)?.status).toBe('created');
    effects.length = 0;
    // The last of m releases "after".
    await transitions.finished(
      m3,
      agentA.id,
      { status: 'success', exitCode: 0, error: '', commit: '' },
      runId,
    );
    expect(effects).toContainEqual({ kind: 'enqueue', jobId: after.id });
    state = await runState(s, runId);
    expect(state.jobs.find((j) => j.id === after.id)?.status).toBe('queued');
    expect(state.stages.map((st) => st.status)).toEqual(['running', 'created']);

    // "after" is the stage's last job: its finish ends the stage and starts the next.
    await claimJobs(db, [{ jobRunId: after.id, agent: agentA }], 60_000);
    expect(await transitions.started(after.id, agentA.id, runId)).toBeNull();
    const commit = 'a'.repeat(40);
    await transitions.finished(
      after.id,
      agentA.id,
      { status: 'success', exitCode: 0, error: '', commit },
      runId,
    );
    state = await runState(s, runId);
    expect(state.stages.map((st) => st.status)).toEqual(['success', 'running']);
    expect(state.run.revision).toBe(commit);
    const ship = state.jobs.find((j) => j.name === 'ship')!;
    expect(ship.status).toBe('queued');
    expect(effects).toContainEqual({ kind: 'enqueue', jobId: ship.id });

    await claimJobs(db, [{ jobRunId: ship.id, agent: agentB }], 60_000);
    expect(await transitions.started(ship.id, agentB.id, runId)).toBeNull();
    // A finish by an agent that no longer holds the job is not accepted.
    expect(
      await transitions.finished(
        ship.id,
        agentA.id,
        { status: 'success', exitCode: 0, error: '', commit: '' },
        runId,
      ),
    ).toEqual({ accepted: false });
    await transitions.finished(
      ship.id,
      agentB.id,
      { status: 'canceled', exitCode: 143, error: 'stopped', commit: '' },
      runId,
    );
    state = await runState(s, runId);
    expect(state.run.status).toBe('canceled');
    expect(state.run.finished_at).not.toBeNull();
    expect(state.run.revision).toBe(commit);
    expect(state.jobs.find((j) => j.id === ship.id)).toMatchObject({ status: 'canceled', error: 'stopped' });
  });

  it('a finish that leaves its stage running records the result and keeps the run row as it was', async () => {
    const { s, db, transitions, agentA } = await setup(kind);
    const pipeline = await applyPipeline(
      s,
      'busy',
      PIPE(`  m:
    stage: build
    script: ["true"]
    matrix:
      N: ["1", "2"]
`),
    );
    const runId = await trigger(s, pipeline);
    const [m1, m2] = (await runState(s, runId)).jobs.map((j) => j.id);
    await claimJobs(
      db,
      [m1, m2].map((jobRunId) => ({ jobRunId, agent: agentA })),
      60_000,
    );
    for (const id of [m1, m2]) expect(await transitions.started(id, agentA.id, runId)).toBeNull();
    const before = (await runState(s, runId)).run;
    const outcome = await transitions.finished(
      m1,
      agentA.id,
      { status: 'canceled', exitCode: 143, error: 'stopped by hand', commit: 'b'.repeat(40) },
      runId,
    );
    expect(outcome.accepted).toBe(true);
    expect(outcome.status).toBe('canceled');
    expect(outcome.startedAt).toEqual(expect.any(String));
    const state = await runState(s, runId);
    expect(state.run).toEqual({ ...before, revision: 'b'.repeat(40) });
    expect(state.stages[0].status).toBe('running');
    expect(state.jobs.find((j) => j.id === m1)).toMatchObject({
      status: 'canceled',
      exit_code: 143,
      error: 'stopped by hand',
      lease_agent_id: null,
    });
    expect(state.jobs.find((j) => j.id === m1)?.finished_at).not.toBeNull();
    // The stage's last job: the stage and the run finish, canceled (a canceled job rolls up).
    await transitions.finished(
      m2,
      agentA.id,
      { status: 'success', exitCode: 0, error: '', commit: '' },
      runId,
    );
    const done = await runState(s, runId);
    expect(done.run.status).toBe('canceled');
    expect(done.stages[0].status).toBe('canceled');
  });

  it('a start in a run being canceled is refused', async () => {
    const { s, db, transitions, agentA } = await setup(kind);
    const pipeline = await applyPipeline(
      s,
      'cancel',
      PIPE(`  m:
    stage: build
    script: ["true"]
    matrix:
      N: ["1", "2"]
`),
    );
    const runId = await trigger(s, pipeline);
    const [m1, m2] = (await runState(s, runId)).jobs.map((j) => j.id);
    await claimJobs(
      db,
      [m1, m2].map((jobRunId) => ({ jobRunId, agent: agentA })),
      60_000,
    );
    expect(await transitions.started(m1, agentA.id, runId)).toBeNull();
    expect((await s.inject('POST', `/api/v1/runs/${runId}/cancel`)).status).toBe(202);
    expect(await transitions.started(m2, agentA.id, runId)).toMatch(/canceled/);
    const state = await runState(s, runId);
    expect(state.jobs.find((j) => j.id === m2)?.status).toBe('canceled');
    expect(state.run.cancel_requested).toBe(1);
  });
});
