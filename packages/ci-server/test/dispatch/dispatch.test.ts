// The dispatcher and the agent endpoint with simulated agents speaking the real gRPC protocol, on SQLite
// and PostgreSQL: tags and capacity decide who gets what, pushed without polling; a silent agent's leases
// lapse (new attempt while `retry` allows, else failed "agent … was lost"); re-registration reconciles; a
// cancel reaches the agent; a rejected assignment goes back to the queue.
import { randomUUID } from 'node:crypto';
import { waitFor } from '@app/kit';
import { Code } from '@connectrpc/connect';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { StoreSchema } from '../../src/store/database.js';
import {
  applyPipeline,
  cleanupsAfterEach,
  databaseUrl,
  jobsOf,
  PIPE,
  SimAgent,
  STORES,
  startServer,
  trigger,
  waitRun,
} from './helpers.js';

const cleanups = cleanupsAfterEach();

async function setup(kind: (typeof STORES)[number]) {
  const s = await startServer(await databaseUrl(kind));
  const agents: SimAgent[] = [];
  cleanups.push(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await s.server.close();
  });
  const agent = async (name: string, opts: ConstructorParameters<typeof SimAgent>[2] = {}) => {
    const a = new SimAgent(s.grpcPort, name, opts).start();
    agents.push(a);
    await a.ready();
    await waitFor(async () => s.server.agents.connected().some((c) => c.name === name), { what: name });
    return a;
  };
  return { s, agent, db: s.server.database.db };
}

