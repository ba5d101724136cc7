// What an agent receives for gocdnext's dialect: its built-in variables beside ours, plugin settings as
// PLUGIN_* (job variables win), matrix cells as GOCDNEXT_MATRIX, agent.profile and docker as routing tags;
// needs_artifacts selects the stored files of the named job (paths as directories or globs, placed under
// dest) and output references read the outputs the earlier job returned; either missing fails the job at
// dispatch with a reason naming the job, as gocdnext does.
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

  it('builds plugin and image jobs for containers; fails needs_artifacts and output references with nothing to read', async () => {
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
    expect(!fetch.ok && fetch.error).toBe('needs_artifacts: job "vet" (this run) has no ready artifacts');
    const [read] = await built('plug5', doc, 'read');
    expect(!read.ok && read.error).toBe(
      '${{ needs.vet.outputs.next }} in NEXT: job "vet" of this run returned no output "next"',
    );
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

  it('hands the needed artifacts and the earlier job outputs to the job, masking long and masked values', async () => {
    const doc = `name: flow
stages: [build, ship]
jobs:
  build:
    stage: build
    script: [make]
    artifacts: {paths: [dist/, web/node_modules/]}
    outputs:
      tag: TAG
      digest: DIGEST
      token: {env: TOKEN, masked: true}
  ship:
    stage: ship
    needs_artifacts:
      - {from_job: build, paths: ["web/node_modules/"], dest: vendor}
      - {from_job: build, paths: ["dist/*.tgz"]}
    variables:
      REF: "app:\${{ needs.build.outputs.tag }}@\${{ needs.build.outputs.digest }}"
      KEY: "\${{ needs.build.outputs.token }}"
    script: [ls]`;
    const pipeline = await applyPipeline(s, 'flow', doc);
    const runId = await trigger(s, pipeline, { git_ref: 'main' });
    const db = s.server.database.db;
    const jobs = await db.selectFrom('job_runs').select(['id', 'name']).where('run_id', '=', runId).execute();
    const build = jobs.find((j) => j.name === 'build')!;
    const ship = jobs.find((j) => j.name === 'ship')!;
    const digest = 'sha256:0123456789abcdef';
    await db
      .updateTable('job_runs')
      .set({ status: 'success', outputs: JSON.stringify({ tag: 'v1', digest, token: 'tok' }) })
      .where('id', '=', build.id)
      .execute();
    const files = ['dist/app.tgz', 'dist/app.txt', 'web/node_modules/a/index.js', 'web/other.js'];
    await db
      .insertInto('artifacts')
      .values(
        files.map((path, i) => ({
          id: `00000000-0000-4000-8000-00000000000${i}`,
          run_id: runId,
          job_run_id: build.id,
          job_name: 'build',
          path,
          size_bytes: 10 + i,
          status: 'ready',
          content_sha256: String(i).repeat(64),
          storage_key: `k${i}`,
          created_at: new Date().toISOString(),
          expires_at: null,
        })),
      )
      .execute();
    const out = await new AssignmentBuilder(db, createSecretBox('2'.repeat(64))).build(ship.id);
    if (!out.ok) throw new Error(out.error);
    expect(out.assignment.env).toMatchObject({ REF: `app:v1@${digest}`, KEY: 'tok' });
    expect(
      out.assignment.neededArtifacts?.map((a) => [a.path, a.dest, a.fromJob, Number(a.sizeBytes)]),
    ).toEqual([
      ['web/node_modules/a/index.js', 'vendor', 'build', 12],
      ['dist/app.tgz', '.', 'build', 10],
    ]);
    // The digest is long enough to be masked by itself, the token because it is declared masked; v1 is not.
    expect([...(out.assignment.logMasks ?? [])].sort()).toEqual([digest, 'tok']);
    expect(out.secretValues).toEqual(expect.arrayContaining([digest, 'tok']));
    const [producer] = await built('flow2', doc, 'build');
    expect(producer.ok && producer.assignment.outputs).toEqual({
      tag: 'TAG',
      digest: 'DIGEST',
      token: 'TOKEN',
    });
  });
});
