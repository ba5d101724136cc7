// Projects API on SQLite and PostgreSQL: apply in both variants (same stored result, idempotent, archive on
// omission), bundle errors, list and detail shapes, pipeline YAML, cascading delete and the bundle schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import {
  applyAndGetPipelines,
  BUILD_PIPELINE,
  bundle,
  type Client,
  client,
  DEPLOY_PIPELINE,
  multipart,
  STORES,
  startApiServer,
} from '../api-helpers.js';
import { dbOf, startJob, writeLogs } from './agent-sim.js';

const PROJECT_KEYS = ['created_at', 'description', 'name', 'slug', 'updated_at'];
const SUMMARY_KEYS = [
  'cause',
  'counter',
  'created_at',
  'finished_at',
  'git_ref',
  'id',
  'pipeline_id',
  'pipeline_name',
  'project_slug',
  'revision',
  'started_at',
  'status',
  'superseded_by',
  'waiting',
];

async function storedState(server: CiServer, slug: string) {
  const db = dbOf(server);
  const project = await db
    .selectFrom('projects')
    .selectAll()
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  const pipelines = await db
    .selectFrom('pipelines')
    .selectAll()
    .where('project_id', '=', project.id)
    .orderBy('name')
    .execute();
  const ids = pipelines.map((p) => p.id);
  const versions = await db
    .selectFrom('pipeline_versions')
    .selectAll()
    .where('pipeline_id', 'in', ids)
    .execute();
  const materials = await db
    .selectFrom('materials')
    .selectAll()
    .where('pipeline_id', 'in', ids)
    .orderBy('pipeline_id')
    .orderBy('position')
    .execute();
  return { project, pipelines, versions, materials };
}

