// End to end with a real agent: a signed GitHub pull_request delivery from a fork (head.repo differs from
// base.repo) creates a run that waits — the idle agent builds a later manual run of the same pipeline first
// and never takes the fork's job — until a maintainer approves it; then its job runs without the project's
// secret (neither exported nor through a `${{ }}` reference), while the manual run of the same job had it.
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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

const SECRET = 'npm-tok-3f9a1c77e2';
const HOOK_SECRET = 'e2e-hook-secret';

let ci: E2eServer;
let client: Api;
let agent: AgentProcess;

beforeAll(async () => {
  ({ ci, client, agent } = await startServerWithAgent('fork-agent', { capacity: 1 }));
}, 60_000);

afterAll(() => stopServerWithAgent({ ci, agent }));

/** GitHub's recorded pull_request payload pointed at `url`, from fork `fork`, at commit `sha`. */
function forkPullRequest(url: string, sha: string, fork: string): string {
  const fixture = join(import.meta.dirname, '../triggers/fixtures/github-pull-request.json');
  const p = JSON.parse(readFileSync(fixture, 'utf8'));
  p.repository.clone_url = url;
  p.pull_request.base.repo.clone_url = url;
  p.pull_request.head.sha = sha;
  p.pull_request.head.repo.full_name = fork;
  p.pull_request.head.repo.clone_url = `https://github.com/${fork}.git`;
  return JSON.stringify(p);
}

async function deliver(body: string) {
  const res = await fetch(`${ci.base}/api/webhooks/github`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': `sha256=${createHmac('sha256', HOOK_SECRET).update(body).digest('hex')}`,
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as { runs: string[] } };
}

const logText = (run: any) =>
  run.stages
    .flatMap((s: any) => s.jobs)
    .flatMap((j: any) => j.logs)
    .map((l: any) => l.text)
    .join('\n');

describe("a fork's pull request on a real agent", () => {
  it('waits for approval, then runs without the secret the same job gets otherwise', async () => {
    const repo = makeRepo({ 'README.md': '# fork e2e\n' });
    const ids = await client.apply('forked', [
      `name: check
materials:
  - git: { url: "${repo.url}", branch: main, on: [push, pull_request] }
stages: [test]
jobs:
  test:
    stage: test
    secrets: [NPM_TOKEN]
    variables: { VIA_REF: "\${{ NPM_TOKEN }}" }
    script:
      - 'echo "token=[\${NPM_TOKEN:-}] ref=[\${VIA_REF}]"'`,
    ]);
    for (const [name, value] of [
      ['NPM_TOKEN', SECRET],
      ['WEBHOOK_SECRET', HOOK_SECRET],
    ])
      expect((await client.post('/api/v1/projects/forked/secrets', { name, value })).status).toBe(201);

    const delivered = await deliver(forkPullRequest(repo.url, repo.head, 'mallory/forked'));
    expect(delivered.status).toBe(200);
    expect(delivered.body.runs).toHaveLength(1);
    const forkRun = delivered.body.runs[0];
    const held = await client.run(forkRun);
    expect(held.status).toBe('queued');
    expect(client.jobs(held)[0]).toMatchObject({ status: 'awaiting_approval', agent: null });
    expect(held.fork).toMatchObject({ awaiting_approval: true, secrets_withheld: true });

    // The only agent (one slot) is idle: a run created after the fork's is built, the fork's is not.
    const manual = await client.trigger(ids.check, atHead(repo));
    const done = await client.waitRun(manual);
    expect(done.status).toBe('success');
    expect(logText(done)).toContain('token=[***] ref=[***]');
    const still = await client.run(forkRun);
    expect(still.status).toBe('queued');
    expect(client.jobs(still)[0]).toMatchObject({ status: 'awaiting_approval', agent: null, logs: [] });

    const approved = await client.post(`/api/v1/runs/${forkRun}/approve`, { comment: 'diff reviewed' });
    expect(approved).toMatchObject({ status: 200, body: { secrets_withheld: true } });
    const finished = await client.waitRun(forkRun);
    expect(finished.status).toBe('success');
    expect(client.jobs(finished)[0].agent).toBe('fork-agent');
    const text = logText(finished);
    expect(text).toContain('token=[] ref=[]');
    expect(text).toContain('[ci] secrets withheld (NPM_TOKEN): this run builds a pull request from a fork');
    expect(text).not.toContain(SECRET);
    expect(finished.fork).toMatchObject({
      awaiting_approval: false,
      approved_by: 'anonymous',
      comment: 'diff reviewed',
    });
  }, 120_000);
});
