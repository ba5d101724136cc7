// gocdnext's job inputs end to end with a real agent (issue 29): pipelines applied as gocdnext's CLI sends
// them ({slug, files}); a job's outputs written to $GOCDNEXT_OUTPUT_FILE reach a later job's variables
// through ${{ needs.<job>.outputs.<alias> }}; needs_artifacts restores an earlier job's files (a directory
// under dest, a glob at the root) before the script; from_pipeline reads the upstream run that triggered
// the downstream one; and a declared output the job never writes fails it, naming the alias.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { waitFor } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  atHead,
  type E2eServer,
  makeRepo,
  startServerWithAgent,
  stopServerWithAgent,
} from './harness.js';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;

beforeAll(async () => {
  ({ ci, client, agent } = await startServerWithAgent('gocd-inputs', { capacity: 2 }));
}, 60_000);
afterAll(() => stopServerWithAgent({ ci, agent }));

const logOf = (run: any, job?: string) =>
  client
    .jobs(run)
    .filter((j: any) => !job || j.name === job)
    .flatMap((j: any) => j.logs.map((l: any) => l.text))
    .join('\n');

async function applyFiles(slug: string, files: Record<string, string>): Promise<Record<string, string>> {
  const res = await client.post('/api/v1/projects/apply', {
    slug,
    files: Object.entries(files).map(([name, content]) => ({ name, content })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const detail = await client.get(`/api/v1/projects/${slug}`);
  return Object.fromEntries(detail.pipelines.map((p: { name: string; id: string }) => [p.name, p.id]));
}

describe("gocdnext's needs_artifacts and outputs with a real agent", () => {
  it('passes outputs and artifacts between jobs and to the pipeline an upstream run triggers', async () => {
    const repo = makeRepo({ 'README.md': '# app\n' });
    const release = `materials:
  - git: {url: "${repo.url}", branch: main}
stages: [build, ship]
jobs:
  build:
    stage: build
    script:
      - mkdir -p dist web/node_modules/lib
      - echo "bundle of run $CI_RUN_COUNTER" > dist/app.tgz
      - echo "not restored" > dist/notes.txt
      - echo "module lib" > web/node_modules/lib/index.js
      - echo "VERSION=1.2.$CI_RUN_COUNTER" >> "$GOCDNEXT_OUTPUT_FILE"
      - echo "DIGEST=sha256:feedfacecafe0001" >> "$GOCDNEXT_OUTPUT_FILE"
      - echo "EXTRA=dropped" >> "$GOCDNEXT_OUTPUT_FILE"
    artifacts:
      paths: [dist/, web/node_modules/]
    outputs:
      version: VERSION
      digest: DIGEST
  ship:
    stage: ship
    needs_artifacts:
      - from_job: build
        paths: ["web/node_modules/"]
        dest: vendor
      - from_job: build
        paths: ["dist/*.tgz"]
    variables:
      VERSION: "\${{ needs.build.outputs.version }}"
      IMAGE: "app@\${{ needs.build.outputs.digest }}"
    script:
      - echo "lib=$(cat vendor/web/node_modules/lib/index.js)"
      - echo "bundle=$(cat dist/app.tgz)"
      - test ! -e dist/notes.txt
      - echo "version=$VERSION"
      - test "$IMAGE" = "app@sha256:feedfacecafe0001"
      - echo "image=$IMAGE"
`;
    const deploy = `materials:
  - upstream: {pipeline: release, stage: ship}
stages: [deploy]
jobs:
  deploy:
    stage: deploy
    needs_artifacts:
      - from_pipeline: release
        from_job: build
        paths: [dist/app.tgz]
    script:
      - echo "deploying $(cat dist/app.tgz)"
`;
    const ids = await applyFiles('gocd-inputs', {
      '.gocdnext/release.yaml': release,
      '.gocdnext/deploy.yaml': deploy,
    });
    const runId = await client.trigger(ids.release, atHead(repo));
    const run = await client.waitRun(runId, undefined, 120_000);
    expect(run.status, logOf(run)).toBe('success');
    const ship = logOf(run, 'ship');
    expect(ship).toContain('lib=module lib');
    expect(ship).toContain('bundle=bundle of run 1');
    expect(ship).toContain('version=1.2.1');
    expect(ship).toMatch(/artifact file\(s\) of job\(s\) build restored into the workspace/);
    // An output value of 8 characters or more is masked in the reading job's log, as in gocdnext.
    expect(ship).not.toContain('feedfacecafe0001');
    expect(ship).toMatch(/image=app@\*+/);
    expect(logOf(run, 'build')).toContain('outputs: version, digest');

    // The upstream success starts deploy, which restores the file from the run that triggered it.
    const downstream = await waitFor(
      async () => (await client.get(`/api/v1/runs?pipeline=${ids.deploy}`)).runs[0],
      { what: 'the deploy run', timeoutMs: 60_000, intervalMs: 200 },
    );
    const deployed = await client.waitRun(downstream.id, undefined, 120_000);
    expect(deployed.status, logOf(deployed)).toBe('success');
    expect(logOf(deployed)).toContain('deploying bundle of run 1');

    // Started by hand, deploy has no upstream run to read: it fails before any agent runs it.
    const manual = await client.waitRun(await client.trigger(ids.deploy));
    expect(manual.status).toBe('failed');
    expect(client.jobs(manual)[0].failure_reason).toMatch(/from_pipeline "release" .* not triggered by one/);
  });

  it('fails a job that does not write a declared output, naming it; the reader never starts', async () => {
    const ids = await applyFiles('gocd-outputs-missing', {
      '.gocdnext/bump.yaml': `stages: [tag, use]
jobs:
  bump:
    stage: tag
    script: ['echo "OTHER=1" >> "$GOCDNEXT_OUTPUT_FILE"']
    outputs: {next: NEXT}
  use:
    stage: use
    variables: {NEXT: "\${{ needs.bump.outputs.next }}"}
    script: ['echo $NEXT']
`,
    });
    const run = await client.waitRun(await client.trigger(ids.bump));
    expect(run.status).toBe('failed');
    const [bump, use] = client.jobs(run);
    expect(bump.status).toBe('failed');
    expect(bump.failure_reason).toContain(
      'declared output(s) not written to $GOCDNEXT_OUTPUT_FILE: next (NEXT)',
    );
    expect(use.status).not.toBe('success');
  });

  it("picks one cell's outputs of a matrix job with ${{ needs.J.matrix[SEL].outputs.A }}", async () => {
    const ids = await applyFiles('gocd-matrix-outputs', {
      '.gocdnext/release.yaml': `stages: [bump, publish]
jobs:
  bump:
    stage: bump
    parallel: {matrix: [{shard: [apac, emea]}]}
    script: ['echo "NEXT=v2.$CI_RUN_COUNTER-$shard" >> "$GOCDNEXT_OUTPUT_FILE"']
    outputs: {next: NEXT}
  publish:
    stage: publish
    variables:
      APAC: "\${{ needs.bump.matrix[apac].outputs.next }}"
      EMEA: "\${{ needs.bump.matrix[shard=emea].outputs.next }}"
    script:
      - 'test "$APAC" = "v2.1-apac"'
      - 'test "$EMEA" = "v2.1-emea"'
      - 'echo "apac=$APAC emea=$EMEA"'
`,
    });
    const run = await client.waitRun(await client.trigger(ids.release), undefined, 120_000);
    expect(run.status, logOf(run)).toBe('success');
    // The script compared the values; printed, each (8+ characters) is masked as outputs are.
    expect(logOf(run, 'publish')).toMatch(/apac=\*+ emea=\*+/);
  });
});
