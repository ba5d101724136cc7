// Per-stage job counts (domain/stage-counts.ts, store/job-report-statements.ts): written with the rows they
// count by every path — a tick's batch, a single report, the full transition (a retry) — so after every step
// they equal a count of the stage's current rows; a run's last finish ends the run from the counts alone. A
// transaction cut off half-way (the server dying with it in flight) leaves rows and counts as they were, and
// a second server on the same database (a replica taking over, with nothing in memory) finishes the run from
// them; counts that are not known (stages written before the counts existed) are recomputed by the full
// transition. Reports made at once (Promise.all) are in one batch by construction, not by timing.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { JobTransitions } from '../../src/dispatch/job-transitions.js';
import { countStage, type Effect } from '../../src/domain/index.js';
import type { RunChange } from '../../src/events/run-events.js';
import { claimJobs, upsertAgent } from '../../src/store/agent-leases.js';
import type { StoreDb } from '../../src/store/database.js';
import { finishJobsByCounts, lockRunsForReports } from '../../src/store/job-report-statements.js';
import { loadRun } from '../../src/store/run-snapshot.js';
import { applyPipeline, cleanupsAfterEach, databaseUrl, STORES, startServer, trigger } from './helpers.js';

const cleanups = cleanupsAfterEach();

const PIPELINE = `name: p
materials:
  - git: { url: "https://git.example.test/repo.git", branch: main }
stages: [build]
jobs:
  m:
    stage: build
    script: ["true"]
    retry: 1
    matrix:
      N: ["1", "2", "3", "4"]
`;

/** Each test starts a server and runs migrations: a loaded machine needs more than the default 30 s. */
const BUDGET_MS = 90_000;

const report = (status: 'success' | 'failed' | 'canceled') => ({
  status,
  exitCode: 0,
  error: '',
  commit: '',
});

async function setup(kind: (typeof STORES)[number], slug: string) {
  const s = await startServer(await databaseUrl(kind));
  cleanups.push(() => s.server.close());
  const db = s.server.database.db;
  const postgres = s.server.database.dialect === 'postgres';
  const effects: Effect[] = [];
  const onChange = (c: RunChange) => effects.push(...c.effects);
  s.server.events.on('change', onChange);
  cleanups.push(async () => void s.server.events.off('change', onChange));
  const replica = () => new JobTransitions({ db, postgres, events: s.server.events });
  const agent = {
    id: await upsertAgent(db, { name: 'a', tags: [], capacity: 8, version: 't', hostname: 'h' }),
    name: 'a',
  };
  const runId = await trigger(s, await applyPipeline(s, slug, PIPELINE));
  const claim = async (ids: string[]) =>
    expect(
      (
        await claimJobs(
          db,
          ids.map((jobRunId) => ({ jobRunId, agent })),
          60_000,
        )
      ).size,
    ).toBe(ids.length);
  return { db, postgres, effects, replica, agent, runId, claim };
}

/** The stage rows' counts equal a count of their current rows (the full transition's own view). */
async function expectCountsRight(db: StoreDb, runId: string, postgres: boolean) {
  const { stages, snapshot } = await db
    .transaction()
    .execute(async (trx) => (await loadRun(trx, runId, postgres))!);
  for (const [i, stage] of stages.entries())
    expect({
      active: stage.active_jobs,
      created: stage.created_jobs,
      failed: stage.failed_jobs,
      canceled: stage.canceled_jobs,
    }).toEqual(countStage(snapshot.stages[i]));
}

const jobIds = (db: StoreDb, runId: string) =>
  db
    .selectFrom('job_runs')
    .select(['id', 'status', 'attempt', 'position'])
    .where('run_id', '=', runId)
    .orderBy('position')
    .orderBy('attempt')
    .execute();

const runRow = (db: StoreDb, runId: string) =>
  db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();

