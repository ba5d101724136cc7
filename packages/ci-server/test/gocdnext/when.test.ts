// gocdnext's `when` enforced: a pipeline's event, branch and changed-file filter decides whether a trigger
// creates a run (failing open on unknown files), and a job's `when` skips that job in the runs it does not
// pass (the jobs needing it follow). Runs created through the triggers' createRuns on a real store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiServer } from '../../src/index.js';
import { createRuns, type RunRequest } from '../../src/triggers/start-runs.js';
import { type Client, client, startApiServer } from '../api-helpers.js';

let server: CiServer;
let api: Client;
beforeAll(async () => {
  server = await startApiServer('sqlite');
  api = client(server);
});
afterAll(async () => server?.close());

const PIPELINE = `name: backend
when:
  event: [push, pull_request]
  branches: [main, "release/*"]
  paths: ["server/**", go.mod]
stages: [test, publish]
jobs:
  unit:
    stage: test
    script: [go test ./...]
  pr-lint:
    stage: test
    when: { event: [pull_request] }
    script: [golangci-lint run]
  after-lint:
    stage: test
    needs: [pr-lint]
    script: [echo linted]
  publish:
    stage: publish
    when: { branch: ["release/*"] }
    script: [make publish]
`;

describe("gocdnext's when", () => {
  let pipelineId: string;
  beforeAll(async () => {
    const res = await api.post('/api/v1/projects/apply', {
      slug: 'when',
      files: [{ name: 'backend.yaml', content: PIPELINE }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pipelineId = (await api.get('/api/v1/projects/when')).body.pipelines[0].id;
  });

  const sha = (c: string) => c.repeat(40);
  const fire = async (over: Partial<RunRequest>) => {
    const db = server.database.db;
    const runs = await db.transaction().execute((trx) =>
      createRuns(trx, [
        {
          pipelineId,
          cause: 'webhook',
          triggeredBy: 'test',
          ref: { gitRef: 'main', revision: sha('a') },
          event: 'push',
          branch: 'main',
          files: null,
          ...over,
        },
      ]),
    );
    return runs.map((r) => r.id);
  };
  const jobs = async (runId: string) =>
    Object.fromEntries(
      (await api.get(`/api/v1/runs/${runId}`)).body.stages.flatMap(
        (s: { jobs: { name: string; status: string }[] }) => s.jobs.map((j) => [j.name, j.status]),
      ),
    );

  it('creates no run for another event, branch, or changes outside the paths', async () => {
    expect(await fire({ event: 'tag', branch: null, ref: { gitRef: 'v1', revision: sha('b') } })).toEqual([]);
    expect(await fire({ cause: 'cron', event: undefined, branch: null })).toEqual([]);
    expect(await fire({ branch: 'feature/x', ref: { gitRef: 'feature/x', revision: sha('c') } })).toEqual([]);
    expect(await fire({ files: ['web/app.tsx', 'README.md'] })).toEqual([]);
  });

  it('creates a run for a matching change, and fails open when the changed files are unknown', async () => {
    const [run] = await fire({ files: ['server/cmd/main.go'] });
    expect(run).toBeDefined();
    // The job-level when: the pull-request-only job is skipped, the job needing it too, publish is off main.
    expect(await jobs(run)).toEqual({
      unit: 'queued',
      'pr-lint': 'skipped',
      'after-lint': 'skipped',
      publish: 'skipped',
    });
    expect(await fire({ files: null, ref: { gitRef: 'main', revision: sha('d') } })).toHaveLength(1);
  });

  it('runs the pull-request job on a pull request, and the release job on a release branch', async () => {
    const [pr] = await fire({
      event: 'pull_request',
      ref: { gitRef: 'refs/pull/7/head', revision: sha('e') },
    });
    expect(await jobs(pr)).toMatchObject({ unit: 'queued', 'pr-lint': 'queued', 'after-lint': 'created' });
    const [rel] = await fire({
      branch: 'release/2.0',
      ref: { gitRef: 'release/2.0', revision: sha('f') },
      files: ['go.mod'],
    });
    const db = server.database.db;
    const publish = await db
      .selectFrom('job_runs')
      .select('status')
      .where('run_id', '=', rel)
      .where('name', '=', 'publish')
      .executeTakeFirstOrThrow();
    expect(publish.status).toBe('created');
    expect((await jobs(rel))['pr-lint']).toBe('skipped');
  });

  it('never filters a run a person starts', async () => {
    const res = await api.post(`/api/v1/pipelines/${pipelineId}/trigger`, {});
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });
});
