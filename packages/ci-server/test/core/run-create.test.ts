// Creating a run (services/run-create.ts) on SQLite and PostgreSQL: a run created on the definition read
// under the pipeline's lock and one created on the remembered definition (PostgreSQL's one statement) are
// alike, a re-applied pipeline's next run follows the new version, and, counted at the driver, what creating
// a plain run of 20 jobs costs PostgreSQL: four round trips the first time (BEGIN, counter, one insert of
// run, stages and jobs, COMMIT), then one (issue 31: it was six in its transaction, and a read before it); a
// push's run also, unless its project has a commit-status setting, when it is created under the lock.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { createRun, type NewRun } from '../../src/services/run-create.js';
import type { StoreDb } from '../../src/store/database.js';
import { applyAndGetPipelines, bundle, type Client, client, STORES, startApiServer } from '../api-helpers.js';

const matrixPipeline = (values: number, stages = '[build, test]') => `name: wide
materials:
  - git:
      url: https://git.example.com/org/wide.git
      branch: main
stages: ${stages}
jobs:
  t:
    stage: build
    script: ["true"]
    matrix:
      N: [${Array.from({ length: values }, (_, i) => `"${i}"`).join(', ')}]
  after:
    stage: test
    script: ["true"]
`;

const plain: NewRun = {
  cause: 'manual',
  triggeredBy: 'test',
  gitRef: 'main',
  revision: null,
  parameters: {},
  rerunOf: null,
};

interface Shape {
  status: string;
  stages: { name: string; status: string; jobs: { name: string; matrix: object; status: string }[] }[];
}

/** A run detail without its ids and times: what two runs of one definition share. */
const shapeOf = (detail: any): Shape => ({
  status: detail.status,
  stages: detail.stages.map((s: any) => ({
    name: s.name,
    status: s.status,
    jobs: s.jobs.map((j: any) => ({ name: j.name, matrix: j.matrix, status: j.status })),
  })),
});

describe.each(STORES)('creating a run on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
    ids = await applyAndGetPipelines(api, 'wide', [matrixPipeline(20)]);
  });
  afterAll(async () => server?.close());

  const trigger = async () => {
    const res = await api.post(`/api/v1/pipelines/${ids.wide}/trigger`);
    expect(res.status).toBe(201);
    return { ...res.body, detail: (await api.get(`/api/v1/runs/${res.body.run_id}`)).body };
  };

  it('creates the same run from the definition read under the lock and from the remembered one', async () => {
    const first = await trigger();
    const second = await trigger();
    expect(second.counter).toBe(first.counter + 1);
    expect(shapeOf(second.detail)).toEqual(shapeOf(first.detail));
    const shape = shapeOf(first.detail);
    expect(shape.status).toBe('queued');
    expect(shape.stages.map((s) => [s.name, s.status, s.jobs.length])).toEqual([
      ['build', 'running', 20],
      ['test', 'created', 1],
    ]);
    expect(shape.stages[0].jobs.map((j) => j.matrix)).toEqual(
      Array.from({ length: 20 }, (_, i) => ({ N: String(i) })),
    );
    expect(shape.stages[0].jobs.every((j) => j.status === 'queued')).toBe(true);
    // The stage rows carry their counts (an agent's report reads them): as a transition would write them.
    const db = server.database.db as StoreDb;
    const counts = await db
      .selectFrom('stage_runs')
      .select(['run_id', 'position', 'active_jobs', 'created_jobs', 'failed_jobs', 'canceled_jobs'])
      .where('run_id', 'in', [first.run_id, second.run_id])
      .orderBy('run_id')
      .orderBy('position')
      .execute();
    expect(counts.map(({ run_id, ...c }) => c)).toEqual(
      [first, second].flatMap(() => [
        { position: 0, active_jobs: 20, created_jobs: 0, failed_jobs: 0, canceled_jobs: 0 },
        { position: 1, active_jobs: 1, created_jobs: 1, failed_jobs: 0, canceled_jobs: 0 },
      ]),
    );
  });

  it("runs a re-applied pipeline's new version, with the counter going on", async () => {
    const before = await trigger();
    const applied = await api.apply(bundle('wide', [matrixPipeline(3, '[build, test, ship]')]));
    expect(applied.status).toBe(200);
    const after = await trigger();
    expect(after.counter).toBe(before.counter + 1);
    expect(shapeOf(after.detail).stages.map((s) => [s.name, s.jobs.length])).toEqual([
      ['build', 3],
      ['test', 1],
      ['ship', 0],
    ]);
    const db = server.database.db as StoreDb;
    const versions = await db
      .selectFrom('runs')
      .innerJoin('pipelines', 'pipelines.id', 'runs.pipeline_id')
      .select(['runs.id', 'runs.version_id', 'pipelines.version_id as current'])
      .where('runs.id', 'in', [before.run_id, after.run_id])
      .execute();
    const of = (id: string) => versions.find((v) => v.id === id)!;
    expect(of(after.run_id).version_id).toBe(of(after.run_id).current);
    expect(of(before.run_id).version_id).not.toBe(of(after.run_id).version_id);
    // Back to 20 for the next test's neighbours: the same digest, its version again.
    expect((await api.apply(bundle('wide', [matrixPipeline(20)]))).status).toBe(200);
    expect(shapeOf((await trigger()).detail).stages[0].jobs).toHaveLength(20);
  });
});