describe.each(STORES)('projects API on %s', (store) => {
  let server: CiServer;
  let api: Client;
  beforeAll(async () => {
    server = await startApiServer(store);
    api = client(server);
  });
  afterAll(async () => server?.close());

  it('applies a JSON bundle and shows the project in list and detail forms', async () => {
    const res = await api.apply(bundle('shop', [BUILD_PIPELINE, DEPLOY_PIPELINE], 'Shop', 'The shop'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ project_slug: 'shop', pipelines_applied: 2 });

    const list = await api.get('/api/v1/projects');
    expect(list.status).toBe(200);
    const shop = list.body.projects.find((p: { slug: string }) => p.slug === 'shop');
    expect(Object.keys(shop).sort()).toEqual(PROJECT_KEYS);
    expect(shop).toMatchObject({ name: 'Shop', description: 'The shop' });
    expect(new Date(shop.created_at).toISOString()).toBe(shop.created_at);

    const detail = await api.get('/api/v1/projects/shop');
    expect(detail.status).toBe(200);
    expect(Object.keys(detail.body).sort()).toEqual([...PROJECT_KEYS, 'pipelines', 'recent_runs'].sort());
    expect(detail.body.recent_runs).toEqual([]);
    const [build, deploy] = detail.body.pipelines;
    expect(Object.keys(build).sort()).toEqual([
      'concurrency',
      'id',
      'jobs',
      'latest_run',
      'materials',
      'name',
      'parameters',
      'stages',
      'when',
    ]);
    expect(build).toMatchObject({
      name: 'build',
      stages: ['build', 'test'],
      latest_run: null,
      when: null,
      concurrency: null,
    });
    // The job summary the pipeline page lists: declaration order, kind, matrix size.
    expect(build.jobs).toEqual([
      { name: 'compile', stage: 'build', kind: 'script', needs: [], image: null, matrix: 0 },
      { name: 'unit', stage: 'test', kind: 'script', needs: [], image: null, matrix: 2 },
    ]);
    expect(deploy.jobs.map((j: { name: string; kind: string }) => [j.name, j.kind])).toEqual([
      ['approve', 'gate'],
      ['ship', 'script'],
    ]);
    expect(build.materials).toEqual([
      {
        kind: 'git',
        fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
        git: { url: 'https://git.example.com/org/shop.git', branch: 'main', on: ['push'] },
      },
    ]);
    expect(deploy.materials[0]).toMatchObject({
      kind: 'upstream',
      upstream: { pipeline: 'build', stage: 'test', status: 'success' },
    });
  });

  it("summarises a pipeline's when, concurrency, plugins and gates in the detail", async () => {
    const doc = `name: backend
when:
  event: [push, pull_request]
  branches: [main, "release/*"]
  paths: ["server/**"]
concurrency: {group: deploys, mode: cancel-superseded}
stages: [test, ship]
jobs:
  unit:
    stage: test
    image: node:22
    script: [npm test]
  notify:
    stage: ship
    needs: [unit]
    uses: registry.example.com/notify:1
`;
    await applyAndGetPipelines(api, 'summary', [doc]);
    const [backend] = (await api.get('/api/v1/projects/summary')).body.pipelines;
    expect(backend.when).toEqual({
      event: ['push', 'pull_request'],
      branch: ['main', 'release/*'],
      paths: ['server/**'],
    });
    expect(backend.concurrency).toEqual({ mode: 'cancel-superseded', group: 'deploys' });
    expect(backend.jobs).toEqual([
      { name: 'unit', stage: 'test', kind: 'script', needs: [], image: 'node:22', matrix: 0 },
      {
        name: 'notify',
        stage: 'ship',
        kind: 'plugin',
        needs: ['unit'],
        image: 'registry.example.com/notify:1',
        matrix: 0,
      },
    ]);
  });

  it('shows the latest run of each pipeline and the recent runs in the detail', async () => {
    const ids = await applyAndGetPipelines(api, 'latest', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    await api.post(`/api/v1/pipelines/${ids.build}/trigger`);
    const second = await api.post(`/api/v1/pipelines/${ids.build}/trigger`);
    const detail = await api.get('/api/v1/projects/latest');
    const build = detail.body.pipelines.find((p: { name: string }) => p.name === 'build');
    expect(Object.keys(build.latest_run).sort()).toEqual(SUMMARY_KEYS);
    expect(build.latest_run).toMatchObject({ id: second.body.run_id, counter: 2, project_slug: 'latest' });
    expect(detail.body.pipelines.find((p: { name: string }) => p.name === 'deploy').latest_run).toBeNull();
    expect(detail.body.recent_runs.map((r: { counter: number }) => r.counter)).toEqual([2, 1]);
    expect(Object.keys(detail.body.recent_runs[0]).sort()).toEqual(SUMMARY_KEYS);
  });

  it('changes nothing, timestamps included, when the same bundle is applied again', async () => {
    const text = bundle('idem', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    expect((await api.apply(text)).status).toBe(200);
    const before = await storedState(server, 'idem');
    const again = await api.apply(text);
    expect(again.body).toEqual({ project_slug: 'idem', pipelines_applied: 2 });
    expect(await storedState(server, 'idem')).toEqual(before);
    expect(before.versions).toHaveLength(2);
  });

  it('stores the same result from the multipart variant as from the JSON variant', async () => {
    const form = multipart({ slug: 'mp', name: 'Shop' }, [
      { name: 'build.yaml', text: BUILD_PIPELINE },
      { name: 'deploy.yaml', text: DEPLOY_PIPELINE },
    ]);
    const res = await api.post('/api/v1/projects/apply', form.payload, form.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ project_slug: 'mp', pipelines_applied: 2 });
    const fromMultipart = await storedState(server, 'mp');
    // The JSON variant of the same declaration is a no-op on top of it, and the reverse holds too.
    expect((await api.apply(bundle('mp', [BUILD_PIPELINE, DEPLOY_PIPELINE]))).status).toBe(200);
    expect(await storedState(server, 'mp')).toEqual(fromMultipart);
    expect((await api.post('/api/v1/projects/apply', form.payload, form.headers)).status).toBe(200);
    expect(await storedState(server, 'mp')).toEqual(fromMultipart);
    const yaml = await api.get(`/api/v1/pipelines/${fromMultipart.pipelines[0].id}/yaml`);
    expect(yaml.body).toEqual({ yaml: BUILD_PIPELINE, reconstructed: false });
  });

  it('versions changed pipelines and archives omitted ones, keeping their runs readable', async () => {
    const ids = await applyAndGetPipelines(api, 'evolve', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    const before = await storedState(server, 'evolve');
    const run = await api.post(`/api/v1/pipelines/${ids.deploy}/trigger`);
    const changed = BUILD_PIPELINE.replace('script: [make]', 'script: [make all]');
    expect((await api.apply(bundle('evolve', [changed]))).body.pipelines_applied).toBe(1);
    const after = await storedState(server, 'evolve');
    expect(after.project.updated_at > before.project.updated_at).toBe(true);
    expect(after.project.created_at).toBe(before.project.created_at);
    expect(after.versions).toHaveLength(3);
    const build = after.pipelines.find((p) => p.name === 'build')!;
    expect(build.id).toBe(ids.build);
    expect(JSON.parse(build.definition).jobs.compile.script).toEqual(['make all']);

    const detail = await api.get('/api/v1/projects/evolve');
    expect(detail.body.pipelines.map((p: { name: string }) => p.name)).toEqual(['build']);
    const trigger = await api.post(`/api/v1/pipelines/${ids.deploy}/trigger`);
    expect(trigger.status).toBe(409);
    expect(trigger.body.error).toMatch(/archived/);
    expect((await api.get(`/api/v1/runs/${run.body.run_id}`)).status).toBe(200);
    expect((await api.get(`/api/v1/pipelines/${ids.deploy}/yaml`)).status).toBe(200);

    // Declaring it again brings the same pipeline back, with its counter.
    await api.apply(bundle('evolve', [changed, DEPLOY_PIPELINE]));
    const back = await api.post(`/api/v1/pipelines/${ids.deploy}/trigger`);
    expect(back.status).toBe(201);
    expect(back.body.counter).toBe(2);
  });

  it('answers 400 naming the unknown key with its path, line and column', async () => {
    const bad = bundle('bad', [BUILD_PIPELINE.replace('    script: [make]\n', '    scrpt: [make]\n')]);
    const res = await api.apply(bad);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(res.body.error).toMatch(/scrpt/);
    expect(res.body.error).toMatch(/pipelines\[0\]\.jobs\.compile/);
    expect(res.body.error).toMatch(/line \d+, column \d+/);
    expect((await api.get('/api/v1/projects/bad')).status).toBe(404);
  });

  it('answers 400 for bundle mistakes and malformed apply bodies', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['YAML syntax', { yaml: 'project: [unclosed' }, /YAML/],
      ['missing yaml field', {}, /yaml/],
      ['unknown body field', { yaml: bundle('x', [BUILD_PIPELINE]), extra: 1 }, /unknown field "extra"/],
      ['yaml not a string', { yaml: 42 }, /yaml/],
      [
        'stage used before declared',
        { yaml: bundle('x', [BUILD_PIPELINE.replace('stage: test', 'stage: qa')]) },
        /qa/,
      ],
      [
        'upstream outside the bundle',
        { yaml: bundle('x', [DEPLOY_PIPELINE]) },
        /pipeline "build" is not in the bundle/,
      ],
      ['name too long', { yaml: bundle('x', [BUILD_PIPELINE], 'N'.repeat(201)) }, /200/],
      ['bad slug', { yaml: bundle('Not_A_Slug', [BUILD_PIPELINE]) }, /slug/],
    ];
    for (const [what, body, message] of cases) {
      const res = await api.post('/api/v1/projects/apply', body);
      expect(res.status, what).toBe(400);
      expect(res.body.error, what).toMatch(message);
    }
    const malformed = await api.post('/api/v1/projects/apply', '{"yaml": ', {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/JSON/);
  });

  it('answers 400 for multipart mistakes, naming the file', async () => {
    const post = (form: ReturnType<typeof multipart>) =>
      api.post('/api/v1/projects/apply', form.payload, form.headers);
    const badFile = await post(
      multipart({ slug: 'mpbad', name: 'X' }, [
        { name: 'broken.yaml', text: 'name: b\nstages: [a]\njobs: {j: {stage: a, scrpt: [x]}}\n' },
      ]),
    );
    expect(badFile.status).toBe(400);
    expect(badFile.body.error).toMatch(/broken\.yaml/);
    expect(badFile.body.error).toMatch(/scrpt/);
    const unknownField = await post(multipart({ slug: 'mpbad', name: 'X', color: 'red' }, []));
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error).toMatch(/unknown field "color"/);
    const noName = await post(multipart({ slug: 'mpbad' }, []));
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatch(/name/);
    const notUtf8 = await post(
      multipart({ slug: 'mpbad', name: 'X' }, [{ name: 'bin.yaml', text: Buffer.from([0xff, 0xfe, 0x00]) }]),
    );
    expect(notUtf8.status).toBe(400);
    expect(notUtf8.body.error).toMatch(/UTF-8/);
    const noBoundary = await api.post('/api/v1/projects/apply', 'x', {
      'content-type': 'multipart/form-data',
    });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.error).toMatch(/multipart/);
    const xml = await api.post('/api/v1/projects/apply', '<a/>', { 'content-type': 'application/xml' });
    expect(xml.status).toBe(415);
    const tooBig = await post(
      multipart({ slug: 'mpbad', name: 'X' }, [{ name: 'big.yaml', text: 'a'.repeat(1024 * 1024 + 1) }]),
    );
    expect(tooBig.status).toBe(413);
    expect(typeof tooBig.body.error).toBe('string');
  });

  it('serves pipeline YAML: the bundle slice with comments, 404 unknown, 400 malformed', async () => {
    const commented = BUILD_PIPELINE.replace(
      'stages: [build, test]',
      '# two stages\nstages: [build, test] # ordered',
    );
    const ids = await applyAndGetPipelines(api, 'yamlp', [commented]);
    const res = await api.get(`/api/v1/pipelines/${ids.build}/yaml`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ yaml: commented, reconstructed: false });
    const unknown = await api.get('/api/v1/pipelines/00000000-0000-4000-8000-000000000000/yaml');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: expect.any(String) });
    const malformed = await api.get('/api/v1/pipelines/not-a-uuid/yaml');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/UUID/);
  });

  it('deletes a project with everything under it and nothing else', async () => {
    const ids = await applyAndGetPipelines(api, 'doomed', [BUILD_PIPELINE, DEPLOY_PIPELINE]);
    const keep = await applyAndGetPipelines(api, 'kept', [BUILD_PIPELINE]);
    const run = await api.post(`/api/v1/pipelines/${ids.build}/trigger`);
    const kept = await api.post(`/api/v1/pipelines/${keep.build}/trigger`);
    await api.post(`/api/v1/pipelines/${ids.deploy}/trigger`);
    const detail = await api.get(`/api/v1/runs/${run.body.run_id}`);
    const jobId = detail.body.stages[0].jobs[0].id;
    await startJob(server, jobId);
    await writeLogs(server, jobId, 30);
    expect(
      (await api.post('/api/v1/projects/doomed/secrets', { name: 'TOKEN', value: 's3cret' })).status,
    ).toBe(201);

    const del = await api.delete('/api/v1/projects/doomed');
    expect(del.status).toBe(204);
    expect(del.body).toBe('');
    expect((await api.get('/api/v1/projects/doomed')).status).toBe(404);
    expect((await api.get(`/api/v1/runs/${run.body.run_id}`)).status).toBe(404);
    const db = dbOf(server);
    const count = async (
      table: 'pipelines' | 'runs' | 'job_runs' | 'log_lines' | 'project_secrets' | 'run_stats',
      column: string,
      values: string[],
    ) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where(column as never, 'in', values as never)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('pipelines', 'id', [ids.build, ids.deploy])).toBe(0);
    expect(await count('runs', 'pipeline_id', [ids.build, ids.deploy])).toBe(0);
    expect(await count('job_runs', 'run_id', [run.body.run_id])).toBe(0);
    expect(await count('log_lines', 'job_run_id', [jobId])).toBe(0);
    expect(await count('run_stats', 'pipeline_id', [ids.build, ids.deploy])).toBe(0);
    expect(
      Number(
        (
          await db
            .selectFrom('project_secrets')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(0);
    expect((await api.get(`/api/v1/runs/${kept.body.run_id}`)).status).toBe(200);
    expect((await api.get('/api/v1/runs?project=kept')).body.total).toBe(1);

    expect((await api.delete('/api/v1/projects/doomed')).status).toBe(404);
    expect((await api.delete('/api/v1/projects/Not_Valid')).status).toBe(400);
  });

  it('answers 404 for an unknown project and 400 for a malformed slug', async () => {
    const unknown = await api.get('/api/v1/projects/no-such-project');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'project "no-such-project" not found' });
    expect((await api.get('/api/v1/projects/UPPER')).status).toBe(400);
    expect((await api.post('/api/v1/projects/no-such-project/run-all')).status).toBe(404);
  });

  it('publishes the bundle JSON Schema', async () => {
    const res = await api.get('/api/v1/schema/pipeline-bundle.json');
    expect(res.status).toBe(200);
    expect(res.body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(res.body.required).toEqual(['project', 'pipelines']);
    expect(res.body.$defs.pipeline).toBeDefined();
  });
});