describe.each(STORES)('stage job counts on %s', (kind) => {
  it(
    'follow every report, a retry included, and end the run from the counts alone',
    async () => {
      const { db, postgres, effects, replica, agent, runId, claim } = await setup(kind, 'counts');
      const t = replica();
      await expectCountsRight(db, runId, postgres);
      const [m1, m2, m3, m4] = (await jobIds(db, runId)).map((j) => j.id);
      await claim([m1, m2, m3, m4]);
      expect(await Promise.all([m1, m2, m3, m4].map((id) => t.started(id, agent.id, runId)))).toEqual([
        null,
        null,
        null,
        null,
      ]);
      expect((await runRow(db, runId)).status).toBe('running');
      await expectCountsRight(db, runId, postgres);

      // Two finishes in one batch: only the job rows and the stage's counts change.
      await Promise.all([
        t.finished(m1, agent.id, report('success'), runId),
        t.finished(m2, agent.id, report('canceled'), runId),
      ]);
      expect(t.batches?.stats.finishes).toBe(2);
      await expectCountsRight(db, runId, postgres);

      // A failure takes the full transition: a new attempt, and the counts it writes.
      await t.finished(m3, agent.id, report('failed'), runId);
      const retry = (await jobIds(db, runId)).find((j) => j.attempt === 2)!;
      expect(retry.status).toBe('queued');
      await expectCountsRight(db, runId, postgres);
      await claim([retry.id]);
      expect(await t.started(retry.id, agent.id, runId)).toBeNull();

      // The last two finish in one batch: the second ends the stage and the run from the counts.
      await Promise.all([
        t.finished(retry.id, agent.id, report('success'), runId),
        t.finished(m4, agent.id, report('success'), runId),
      ]);
      expect(t.batches?.stats.finishes).toBe(4);
      const run = await runRow(db, runId);
      expect(run.status).toBe('canceled');
      expect(run.finished_at).not.toBeNull();
      const stage = await db
        .selectFrom('stage_runs')
        .selectAll()
        .where('run_id', '=', runId)
        .executeTakeFirstOrThrow();
      expect(stage).toMatchObject({ status: 'canceled', active_jobs: 0, canceled_jobs: 1, failed_jobs: 0 });
      expect(stage.finished_at).not.toBeNull();
      expect(effects).toContainEqual({ kind: 'run-finished', status: 'canceled' });
      expect(effects).toContainEqual({ kind: 'stage-finished', stage: 'build', status: 'canceled' });
      await expectCountsRight(db, runId, postgres);
    },
    BUDGET_MS,
  );

  it(
    'a transaction cut off half-way changes nothing; a replica with nothing in memory finishes the run',
    async () => {
      const { db, postgres, replica, agent, runId, claim } = await setup(kind, 'crash');
      const [m1, m2, m3, m4] = (await jobIds(db, runId)).map((j) => j.id);
      await claim([m1, m2, m3, m4]);
      const a = replica();
      await Promise.all([m1, m2, m3, m4].map((id) => a.started(id, agent.id, runId)));

      // The finishes of m1 and m2 written, then the server's connection dies before the commit.
      const cut = db.transaction().execute(async (trx) => {
        const runs = await lockRunsForReports(trx, [runId], postgres);
        const rows = [m1, m2].map((jobRunId) => ({
          jobRunId,
          agentId: agent.id,
          result: 'success' as const,
          exitCode: 0,
          error: null,
          outputs: null,
        }));
        const done = await finishJobsByCounts(trx, rows, runs, postgres);
        expect(done.applied.size).toBe(2);
        if (postgres) {
          const { rows: pid } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await sql`select pg_terminate_backend(${pid[0].pid})`.execute(db);
          await sql`select 1`.execute(trx);
        }
        throw new Error('the server died');
      });
      await expect(cut).rejects.toThrow();
      expect((await jobIds(db, runId)).map((j) => j.status)).toEqual([
        'running',
        'running',
        'running',
        'running',
      ]);
      await expectCountsRight(db, runId, postgres);

      // Another server process on the same database: its own transitions, no batch or cache carried over.
      const b = replica();
      await Promise.all([m1, m2, m3].map((id) => b.finished(id, agent.id, report('success'), runId)));
      await expectCountsRight(db, runId, postgres);
      await b.finished(m4, agent.id, report('success'), runId);
      expect(b.batches?.stats.finishes).toBe(4);
      expect((await runRow(db, runId)).status).toBe('success');
      await expectCountsRight(db, runId, postgres);
    },
    BUDGET_MS,
  );

  it(
    'counts not known (written before they existed) are recomputed by the full transition',
    async () => {
      const { db, postgres, replica, agent, runId, claim } = await setup(kind, 'unknown');
      const [m1, m2, m3, m4] = (await jobIds(db, runId)).map((j) => j.id);
      await claim([m1, m2, m3, m4]);
      const t = replica();
      await Promise.all([m1, m2, m3, m4].map((id) => t.started(id, agent.id, runId)));
      await db
        .updateTable('stage_runs')
        .set({ active_jobs: null, created_jobs: null, failed_jobs: null, canceled_jobs: null })
        .where('run_id', '=', runId)
        .execute();

      // Not decided from unknown counts: the full transition loads the run and writes them.
      expect((await t.finished(m1, agent.id, report('success'), runId)).accepted).toBe(true);
      expect(t.batches?.stats.finishes).toBe(0);
      await expectCountsRight(db, runId, postgres);

      await Promise.all([m2, m3, m4].map((id) => t.finished(id, agent.id, report('success'), runId)));
      expect(t.batches?.stats.finishes).toBe(3);
      expect((await runRow(db, runId)).status).toBe('success');
      await expectCountsRight(db, runId, postgres);
    },
    BUDGET_MS,
  );
});
