// Group commit of job reports (dispatch/report-batches.ts): reports arriving in one tick are applied as one
// statement (starts) or one transaction (finishes), and a batch never decides what the single-report path
// would not. The case that matters: the last jobs of a stage finishing together — exactly one of them must
// take the full transition, so the stage finishes and the next one is queued. The reports are made at once
// (Promise.all), so they are in one batch by construction, not by timing.
import { describe, expect, it } from 'vitest';
import { JobTransitions } from '../../src/dispatch/job-transitions.js';
import type { Effect } from '../../src/domain/index.js';
import type { RunChange } from '../../src/events/run-events.js';
import { claimJobs, upsertAgent } from '../../src/store/agent-leases.js';
import { applyPipeline, cleanupsAfterEach, databaseUrl, STORES, startServer, trigger } from './helpers.js';

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
      N: ["1", "2", "3", "4"]
  ship:
    stage: deploy
    script: ["true"]
`;

const ok = { status: 'success' as const, exitCode: 0, error: '', commit: '' };

describe.each(STORES)('job reports in batches on %s', (kind) => {
  it("applies a tick of starts and finishes together; the stage's last finish still moves the run", async () => {
    const s = await startServer(await databaseUrl(kind));
    cleanups.push(() => s.server.close());
    const db = s.server.database.db;
    const transitions = new JobTransitions({
      db,
      postgres: s.server.database.dialect === 'postgres',
      events: s.server.events,
    });
    const effects: Effect[] = [];
    const onChange = (c: RunChange) => effects.push(...c.effects);
    s.server.events.on('change', onChange);
    cleanups.push(async () => void s.server.events.off('change', onChange));
    const agent = {
      id: await upsertAgent(db, { name: 'a', tags: [], capacity: 8, version: 't', hostname: 'h' }),
      name: 'a',
    };
    const runId = await trigger(s, await applyPipeline(s, 'batches', PIPELINE));
    const jobs = await db.selectFrom('job_runs').select(['id', 'name']).where('run_id', '=', runId).execute();
    const matrix = jobs.filter((j) => j.name !== 'ship').map((j) => j.id);
    expect(matrix).toHaveLength(4);
    expect(
      (
        await claimJobs(
          db,
          matrix.map((jobRunId) => ({ jobRunId, agent })),
          60_000,
        )
      ).size,
    ).toBe(4);

    // Four starts at once, the run's first among them: one batch applies all four and moves the run row
    // queued → running in the same statement.
    expect(await Promise.all(matrix.map((id) => transitions.started(id, agent.id, runId)))).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(transitions.batches?.stats.starts).toBe(4);
    const run = await db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    expect(run.status).toBe('running');

    // Four finishes at once, the whole stage: the stage counts let the batch apply three; the last would
    // start the next stage (whose rows the counts do not hold), so it takes the full transition.
    const outcomes = await Promise.all(matrix.map((id) => transitions.finished(id, agent.id, ok, runId)));
    expect(outcomes.every((o) => o.accepted && o.status === 'success')).toBe(true);
    expect(transitions.batches?.stats.finishes).toBe(3);
    const after = await db
      .selectFrom('job_runs')
      .select(['id', 'name', 'status', 'lease_agent_id', 'exit_code'])
      .where('run_id', '=', runId)
      .execute();
    for (const job of after.filter((j) => j.name !== 'ship'))
      expect(job).toMatchObject({ status: 'success', lease_agent_id: null, exit_code: 0 });
    const ship = after.find((j) => j.name === 'ship')!;
    expect(ship.status).toBe('queued');
    expect(effects).toContainEqual(expect.objectContaining({ kind: 'enqueue', jobId: ship.id }));
    const stages = await db
      .selectFrom('stage_runs')
      .select(['name', 'status'])
      .where('run_id', '=', runId)
      .orderBy('position')
      .execute();
    expect(stages.map((st) => st.name)).toEqual(['build', 'deploy']);
    expect(stages[0].status).toBe('success');

    // A report of a job the agent no longer holds is refused by the batch and by the full path alike.
    expect(await transitions.finished(matrix[0], agent.id, ok, runId)).toEqual({ accepted: false });
  });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit on postgres', () => {
  // One batch of finishes in flight at most: reports arriving while it waits (here on a run row another
  // transaction holds, so the wait is made, not timed) go as the next batch when it returns. A batch per tick
  // instead took a pooled connection each, all queued on the same run locks, and left claims and triggers
  // waiting for connections (the 50-agent benchmark's claim statement took 11 ms at rest).
  it('sends the finishes of later ticks as one next batch, not a batch per tick', async () => {
    const s = await startServer(await databaseUrl('postgres'));
    cleanups.push(() => s.server.close());
    const db = s.server.database.db;
    const transitions = new JobTransitions({ db, postgres: true, events: s.server.events });
    const agent = {
      id: await upsertAgent(db, { name: 'a', tags: [], capacity: 8, version: 't', hostname: 'h' }),
      name: 'a',
    };
    const runId = await trigger(s, await applyPipeline(s, 'inflight', PIPELINE));
    const matrix = (
      await db.selectFrom('job_runs').select(['id', 'name']).where('run_id', '=', runId).execute()
    )
      .filter((j) => j.name !== 'ship')
      .map((j) => j.id);
    await claimJobs(
      db,
      matrix.map((jobRunId) => ({ jobRunId, agent })),
      60_000,
    );
    await Promise.all(matrix.map((id) => transitions.started(id, agent.id, runId)));

    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const blocker = db.transaction().execute(async (trx) => {
      await trx.selectFrom('runs').select('id').where('id', '=', runId).forUpdate().execute();
      locked();
      await held;
    });
    await isLocked;
    const stats = transitions.batches!.stats;
    const before = stats.batches;
    const reports = [transitions.finished(matrix[0], agent.id, ok, runId)];
    try {
      await tick();
      expect(stats.batches - before).toBe(1);
      for (const id of matrix.slice(1, 3)) {
        reports.push(transitions.finished(id, agent.id, ok, runId));
        await tick();
        await tick();
      }
      // The first batch waits on the lock; the two reports after it wait for it, not in a batch of their own.
      expect(stats.batches - before).toBe(1);
    } finally {
      // Also when an expectation failed: the server's close would wait on the held lock.
      release();
      await blocker;
    }
    const outcomes = await Promise.all(reports);
    expect(outcomes.every((o) => o.accepted && o.status === 'success')).toBe(true);
    expect(stats.batches - before).toBe(2);
    expect(stats.finishes).toBe(3);
  });
});
