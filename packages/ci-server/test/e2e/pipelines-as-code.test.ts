// Pipelines as code end to end (issue 29, item 2): a project bound to its repository's `.gocdnext/` folder
// gets its pipelines from it at once; a later push is picked up by polling alone (no API call) and runs as
// that commit defines it — a changed job and a new pipeline file included; a broken definition is recorded
// with its revision and keeps the last good pipelines.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { waitFor } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentProcess,
  type Api,
  type E2eServer,
  makeRepo,
  startServerWithAgent,
  stopServerWithAgent,
} from './harness.js';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;

beforeAll(async () => {
  ({ ci, client, agent } = await startServerWithAgent('as-code', { capacity: 2 }));
}, 60_000);
afterAll(() => stopServerWithAgent({ ci, agent }));

function commit(dir: string, files: Record<string, string>, message: string): string {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GIT_AUTHOR_NAME: 'e2e',
    GIT_AUTHOR_EMAIL: 'e2e@example.test',
    GIT_COMMITTER_NAME: 'e2e',
    GIT_COMMITTER_EMAIL: 'e2e@example.test',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  execFileSync('git', ['add', '-A'], { cwd: dir, env });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: dir, env });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, env }).toString().trim();
}

const build = (word: string) => `stages: [build]
jobs:
  compile:
    stage: build
    script:
      - echo "building ${word} at $CI_COMMIT_SHORT_SHA"
      - cat README.md
`;

const logOf = (run: any) =>
  client
    .jobs(run)
    .flatMap((j: any) => j.logs.map((l: any) => l.text))
    .join('\n');

async function runsOf(pipelineId: string): Promise<any[]> {
  return (await client.get(`/api/v1/runs?pipeline=${pipelineId}&limit=50`)).runs;
}

describe('pipelines kept in the repository', () => {
  it('applies the folder at binding, runs what a polled push defines, and survives a broken definition', async () => {
    const repo = makeRepo({ 'README.md': 'readme v1\n', '.gocdnext/build.yaml': build('v1') });
    const bound = await fetch(`${ci.base}/api/v1/projects/as-code/config-repo`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: repo.url, branch: 'main', poll_interval: '1s' }),
    });
    const state = await bound.json();
    expect(bound.status, JSON.stringify(state)).toBe(200);
    expect(state).toMatchObject({
      status: 'applied',
      applied_revision: repo.head,
      error: null,
      path: '.gocdnext',
    });
    const project = await client.get('/api/v1/projects/as-code');
    expect(project.pipelines.map((p: any) => p.name)).toEqual(['build']);
    const buildId = project.pipelines[0].id;
    // The implicit project material: the pipeline file names none, the repository is its git material.
    expect(project.pipelines[0].materials).toMatchObject([
      { kind: 'git', git: { url: repo.url, branch: 'main', on: ['push'] } },
    ]);
    // Binding is not a push: nothing runs until the branch moves.
    // Wait for the material poller's first look (its baseline), then check that it started nothing.
    await waitFor(
      () =>
        ci.server.database.db
          .selectFrom('material_poll_state')
          .select('last_revision')
          .where('last_revision', '=', repo.head)
          .executeTakeFirst(),
      { what: 'the first poll of the repository', timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(await runsOf(buildId)).toEqual([]);

    // A push changing the job and adding a pipeline file: polling reads it, then runs both as defined there.
    const second = commit(
      repo.dir,
      {
        'README.md': 'readme v2\n',
        '.gocdnext/build.yaml': build('v2'),
        '.gocdnext/lint.yml':
          'stages: [lint]\njobs:\n  vet:\n    stage: lint\n    script: ["echo linting"]\n',
      },
      'v2',
    );
    const first = await waitFor(async () => (await runsOf(buildId))[0], {
      what: 'a run of build after the push',
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const run = await client.waitRun(first.id, undefined, 120_000);
    expect(run.status, logOf(run)).toBe('success');
    expect(logOf(run)).toContain(`building v2 at ${second.slice(0, 8)}`);
    expect(logOf(run)).toContain('readme v2');
    const lintId = (await client.get('/api/v1/projects/as-code')).pipelines.find(
      (p: any) => p.name === 'lint',
    ).id;
    const lint = await waitFor(async () => (await runsOf(lintId))[0], {
      what: 'a lint run',
      timeoutMs: 60_000,
    });
    expect((await client.waitRun(lint.id, undefined, 120_000)).status).toBe('success');

    // A broken definition: recorded with its revision, the pipelines stay as they were.
    const broken = commit(repo.dir, { '.gocdnext/build.yaml': 'stages: [build]\njobs: [oops\n' }, 'broken');
    const failed = await waitFor(
      async () => {
        const s = await client.get('/api/v1/projects/as-code/config-repo');
        return s.checked_revision === broken ? s : undefined;
      },
      { what: 'the broken commit to be read', timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(failed).toMatchObject({ status: 'failed', applied_revision: second });
    expect(failed.error).toMatch(/the definition does not apply: .*build\.yaml/);
    const after = await client.get('/api/v1/projects/as-code');
    expect(after.pipelines.map((p: any) => p.name).sort()).toEqual(['build', 'lint']);
  }, 300_000);
});
