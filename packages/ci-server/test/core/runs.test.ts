// Runs API on SQLite and PostgreSQL: trigger (parameters, git_ref, counters under concurrency), the runs
// list (shapes, filters, paging, every 400 of the Limits table), run detail with logs, cancel, rerun and
// run-all.
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
import { finishJob, startJob, writeLogs } from './agent-sim.js';
import { seedRuns } from './seed-runs.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const DETAIL_KEYS = [
  'cause',
  'counter',
  'created_at',
  'definition_error',
  'finished_at',
  'fork',
  'git_ref',
  'id',
  'parameters',
  'pipeline_id',
  'pipeline_name',
  'pr_labels',
  'project_slug',
  'revision',
  'stages',
  'started_at',
  'status',
  'superseded_by',
  'triggered_by',
  'waiting',
];
const JOB_KEYS = [
  'agent',
  'attempt',
  'engine',
  'exit_code',
  'failure_reason',
  'finished_at',
  'gate',
  'id',
  'logs',
  'matrix',
  'name',
  'needs',
  'started_at',
  'status',
];

describe.each(STORES)('runs API on %s', (store) => {
  let server: CiServer;
  let api: Client;
  let ids: Record<string, string>;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
    ids = await applyAndGetPipelines(api, 'shop', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
  });
  afterAll(async () => server?.close());

  const trigger = (pipelineId: string, body?: unknown) =>
    api.post(`/api/v1/pipelines/${pipelineId}/trigger`, body);
  const detail = async (runId: string, query = '') => (await api.get(`/api/v1/runs/${runId}${query}`)).body;

  it('triggers a run: queued, first stage released, matrix expanded, parameters merged', async () => {
    const res = await trigger(ids.build, { parameters: { TARGET: 'prod', EXTRA: 'x' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ run_id: expect.any(String), counter: expect.any(Number) });
    const run = await detail(res.body.run_id);
    expect(Object.keys(run).sort()).toEqual(DETAIL_KEYS);
    expect(run.definition_error).toBeNull();
    expect(run).toMatchObject({
      id: res.body.run_id,
      project_slug: 'shop',
      pipeline_id: ids.build,
      pipeline_name: 'build',
      status: 'queued',
      cause: 'manual',
      git_ref: 'main',
      revision: null,
      started_at: null,
      finished_at: null,
      triggered_by: 'anonymous',
      parameters: { TARGET: 'prod', LEVEL: '1', EXTRA: 'x' },
      pr_labels: [],
    });
    expect(run.stages.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ['build', 'running'],
      ['test', 'created'],
    ]);
    const [compile] = run.stages[0].jobs;
    expect(Object.keys(compile).sort()).toEqual(JOB_KEYS);
    expect(compile).toMatchObject({ name: 'compile', status: 'queued', attempt: 1, matrix: {}, agent: null });
    expect(compile).toMatchObject({ needs: [], gate: null });
    expect(run.stages[1].jobs.map((j: { matrix: object; status: string }) => [j.matrix, j.status])).toEqual([
      [{ NODE: '20' }, 'created'],
      [{ NODE: '22' }, 'created'],
    ]);
  });

  it('takes git_ref as given and a full commit id as the revision', async () => {
    const sha = 'a'.repeat(40);
    const run = await detail((await trigger(ids.build, { git_ref: sha })).body.run_id);
    expect(run).toMatchObject({ git_ref: sha, revision: sha });
    const tag = await detail((await trigger(ids.build, { git_ref: 'refs/tags/v1.0' })).body.run_id);
    expect(tag).toMatchObject({ git_ref: 'refs/tags/v1.0', revision: null });
    const noGit = await detail((await trigger(ids.deploy)).body.run_id);
    expect(noGit.git_ref).toBeNull();
  });

  it('takes a trigger without a body, or with an empty JSON body', async () => {
    expect((await trigger(ids.build)).status).toBe(201);
    const empty = await api.post(`/api/v1/pipelines/${ids.build}/trigger`, '', {
      'content-type': 'application/json',
    });
    expect(empty.status).toBe(201);
    expect((await trigger(ids.build, {})).status).toBe(201);
  });

  it('answers 400 for malformed trigger requests and 404 for unknown pipelines', async () => {
    const cases: [unknown, RegExp][] = [
      [{ color: 'red' }, /unknown field "color"/],
      [{ parameters: { TARGET: 1 } }, /parameters/],
      [{ parameters: { 'bad name': 'x' } }, /parameters/],
      [{ parameters: 'x' }, /parameters/],
      [{ git_ref: 'has space' }, /git_ref/],
      [{ git_ref: '' }, /git_ref/],
      [{ git_ref: 7 }, /git_ref/],
      [[], /body/],
    ];
    for (const [body, message] of cases) {
      const res = await trigger(ids.build, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatch(message);
    }
    const malformedJson = await api.post(`/api/v1/pipelines/${ids.build}/trigger`, '{', {
      'content-type': 'application/json',
    });
    expect(malformedJson.status).toBe(400);
    expect((await trigger('not-a-uuid')).status).toBe(400);
    const unknown = await trigger(UNKNOWN);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: `pipeline ${UNKNOWN} not found` });
  });

  it('gives consecutive, unique counters to 20 concurrent triggers', async () => {
    const fresh = await applyAndGetPipelines(api, 'busy', [BUILD_PIPELINE]);
    const answers = await Promise.all(Array.from({ length: 20 }, () => trigger(fresh.build)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const counters = answers.map((a) => a.body.counter).sort((a, b) => a - b);
    expect(counters).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(answers.map((a) => a.body.run_id)).size).toBe(20);
    const list = await api.get(`/api/v1/runs?pipeline=${fresh.build}&limit=200`);
    expect(list.body.total).toBe(20);
    expect(
      list.body.runs.map((r: { counter: number }) => r.counter).sort((a: number, b: number) => a - b),
    ).toEqual(counters);
  });

  it('lists runs newest first in the envelope, with filters and paging', async () => {
    const p = await applyAndGetPipelines(api, 'listing', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await trigger(p.build)).body.run_id);
    const gate = (await trigger(p.deploy)).body.run_id;
    await api.post(`/api/v1/runs/${made[0]}/cancel`);

    const all = await api.get('/api/v1/runs?project=listing');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['limit', 'offset', 'runs', 'total']);
    expect(all.body).toMatchObject({ total: 6, limit: 50, offset: 0 });
    expect(all.body.runs.map((r: { id: string }) => r.id)).toEqual([gate, ...made.slice().reverse()]);

    const page = await api.get('/api/v1/runs?project=listing&limit=2&offset=1');
    expect(page.body).toMatchObject({ total: 6, limit: 2, offset: 1 });
    expect(page.body.runs.map((r: { id: string }) => r.id)).toEqual([made[4], made[3]]);

    const canceled = await api.get('/api/v1/runs?project=listing&status=canceled');
    expect(canceled.body.total).toBe(1);
    expect(canceled.body.runs[0]).toMatchObject({ id: made[0], status: 'canceled' });
    const queued = await api.get(`/api/v1/runs?pipeline=${p.build}&status=queued`);
    expect(queued.body.total).toBe(4);
    const running = await api.get(`/api/v1/runs?pipeline=${p.deploy}&status=running`);
    expect(running.body.runs.map((r: { id: string }) => r.id)).toEqual([gate]);

    const beyond = await api.get('/api/v1/runs?project=listing&offset=100');
    expect(beyond.body).toMatchObject({ runs: [], total: 6, offset: 100 });
    expect((await api.get('/api/v1/runs?project=nobody')).body).toEqual({
      runs: [],
      total: 0,
      limit: 50,
      offset: 0,
    });
    expect((await api.get(`/api/v1/runs?pipeline=${UNKNOWN}`)).body.total).toBe(0);
    expect((await api.get('/api/v1/runs?limit=200')).status).toBe(200);
    expect((await api.get('/api/v1/runs?limit=1')).body.runs).toHaveLength(1);
  });

  it('pages deep offsets from the nearer end with the same result as walking from the start', async () => {
    const p = await applyAndGetPipelines(api, 'deep', [BUILD_PIPELINE]);
    const runs = await seedRuns(server, p.build, 1600);
    const failed = runs.filter((r) => r.status === 'failed');
    const page = async (query: string) => (await api.get(`/api/v1/runs?project=deep&${query}`)).body;
    for (const offset of [0, 990, 1001, 1200, 1555, 1599]) {
      const body = await page(`limit=50&offset=${offset}`);
      expect(body.total, `offset ${offset}`).toBe(1600);
      expect(
        body.runs.map((r: { id: string }) => r.id),
        `offset ${offset}`,
      ).toEqual(runs.slice(offset, offset + 50).map((r) => r.id));
    }
    expect((await page('limit=50&offset=1600')).runs).toEqual([]);
    for (const offset of [0, 150, 300]) {
      const body = await page(`status=failed&limit=20&offset=${offset}`);
      expect(body.total).toBe(failed.length);
      expect(body.runs.map((r: { id: string }) => r.id)).toEqual(
        failed.slice(offset, offset + 20).map((r) => r.id),
      );
    }
    // Keyset paging: each page continues after the previous page's last run, to the same end as offsets.
    const walked: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const body = await page(`limit=200${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body).toMatchObject({ total: 1600, limit: 200, offset: 0 });
      walked.push(...body.runs.map((r: { id: string }) => r.id));
      if (body.runs.length < 200) break;
      cursor = body.runs[body.runs.length - 1].id;
    }
    expect(walked).toEqual(runs.map((r) => r.id));
    const afterFailed = await page(`status=failed&limit=20&cursor=${failed[99].id.toUpperCase()}`);
    expect(afterFailed.runs.map((r: { id: string }) => r.id)).toEqual(
      failed.slice(100, 120).map((r) => r.id),
    );
    expect(await page(`limit=5&cursor=${runs[1599].id}`)).toEqual({
      runs: [],
      total: 1600,
      limit: 5,
      offset: 0,
    });
    // A cursor is checked whatever the filters match; a project naming nothing still matches no run.
    const elsewhere = await api.get(`/api/v1/runs?project=nobody&cursor=${runs[5].id}`);
    expect(elsewhere.body).toEqual({ runs: [], total: 0, limit: 50, offset: 0 });
    const neither = await api.get(`/api/v1/runs?project=nobody&cursor=${UNKNOWN}`);
    expect(neither.status).toBe(400);
    expect(neither.body.error).toMatch(/cursor names no run/);
    const byPipeline = await api.get(`/api/v1/runs?pipeline=${p.build}&limit=3&offset=1597`);
    expect(byPipeline.body.runs.map((r: { counter: number }) => r.counter)).toEqual([3, 2, 1]);
    expect(byPipeline.body.runs[0]).toMatchObject({ project_slug: 'deep', pipeline_name: 'build' });
  });

  it('answers 400 for every out-of-range or unknown list parameter', async () => {
    const bad: [string, RegExp][] = [
      ['limit=0', /limit must be >= 1/],
      ['limit=201', /limit must be <= 200/],
      ['limit=-5', /limit/],
      ['limit=abc', /limit must be integer/],
      ['limit=1.5', /limit must be integer/],
      ['limit=', /limit/],
      ['limit=1&limit=2', /limit/],
      ['offset=-1', /offset must be >= 0/],
      ['offset=abc', /offset must be integer/],
      ['offset=99999999999', /offset/],
      ['status=bogus', /status must be one of queued, running, success, failed, canceled/],
      ['pipeline=not-a-uuid', /pipeline must be a UUID/],
      ['project=Not_A_Slug', /project must be a slug/],
      ['sort=desc', /unknown query parameter "sort"/],
      ['cursor=not-a-uuid', /cursor must be a UUID/],
      [`cursor=${UNKNOWN}`, /cursor names no run/],
    ];
    const some = (await api.get('/api/v1/runs?limit=1')).body.runs[0]?.id ?? UNKNOWN;
    bad.push([`cursor=${some}&offset=5`, /cursor and offset cannot be combined|cursor names no run/]);
    for (const [query, message] of bad) {
      const res = await api.get(`/api/v1/runs?${query}`);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body), query).toEqual(['error']);
      expect(res.body.error, query).toMatch(message);
    }
  });

  it('shows the last N log lines per job run (default 200, 0 disables, bounded)', async () => {
    const runId = (await trigger(ids.build)).body.run_id;
    const jobId = (await detail(runId)).stages[0].jobs[0].id;
    await startJob(server, jobId, 'agent-7');
    await writeLogs(server, jobId, 250);
    const byDefault = (await detail(runId)).stages[0].jobs[0];
    expect(byDefault.agent).toBe('agent-7');
    expect(byDefault.logs).toHaveLength(200);
    expect(byDefault.logs[0]).toEqual({
      job_run_id: jobId,
      seq: 51,
      stream: 'stdout',
      at: expect.any(String),
      text: 'line 51',
    });
    expect(byDefault.logs.at(-1).seq).toBe(250);
    expect(
      (await detail(runId, '?logs=5')).stages[0].jobs[0].logs.map((l: { seq: number }) => l.seq),
    ).toEqual([246, 247, 248, 249, 250]);
    expect((await detail(runId, '?logs=0')).stages[0].jobs[0].logs).toEqual([]);
    expect((await detail(runId, '?logs=10000')).stages[0].jobs[0].logs).toHaveLength(250);
    for (const q of ['logs=-1', 'logs=abc', 'logs=10001', 'tail=5']) {
      const res = await api.get(`/api/v1/runs/${runId}?${q}`);
      expect(res.status, q).toBe(400);
    }
    expect((await api.get(`/api/v1/runs/${UNKNOWN}`)).status).toBe(404);
    const malformed = await api.get('/api/v1/runs/12345');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/id must be a UUID/);
  });

  it('follows a run through to success as agents report', async () => {
    const runId = (await trigger(ids.build)).body.run_id;
    const compile = (await detail(runId)).stages[0].jobs[0].id;
    await startJob(server, compile);
    const running = await detail(runId);
    expect(running.status).toBe('running');
    expect(running.started_at).not.toBeNull();
    await finishJob(server, compile, 'success');
    const tests = (await detail(runId)).stages[1].jobs;
    expect(tests.map((j: { status: string }) => j.status)).toEqual(['queued', 'queued']);
    for (const j of tests) {
      await startJob(server, j.id);
      await finishJob(server, j.id, 'success');
    }
    const done = await detail(runId);
    expect(done.status).toBe('success');
    expect(done.finished_at).not.toBeNull();
    expect(done.stages.map((s: { status: string }) => s.status)).toEqual(['success', 'success']);
    expect(done.stages[0].jobs[0]).toMatchObject({ exit_code: 0, status: 'success' });
    expect((await api.get(`/api/v1/runs?pipeline=${ids.build}&status=success`)).body.runs[0].id).toBe(runId);
  });

  it('cancels a queued run at once, a running one on request, and refuses a finished one', async () => {
    const queued = (await trigger(ids.build)).body.run_id;
    // A bare POST that still says it is JSON is a POST without a body.
    const res = await api.post(`/api/v1/runs/${queued}/cancel`, '', { 'content-type': 'application/json' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ run_id: queued, status: 'canceled' });
    const canceled = await detail(queued);
    expect(canceled.finished_at).not.toBeNull();
    expect(canceled.stages.map((s: { status: string }) => s.status)).toEqual(['canceled', 'skipped']);
    const again = await api.post(`/api/v1/runs/${queued}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already finished/);

    const busy = (await trigger(ids.build)).body.run_id;
    const compile = (await detail(busy)).stages[0].jobs[0].id;
    await startJob(server, compile);
    const requested = await api.post(`/api/v1/runs/${busy}/cancel`);
    expect(requested.status).toBe(202);
    expect(requested.body.status).toBe('running');
    expect((await detail(busy)).stages[0].jobs[0].status).toBe('running');
    await finishJob(server, compile, 'canceled', 143);
    expect((await detail(busy)).status).toBe('canceled');

    expect((await api.post(`/api/v1/runs/${UNKNOWN}/cancel`)).status).toBe(404);
    expect((await api.post('/api/v1/runs/xyz/cancel')).status).toBe(400);
  });

  it('reruns a run with the same ref, revision and parameters as a new counter', async () => {
    const sha = 'b'.repeat(40);
    const first = await trigger(ids.build, { git_ref: sha, parameters: { TARGET: 'qa' } });
    await api.post(`/api/v1/runs/${first.body.run_id}/cancel`);
    const res = await api.post(`/api/v1/runs/${first.body.run_id}/rerun`);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['run_id']);
    const rerun = await detail(res.body.run_id);
    const origin = await detail(first.body.run_id);
    expect(rerun).toMatchObject({
      cause: 'rerun',
      git_ref: sha,
      revision: sha,
      parameters: origin.parameters,
      status: 'queued',
      counter: origin.counter + 1,
    });
    // The spec lets any run be rerun (its transitions table: "any run", 201), so one still queued is too;
    // the web UI offers the button only once a run finished (docs/ci-web.md).
    const again = await api.post(`/api/v1/runs/${res.body.run_id}/rerun`);
    expect(again.status).toBe(201);
    expect((await detail(again.body.run_id)).cause).toBe('rerun');
    expect((await api.post(`/api/v1/runs/${UNKNOWN}/rerun`)).status).toBe(404);
    expect((await api.post('/api/v1/runs/nope/rerun')).status).toBe(400);
  });

  it('starts every active pipeline with run-all', async () => {
    const p = await applyAndGetPipelines(api, 'everything', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    const res = await api.post('/api/v1/projects/everything/run-all');
    expect(res.status).toBe(202);
    expect(res.body.run_ids).toHaveLength(2);
    const runs = await Promise.all(res.body.run_ids.map((id: string) => detail(id)));
    expect(runs.map((r) => [r.pipeline_id, r.cause, r.git_ref])).toEqual([
      [p.build, 'run_all', 'main'],
      [p.deploy, 'run_all', null],
    ]);
    expect(runs[0].stages[0].jobs[0].status).toBe('queued');
  });
});
