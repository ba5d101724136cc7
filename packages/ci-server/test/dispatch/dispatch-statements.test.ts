// The dispatch hot path's statements on PostgreSQL (src/store/dispatch-statements.ts) are one text each
// whatever the batch size, sent under a statement name (prepared once per connection): claims, starts,
// a finish batch's lock, read and write, and the read of a new run's queued jobs, in batches of 1, 2 and 5.
// The texts are seen at the driver (pg.Client#query). Values travel as arrays, so the test also gives them
// what array literals must escape (quotes, backslashes, braces, commas, the word NULL) and reads them back.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { claimJobs, unclaimedJobs, upsertAgent } from '../../src/store/agent-leases.js';
import { finishJobsByCounts, lockRunsForReports, startJobs } from '../../src/store/job-report-statements.js';
import { applyPipeline, cleanupsAfterEach, databaseUrl, startServer, trigger } from './helpers.js';

const cleanups = cleanupsAfterEach();

const PIPELINE = `name: p
materials:
  - git: { url: "https://git.example.test/repo.git", branch: main }
stages: [build]
jobs:
  m:
    stage: build
    script: ["true"]
    matrix:
      N: ["1", "2", "3", "4", "5", "6", "7", "8"]
`;

/** Statement texts sent while `fn` runs, with whether each went under a name (a prepared statement). */
async function texts(fn: () => Promise<void>): Promise<{ text: string; named: boolean }[]> {
  const seen: { text: string; named: boolean }[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: any, ...rest: any[]) {
    const text = typeof config === 'string' ? config : config?.text;
    if (typeof text === 'string') seen.push({ text, named: typeof config?.name === 'string' });
    return (query as any).call(this, config, ...rest);
  } as any;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}

const WEIRD = 'a "quoted" \\ back {brace, comma} NULL';

describe('dispatch statements on postgres', () => {
  it('keep one named text per statement across batch sizes', async () => {
    const s = await startServer(await databaseUrl('postgres'));
    cleanups.push(() => s.server.close());
    const db = s.server.database.db;
    const agent = {
      id: await upsertAgent(db, { name: 'a', tags: [], capacity: 8, version: 't', hostname: 'h' }),
      name: 'a',
    };
    const runId = await trigger(s, await applyPipeline(s, 'statements', PIPELINE));
    const jobs = (
      await db.selectFrom('job_runs').select('id').where('run_id', '=', runId).orderBy('id').execute()
    ).map((j) => j.id);
    expect(jobs).toHaveLength(8);
    const batches = [jobs.slice(0, 1), jobs.slice(1, 3), jobs.slice(3, 8)];

    const seen = await texts(async () => {
      for (const batch of batches) {
        expect((await unclaimedJobs(db, 100, batch)).map((j) => j.id).sort()).toEqual(batch);
        const won = await claimJobs(
          db,
          batch.map((jobRunId) => ({ jobRunId, agent })),
          60_000,
        );
        expect([...won].sort()).toEqual(batch);
        const started = await startJobs(
          db,
          batch.map((jobRunId, i) => ({ jobRunId, agentId: agent.id, engine: i === 0 ? 'host' : null })),
          true,
        );
        expect([...started].sort()).toEqual(batch);
      }
      // Finishes of all but the last job (the stage stays running, so the counts decide every one).
      for (const batch of [batches[0], batches[1], batches[2].slice(0, 4)]) {
        const applied = await db.transaction().execute(async (trx) => {
          const runs = await lockRunsForReports(trx, [runId], true);
          const out = await finishJobsByCounts(
            trx,
            batch.map((jobRunId, i) => ({
              jobRunId,
              agentId: agent.id,
              result: i === 0 ? ('canceled' as const) : ('success' as const),
              exitCode: i === 0 ? null : i,
              error: i === 0 ? WEIRD : null,
              outputs: i === 1 ? JSON.stringify({ v: WEIRD }) : null,
            })),
            runs,
            true,
          );
          return out.applied;
        });
        expect([...applied.keys()].sort()).toEqual(batch);
      }
    });

    const kinds: [string, RegExp][] = [
      ['unclaimed', /^select j\.id, j\.run_id, j\.name, r\.version_id/],
      ['claim', /^update job_runs set lease_agent_id = c\.agent_id/],
      ['start', /^with j as \( ?update job_runs set status = 'running'/],
      [
        'lock',
        /^select id, project_id, .* from runs where id = any\(\$1::varchar\[\]\) order by id for no key update$/,
      ],
      ['facts', /^select "j"\."id", .*"s"\."active_jobs".* any\(\$1::varchar\[\]\)/],
      ['write', /^with s as \( ?update stage_runs set active_jobs/],
    ];
    for (const [kind, pattern] of kinds) {
      const matching = seen.filter((q) => pattern.test(q.text));
      expect(matching.length, kind).toBe(3);
      expect(new Set(matching.map((q) => q.text)).size, kind).toBe(1);
      expect(
        matching.every((q) => q.named),
        kind,
      ).toBe(true);
    }

    const rows = await db
      .selectFrom('job_runs')
      .select(['id', 'status', 'engine', 'exit_code', 'error', 'outputs', 'lease_agent_id'])
      .where('run_id', '=', runId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.status)).toEqual([
      'canceled',
      'canceled',
      'success',
      'canceled',
      'success',
      'success',
      'success',
      'running',
    ]);
    expect(rows[0]).toMatchObject({ engine: 'host', error: WEIRD, exit_code: null, lease_agent_id: null });
    expect(rows[2]).toMatchObject({
      engine: null,
      exit_code: 1,
      error: null,
      outputs: JSON.stringify({ v: WEIRD }),
    });
    expect(rows[7].lease_agent_id).toBe(agent.id);
    const stage = await db
      .selectFrom('stage_runs')
      .select(['status', 'active_jobs', 'canceled_jobs'])
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    expect(stage).toMatchObject({ status: 'running', active_jobs: 1, canceled_jobs: 3 });
    const run = await db
      .selectFrom('runs')
      .select('status')
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    expect(run.status).toBe('running');
  });
});
