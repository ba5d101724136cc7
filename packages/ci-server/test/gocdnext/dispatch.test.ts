// What an agent receives for gocdnext's dialect: its built-in variables beside ours, plugin settings as
// PLUGIN_* (job variables win), matrix cells as GOCDNEXT_MATRIX, agent.profile and docker as routing tags;
// and the keys whose execution this build cannot deliver fail the job at dispatch, naming the key.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { createSecretBox } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssignmentBuilder } from '../../src/dispatch/assignment-builder.js';
import { applyPipeline, databaseUrl, type Started, startServer, trigger } from '../dispatch/helpers.js';

let s: Started;
beforeAll(async () => {
  s = await startServer(await databaseUrl('sqlite'));
});
afterAll(async () => s?.server.close());

async function built(slug: string, doc: string, job: string) {
  const pipeline = await applyPipeline(s, slug, doc);
  const runId = await trigger(s, pipeline, { git_ref: 'main' });
  const db = s.server.database.db;
  const rows = await db
    .selectFrom('job_runs')
    .select(['id', 'name'])
    .where('run_id', '=', runId)
    .where('name', '=', job)
    .execute();
  const builder = new AssignmentBuilder(db, createSecretBox('2'.repeat(64)));
  return Promise.all(rows.map((r) => builder.build(r.id)));
}

describe("gocdnext's dialect at dispatch", () => {
  it('sets the built-ins, the matrix cell and the routing tags of agent.profile and docker', async () => {
    const [cell] = await built(
      'builtins',
      `name: cross
materials: [{git: {url: "file:///srv/repo.git", branch: main}}]
stages: [test]
jobs:
  test:
    stage: test
    parallel: {matrix: [{OS: [linux]}, {ARCH: [arm64]}]}
    agent: {profile: gpu, tags: [linux]}
    docker: true
    script: ['echo $GOCDNEXT_MATRIX']`,
      'test',
    );
    if (!cell.ok) throw new Error(cell.error);
    expect(cell.assignment.env).toMatchObject({
      CI: 'true',
      GOCDNEXT: 'true',
      CI_BRANCH: 'main',
      CI_COMMIT_BRANCH: 'main',
      CI_COMMIT_SHORT_SHA: '',
      CI_PROJECT_SLUG: 'builtins',
      CI_PROJECT_ID: cell.context.projectId,
      CI_PIPELINE_NAME: 'cross',
      CI_RUN_COUNTER: '1',
      CI_JOB_NAME: 'test',
      GOCDNEXT_MATRIX: 'ARCH=arm64,OS=linux',
      OS: 'linux',
      ARCH: 'arm64',
    });
    expect([...cell.tags].sort()).toEqual(['docker', 'linux', 'profile:gpu']);
  });

  it('builds plugin and image jobs for containers; fails needs_artifacts and output references naming them', async () => {
    const doc = `name: plug
stages: [build, ship]
jobs:
  vet:
    stage: build
    uses: gocdnext/go@v1
    with: {working-dir: server, command: vet ./...}
    variables: {PLUGIN_COMMAND: test ./...}
    artifacts: {paths: [bin/]}
    outputs: {next: NEXT}
  img:
    stage: build
    image: golang:1.23
    script: [go build]
  fetch:
    stage: ship
    needs_artifacts: [{from_job: vet}]
    script: [ls bin]
  read:
    stage: ship
    variables: {NEXT: "\${{ needs.vet.outputs.next }}"}
    script: [echo $NEXT]`;
    const pipeline = await applyPipeline(s, 'plug', doc);
    const detail = await s.inject('GET', `/api/v1/pipelines/${pipeline}/yaml`);
    expect(detail.status).toBe(200);
    // Plugin and image jobs run in containers (agents with podman): the assignment carries the image, and a
    // plugin job no script (its image's own entrypoint runs), its settings as PLUGIN_* variables.
    const [vet] = await built('plug2', doc, 'vet');
    expect(vet.ok && [vet.assignment.image, vet.assignment.script]).toEqual([
      'ghcr.io/klinux/gocdnext-plugin-go:v1',
      [],
    ]);
    const [img] = await built('plug3', doc, 'img');
    expect(img.ok && img.assignment.image).toBe('golang:1.23');
    const [fetch] = await built('plug4', doc, 'fetch');
    expect(!fetch.ok && fetch.error).toMatch(/has needs_artifacts/);
    const [read] = await built('plug5', doc, 'read');
    expect(!read.ok && read.error).toMatch(/outputs are not passed between jobs/);
    // The stored form: plugin settings as PLUGIN_* variables, the job's own variables winning.
    const db = s.server.database.db;
    const row = await db
      .selectFrom('pipelines')
      .select('definition')
      .where('id', '=', pipeline)
      .executeTakeFirstOrThrow();
    const jobs = JSON.parse(row.definition).jobs;
    expect(jobs.vet).toMatchObject({
      image: 'ghcr.io/klinux/gocdnext-plugin-go:v1',
      uses: 'gocdnext/go@v1',
      variables: { PLUGIN_WORKING_DIR: 'server', PLUGIN_COMMAND: 'test ./...' },
      outputs: { next: { env: 'NEXT', masked: false } },
    });
    expect(jobs.fetch.needs_artifacts).toEqual([{ from_job: 'vet', paths: [], dest: './' }]);
  });
});