/** Every query sent to PostgreSQL by pg clients inside `fn` (its async context only). */
async function queriesOf(fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const scope = new AsyncLocalStorage<string[]>();
  const query = pg.Client.prototype.query;
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
    const first = args[0];
    scope.getStore()?.push(String(typeof first === 'string' ? first : first?.text).replace(/\s+/g, ' '));
    return (query as any).apply(this, args);
  };
  try {
    await scope.run(sent, fn);
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

describe('creating a run on postgres, counted at the driver', () => {
  let server: CiServer;
  let api: Client;
  let db: StoreDb;
  beforeAll(async () => {
    server = await startApiServer('postgres');
    api = client(server);
    db = server.database.db as StoreDb;
  });
  afterAll(async () => server?.close());

  it('costs four round trips the first time, one once the definition is known, five after a re-apply', async () => {
    const ids = await applyAndGetPipelines(api, 'counted', [matrixPipeline(20)]);
    const first = await queriesOf(() => createRun(db, ids.wide, plain));
    expect(first.map((q) => q.trim().slice(0, 30).toLowerCase())).toEqual([
      'begin',
      'update pipelines set counter =',
      'with p as (select $46::integer',
      'commit',
    ]);
    for (let i = 0; i < 3; i++) {
      const again = await queriesOf(() => createRun(db, ids.wide, plain));
      expect(again).toHaveLength(1);
      expect(again[0]).toMatch(/^ ?with p as \( update pipelines set counter = counter \+ 1/);
    }
    const jobs = await db
      .selectFrom('job_runs')
      .innerJoin('runs', 'runs.id', 'job_runs.run_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('runs.pipeline_id', '=', ids.wide)
      .executeTakeFirstOrThrow();
    expect(Number(jobs.n)).toBe(4 * 21);
    // A re-applied pipeline: the one statement finds another version and writes nothing; the run is then
    // created under the lock on the new definition.
    expect((await api.apply(bundle('counted', [matrixPipeline(2)]))).status).toBe(200);
    const reapplied = await queriesOf(() => createRun(db, ids.wide, plain));
    expect(reapplied).toHaveLength(5);
    const counters = await db
      .selectFrom('runs')
      .select('counter')
      .where('pipeline_id', '=', ids.wide)
      .orderBy('counter')
      .execute();
    expect(counters.map((r) => r.counter)).toEqual([1, 2, 3, 4, 5]);
  });

  it("writes a push's commit status through the locked path only when its project is configured for one", async () => {
    const ids = await applyAndGetPipelines(api, 'pushed', [matrixPipeline(2)]);
    const sha = 'c'.repeat(40);
    const push: NewRun = { ...plain, cause: 'webhook', revision: sha };
    await createRun(db, ids.wide, plain);
    // No commit-status setting: nothing for the outbox, one statement, which checks there is none.
    expect(await queriesOf(() => createRun(db, ids.wide, push))).toHaveLength(1);
    const project = await db
      .selectFrom('pipelines')
      .select('project_id')
      .where('id', '=', ids.wide)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('project_settings')
      .values({
        project_id: project.project_id,
        key: 'commit_status',
        value: JSON.stringify({ host: 'github' }),
        updated_at: new Date().toISOString(),
      })
      .execute();
    // The statement meets the setting and writes nothing; the run is created under the lock with its status.
    const first = await queriesOf(() => createRun(db, ids.wide, push));
    expect(first[0]).toMatch(/^ ?with p as \( update pipelines/);
    expect(first[1]).toMatch(/^begin/i);
    // Known now: the next push goes under the lock at once; a run that reports nothing still takes one.
    const second = await queriesOf(() => createRun(db, ids.wide, push));
    expect(second[0]).toMatch(/^begin/i);
    expect(await queriesOf(() => createRun(db, ids.wide, plain))).toHaveLength(1);
    const statuses = await db
      .selectFrom('notification_outbox')
      .innerJoin('runs', 'runs.id', 'notification_outbox.run_id')
      .select(['runs.counter', 'notification_outbox.target'])
      .where('notification_outbox.project_id', '=', project.project_id)
      .orderBy('runs.counter')
      .execute();
    expect(statuses).toEqual([
      { counter: 3, target: `github:org/wide@${sha}` },
      { counter: 4, target: `github:org/wide@${sha}` },
    ]);
  });
});