const jobRow = (db: Kysely<StoreSchema>, id: string) =>
  db.selectFrom('job_runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe.each(STORES)('dispatch on %s', (kind) => {
  it('hands jobs to free agents whose tags include the job tags, within their capacity', async () => {
    const { s, agent } = await setup(kind);
    const plain = await agent('plain', { capacity: 1 });
    const gpu = await agent('gpu', { tags: 'linux,gpu,x64', capacity: 2 });
    let maxHeld = 0;
    const watch = setInterval(() => (maxHeld = Math.max(maxHeld, gpu.held.size)), 5);
    cleanups.push(async () => clearInterval(watch));
    const pipeline = await applyPipeline(
      s,
      'tags',
      PIPE(`  train:
    stage: build
    tags: [gpu, linux]
    matrix: { N: ["1", "2", "3"] }
    script: [train]
  anywhere:
    stage: build
    matrix: { N: ["1", "2"] }
    script: [echo]`),
    );
    const runId = await trigger(s, pipeline);
    await waitFor(async () => plain.assignments.length === 1 && gpu.assignments.length === 2, {
      what: 'both agents full',
    });
    expect(plain.assignments[0].jobName).toBe('anywhere');
    for (const a of [...gpu.assignments, ...plain.assignments]) {
      expect(a.projectSlug).toBe('tags');
      expect(a.env.CI_JOB_NAME).toBe(a.jobName);
      expect(a.env.N).toMatch(/^[123]$/);
      expect(a.git?.url).toBe('https://git.example.test/repo.git');
    }
    // Nobody else can take the rest until a slot frees: the plain agent never gets a gpu job.
    const first = plain.assignments[0].jobRunId;
    await plain.started(first);
    await plain.finish(first);
    await waitFor(async () => plain.assignments.length === 2, { what: 'the second plain job' });
    expect(plain.assignments[1].jobName).toBe('anywhere');
    await plain.finish(plain.assignments[1].jobRunId);
    while (gpu.assignments.filter((a) => a.jobName === 'train').length < 3 || gpu.held.size > 0) {
      const next = [...gpu.held][0];
      if (next) await gpu.finish(next);
      else await new Promise((r) => setTimeout(r, 10));
    }
    const run = await waitRun(s, runId);
    expect(run.status).toBe('success');
    expect(gpu.assignments.map((a) => a.jobName)).toEqual(['train', 'train', 'train']);
    expect(maxHeld).toBeLessThanOrEqual(2);
    expect(
      jobsOf(run)
        .filter((j) => j.name === 'train')
        .every((j) => j.agent === 'gpu'),
    ).toBe(true);

    const metrics = (await s.server.app.inject({ url: '/metrics' })).body;
    expect(metrics).toMatch(/service_jobs_scheduled_total\{pipeline="p",project="tags"\} 5/);
    expect(metrics).toMatch(/service_grpc_server_handled_total\{grpc_method="Register",code="OK"\} \d/);
    expect(metrics).toMatch(
      /service_job_duration_seconds_count\{pipeline="p",project="tags",status="success"\} 5/,
    );
  });

  it('a silent agent loses its jobs: retried as a new attempt, or failed with "agent … was lost"', async () => {
    const { s, agent, db } = await setup(kind);
    const doomed = await agent('doomed', { capacity: 2 });
    const retried = await applyPipeline(
      s,
      'lost-retry',
      PIPE(`  work: { stage: build, retry: 1, script: [work] }`),
    );
    const final = await applyPipeline(s, 'lost-final', PIPE(`  work: { stage: build, script: [work] }`));
    const runA = await trigger(s, retried);
    const runB = await trigger(s, final);
    await waitFor(async () => doomed.assignments.length === 2, { what: 'both jobs on the doomed agent' });
    for (const a of doomed.assignments) await doomed.started(a.jobRunId);
    await doomed.stop(); // no more heartbeats: the leases lapse

    const failed = await waitRun(s, runB);
    expect(failed.status).toBe('failed');
    const [lost] = jobsOf(failed);
    expect((await jobRow(db, lost.id)).error).toMatch(/^agent doomed was lost/);
    // The notice is written to the job's log after the transition that failed it: wait for it to land.
    await waitFor(
      async () =>
        jobsOf((await s.inject('GET', `/api/v1/runs/${runB}?logs=100`)).body)[0]
          .logs.map((l: any) => l.text)
          .join('\n')
          .includes('[ci] agent doomed was lost'),
      { what: 'the lost-agent notice in the log' },
    );

    await waitFor(async () => jobsOf((await s.inject('GET', `/api/v1/runs/${runA}`)).body).length === 2, {
      what: 'a second attempt',
    });
    await agent('heir', { auto: 'success' });
    const run = await waitRun(s, runA);
    expect(run.status).toBe('success');
    expect(jobsOf(run).map((j) => [j.attempt, j.status, j.agent])).toEqual([
      [1, 'failed', 'doomed'],
      [2, 'success', 'heir'],
    ]);
    const fleet = (await s.inject('GET', '/api/v1/agents')).body.agents;
    expect(fleet.find((a: any) => a.name === 'doomed').status).toBe('offline');
  });

  it('re-registration keeps the jobs the agent still runs, re-queues what it lost and cancels the rest', async () => {
    const { s, agent, db } = await setup(kind);
    const first = await agent('phoenix', { capacity: 2 });
    const pipeline = await applyPipeline(
      s,
      'reconcile',
      PIPE(`  work: { stage: build, matrix: { N: ["1", "2"] }, script: [work] }`),
    );
    const runId = await trigger(s, pipeline);
    await waitFor(async () => first.assignments.length === 2, { what: 'two assignments' });
    const [kept, lost] = first.assignments.map((a) => a.jobRunId);
    await first.started(kept); // the other one never started
    await first.stop();

    const stranger = randomUUID();
    const again = new SimAgent(s.grpcPort, 'phoenix', { capacity: 2 });
    again.held.add(kept);
    again.held.add(stranger);
    cleanups.push(() => again.stop());
    again.start();
    await waitFor(async () => again.registered === 1, { what: 're-registration' });
    expect(again.registeredCancels).toEqual([stranger]);
    expect((await jobRow(db, kept)).status).toBe('running');
    // The job that never started is handed out again (here: to the same agent, which is free).
    await waitFor(async () => again.assignments.some((a) => a.jobRunId === lost), {
      what: 'the lost job again',
    });
    await again.started(lost);
    await again.finish(lost);
    await again.finish(kept);
    expect((await waitRun(s, runId)).status).toBe('success');
  });

  it('a cancel reaches the agent; a rejected assignment goes back to the queue', async () => {
    const { s, agent } = await setup(kind);
    const worker = await agent('worker', { capacity: 1 });
    const pipeline = await applyPipeline(s, 'cancel', PIPE(`  work: { stage: build, script: [sleep 100] }`));
    const runId = await trigger(s, pipeline);
    await waitFor(async () => worker.assignments.length === 1, { what: 'assignment' });
    const jobId = worker.assignments[0].jobRunId;
    await worker.started(jobId);
    expect((await s.inject('POST', `/api/v1/runs/${runId}/cancel`)).status).toBe(202);
    await waitFor(async () => worker.cancels.includes(jobId), { what: 'the cancel on the stream' });
    await worker.finish(jobId, 'canceled', 143);
    expect((await waitRun(s, runId)).status).toBe('canceled');

    const second = await trigger(s, pipeline);
    await waitFor(async () => worker.assignments.length === 2, { what: 'second assignment' });
    const rejected = worker.assignments[1].jobRunId;
    await worker.conn.call((o) =>
      worker.conn.client.reportJob(
        { jobRunId: rejected, kind: { case: 'rejected', value: { reason: 'full' } } },
        o,
      ),
    );
    worker.held.delete(rejected);
    await waitFor(async () => worker.assignments.length === 3, { what: 'the job offered again' });
    expect(worker.assignments[2].jobRunId).toBe(rejected);
    await worker.started(rejected);
    await worker.finish(rejected);
    expect((await waitRun(s, second)).status).toBe('success');
  });

  it('an approval gate left unanswered past its timeout cancels the run', async () => {
    const { s, db } = await setup(kind);
    const pipeline = await applyPipeline(
      s,
      'gate-timeout',
      PIPE(`  approve:
    stage: build
    approval: { description: Go?, timeout: 1s }`),
    );
    const runId = await trigger(s, pipeline);
    const run = await waitRun(s, runId, ['canceled']);
    const [gate] = jobsOf(run);
    expect(gate.status).toBe('canceled');
    expect((await jobRow(db, gate.id)).error).toMatch(/not answered within 1s/);
    expect(Date.parse(run.finished_at) - Date.parse(gate.started_at)).toBeGreaterThanOrEqual(1000);
  });

  it('refuses calls about job runs the agent does not hold, and unknown sessions', async () => {
    const { s, agent } = await setup(kind);
    const holder = await agent('holder', { capacity: 1 });
    const other = await agent('other', { capacity: 1 });
    const pipeline = await applyPipeline(
      s,
      'owned',
      PIPE(`  work: { stage: build, tags: [none-has-it], script: [x] }`),
    );
    await trigger(s, pipeline);
    const row = await s.server.database.db.selectFrom('job_runs').select('id').executeTakeFirstOrThrow();
    await expect(
      other.conn.client.pushLogs(
        { jobRunId: row.id, lines: [{ seq: 1n, stream: 'stdout', atMs: 1n, text: 'x' }] },
        { headers: { 'x-agent-session': await other.conn.session() } },
      ),
    ).rejects.toThrow(/not assigned to this agent/);
    // The effect, in the store: no line of the refused batch was kept for the job another agent could hold.
    const kept = await s.server.database.db
      .selectFrom('log_lines')
      .select('seq')
      .where('job_run_id', '=', row.id)
      .execute();
    expect(kept).toEqual([]);
    await expect(
      holder.conn.client.reportJob(
        { jobRunId: row.id, kind: { case: 'started', value: {} } },
        { headers: { 'x-agent-session': 'not-a-session' } },
      ),
    ).rejects.toThrow(/unknown agent session/);
  });

  it("PushLogBatches mixing the agent's own job with another agent's: its own batch is stored, the other's refused alone and none of its lines kept", async () => {
    const { s, agent, db } = await setup(kind);
    const holder = await agent('holder', { tags: 'mine', capacity: 1 });
    const thief = await agent('thief', { tags: 'theirs', capacity: 1 });
    const pipeline = await applyPipeline(
      s,
      'mixed',
      PIPE(`  a: { stage: build, tags: [mine], script: [x] }
  b: { stage: build, tags: [theirs], script: [x] }`),
    );
    await trigger(s, pipeline);
    await waitFor(async () => holder.held.size === 1 && thief.held.size === 1, { what: 'both jobs held' });
    const own = [...thief.held][0];
    const foreign = [...holder.held][0];
    const line = (text: string) => [{ seq: 1n, stream: 'stdout', atMs: 1n, text }];
    const headers = { 'x-agent-session': await thief.conn.session() };
    // The agent's own client: the direct path takes the call (and Connect answers the same, grpc-unary.test.ts).
    const answer = await thief.conn.client.pushLogBatches(
      {
        batches: [
          { jobRunId: own, lines: line('mine') },
          { jobRunId: foreign, lines: line('forged') },
          { jobRunId: 'not-a-job', lines: line('x') },
        ],
      },
      { headers },
    );
    expect(answer.results.map((r) => [r.jobRunId, r.code, r.ackedSeq])).toEqual([
      [own, 0, 1n],
      [foreign, Code.PermissionDenied, 0n],
      ['not-a-job', Code.InvalidArgument, 0n],
    ]);
    expect(answer.results[1].message).toMatch(/not assigned to this agent/);
    // The effect, in the store: the own line kept, nothing for the job the other agent holds.
    const kept = await db.selectFrom('log_lines').select(['job_run_id', 'text']).execute();
    expect(kept).toEqual([{ job_run_id: own, text: 'mine' }]);
    // Without a session (or a forged one) nothing is taken at all.
    for (const h of [{}, { 'x-agent-session': randomUUID() }])
      await expect(
        thief.conn.client.pushLogBatches(
          { batches: [{ jobRunId: own, lines: line('again') }] },
          { headers: h },
        ),
      ).rejects.toThrow(/session/);
    expect(await db.selectFrom('log_lines').select('text').execute()).toEqual([{ text: 'mine' }]);
    // A replayed seq cannot rewrite a stored line, and a batch past the line limit is refused alone, storing
    // none of its lines.
    const flood = Array.from({ length: 5001 }, (_, i) => ({
      seq: BigInt(i + 2),
      stream: 'stdout',
      atMs: 1n,
      text: 'flood',
    }));
    const replay = await thief.conn.client.pushLogBatches(
      {
        batches: [
          { jobRunId: own, lines: line('rewritten') },
          { jobRunId: own, lines: flood },
        ],
      },
      { headers },
    );
    expect(replay.results.map((r) => r.code)).toEqual([0, Code.InvalidArgument]);
    expect(await db.selectFrom('log_lines').select('text').execute()).toEqual([{ text: 'mine' }]);
  });

  it('reports on the session stream: answered there under their id, a job in order across messages, the same checks as ReportJob', async () => {
    const { s, agent, db } = await setup(kind);
    const holder = await agent('holder', { tags: 'mine', capacity: 1 });
    const thief = await agent('thief', { tags: 'theirs', capacity: 1 });
    const pipeline = await applyPipeline(
      s,
      'streamed',
      PIPE(`  a: { stage: build, tags: [mine], script: [x] }
  b: { stage: build, tags: [theirs], script: [x] }`),
    );
    const runId = await trigger(s, pipeline);
    await waitFor(async () => holder.held.size === 1 && thief.held.size === 1, { what: 'both jobs held' });
    const own = [...thief.held][0];
    const foreign = [...holder.held][0];
    const end = { case: 'finished' as const, value: { status: 'success', hasExitCode: true } };
    // The start and the end in two messages, the second sent before the first is answered: the end must not
    // overtake the start (a start applied after the end would be refused, and the agent told to cancel).
    const first = thief.conn.reportOnSession([{ jobRunId: own, kind: { case: 'started', value: {} } }]);
    const second = thief.conn.reportOnSession([
      { jobRunId: own, kind: end },
      { jobRunId: foreign, kind: end },
      // A rejection of another agent's job must not give it back to the queue.
      { jobRunId: foreign, kind: { case: 'rejected', value: { reason: 'full' } } },
      { jobRunId: 'not-a-job', kind: end },
    ]);
    expect(first).toBeDefined();
    const answers = await Promise.all([first, second]);
    expect(answers.map((rs) => rs?.map((r) => [r.jobRunId, r.code]))).toEqual([
      [[own, 0]],
      [
        [own, 0],
        [foreign, 0],
        [foreign, 0],
        ['not-a-job', Code.InvalidArgument],
      ],
    ]);
    // Stream order: a cancel caused by the first message would have come down before its answer.
    expect(thief.cancels).toEqual([]);
    const row = await jobRow(db, own);
    expect(row).toMatchObject({ status: 'success', lease_agent_id: null });
    expect(Date.parse(row.started_at ?? '')).toBeLessThanOrEqual(Date.parse(row.finished_at ?? ''));
    // The other agent's job is as it was (still leased to its holder), and so is its holder's slot.
    expect(await jobRow(db, foreign)).toMatchObject({ status: 'queued', started_at: null });
    expect((await jobRow(db, foreign)).lease_agent_id).not.toBeNull();
    expect(
      s.server.agents
        .connected()
        .find((a) => a.name === 'holder')
        ?.leased.has(foreign),
    ).toBe(true);
    // A message of more than 1,024 reports is refused whole: every report answered with the refusal.
    const flood = await thief.conn.reportOnSession(
      Array.from({ length: 1025 }, () => ({ jobRunId: foreign, kind: end })),
    );
    expect(new Set(flood?.map((r) => `${r.code} ${r.message}`))).toEqual(
      new Set([`${Code.InvalidArgument} at most 1024 reports per call`]),
    );
    await holder.started(foreign);
    await holder.finish(foreign);
    expect((await waitRun(s, runId)).status).toBe('success');
  });

  it('the direct agent port holds the same line: no session, an empty or forged one, or a finish for a job not held change nothing', async () => {
    const { s, agent } = await setup(kind);
    const other = await agent('other', { capacity: 1 });
    const pipeline = await applyPipeline(
      s,
      'owned',
      PIPE(`  work: { stage: build, tags: [none-has-it], script: [x] }`),
    );
    await trigger(s, pipeline);
    const db = s.server.database.db;
    const row = await db.selectFrom('job_runs').select(['id', 'status']).executeTakeFirstOrThrow();
    const lines = [{ seq: 1n, stream: 'stdout', atMs: 1n, text: 'forged' }];
    // The agent's own client sends plain binary gRPC: the direct path (grpc-unary.ts) takes every call here.
    for (const headers of [{}, { 'x-agent-session': '' }, { 'x-agent-session': `${randomUUID()}` }])
      await expect(other.conn.client.pushLogs({ jobRunId: row.id, lines }, { headers })).rejects.toThrow(
        /session/,
      );
    // Reports about a job the agent does not hold are answered (the protocol acks them) and change nothing.
    const session = await other.conn.session();
    const headers = { 'x-agent-session': session };
    await other.conn.client
      .reportJob({ jobRunId: row.id, kind: { case: 'started', value: {} } }, { headers })
      .catch(() => undefined);
    await other.conn.client
      .reportJob(
        { jobRunId: row.id, kind: { case: 'finished', value: { status: 'success', lastSeq: 0n } } },
        { headers },
      )
      .catch(() => undefined);
    // The effect, in the store: the job is as it was, with no line and no agent.
    const after = await db
      .selectFrom('job_runs')
      .select(['status', 'lease_agent_id'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ status: row.status, lease_agent_id: null });
    expect(await db.selectFrom('log_lines').select('seq').where('job_run_id', '=', row.id).execute()).toEqual(
      [],
    );
  });
});
