// End to end with a listening control plane, its own outbox deliverer and a real agent: a signed push webhook
// (GitHub and GitLab payloads pointed at a local repository) starts a run; its pending status arrives at the
// host's API double while no agent is connected yet, and once an agent builds the commit, the success. The
// repository on the forge is configured (`repository`), since the material is a local path. Bitbucket's
// payloads name only bitbucket.org URLs, which an agent here cannot clone: its flow is covered in-process
// (test/forge/forge-status.test.ts).
import { randomUUID } from 'node:crypto';
import { waitFor } from '@app/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForgeDouble, type ForgeKind, startForgeDouble } from '../forge/forge-doubles.js';
import { pushBody } from '../forge/helpers.js';
import { hubSignature } from '../triggers/helpers.js';
import {
  type AgentProcess,
  type Api,
  api,
  type E2eServer,
  makeRepo,
  startAgent,
  startServer,
  waitForAgents,
} from './harness.js';

const HOOK_SECRET = 'e2e-forge-hook-secret';
const TOKEN = 'e2e-forge-token-7f3c1a9b2d';
const HOSTS: ForgeKind[] = ['github', 'gitlab'];

let ci: E2eServer;
let client: Api;
let agent: AgentProcess | undefined;
const doubles = new Map<ForgeKind, ForgeDouble>();

beforeAll(async () => {
  ci = await startServer({
    env: { CI_WEBHOOK_SECRET: HOOK_SECRET, CI_PUBLIC_URL: 'http://ci.example.test' },
  });
  client = api(ci.base);
  for (const kind of HOSTS) doubles.set(kind, await startForgeDouble(kind, TOKEN));
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  for (const d of doubles.values()) await d.close();
  await ci?.server.close();
});

/** The host's recorded push of main at `sha`, its repository URLs replaced by the local repository's. */
function localPush(kind: ForgeKind, url: string, sha: string): string {
  const p = JSON.parse(pushBody(kind, sha));
  if (kind === 'github') p.repository.clone_url = url;
  else {
    p.project.git_http_url = url;
    p.repository.git_http_url = url;
  }
  return JSON.stringify(p);
}

async function deliver(kind: ForgeKind, body: string): Promise<string[]> {
  const headers: Record<string, string> =
    kind === 'github'
      ? {
          'x-github-event': 'push',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': hubSignature(HOOK_SECRET, body),
        }
      : { 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': randomUUID(), 'x-gitlab-token': HOOK_SECRET };
  const res = await fetch(`${ci.base}/api/webhooks/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { runs: string[] }).runs;
}

const put = (slug: string, body: unknown) =>
  fetch(`${ci.base}/api/v1/projects/${slug}/commit-status`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('commit statuses from a real run', () => {
  it('pending while queued, success once an agent built the pushed commit', async () => {
    const pushed = new Map<ForgeKind, { sha: string; runId: string }>();
    for (const kind of HOSTS) {
      const repo = makeRepo({ 'README.md': `# ${kind}\n` });
      const slug = `forge-${kind}`;
      await client.apply(slug, [
        `name: build
materials:
  - git: { url: "${repo.url}", branch: main }
stages: [build]
jobs: { compile: { stage: build, script: ["test -f README.md"] } }`,
      ]);
      const forge = doubles.get(kind)!;
      const res = await put(slug, {
        host: kind,
        api_url: forge.apiUrl,
        repository: 'acme/shop',
        token: TOKEN,
      });
      expect(res.status).toBe(200);
      const runs = await deliver(kind, localPush(kind, repo.url, repo.head));
      expect(runs).toHaveLength(1);
      pushed.set(kind, { sha: repo.head, runId: runs[0] });
    }
    // No agent yet: each run waits queued, and its pending status reaches the forge.
    for (const kind of HOSTS) {
      const { sha } = pushed.get(kind)!;
      const forge = doubles.get(kind)!;
      await waitFor(async () => forge.statuses.some((s) => s.sha === sha), {
        what: `the pending status at the ${kind} double`,
        timeoutMs: 30_000,
      });
    }
    agent = startAgent(ci.grpcPort, 'forge-agent');
    await waitForAgents(ci.server, ['forge-agent']);
    for (const kind of HOSTS) {
      const { sha, runId } = pushed.get(kind)!;
      expect((await client.waitRun(runId)).status).toBe('success');
      const forge = doubles.get(kind)!;
      const sent = await waitFor(
        async () => {
          const mine = forge.statuses.filter((s) => s.sha === sha);
          return mine.at(-1)?.state === 'success' ? mine : undefined;
        },
        { what: `the success status at the ${kind} double`, timeoutMs: 30_000 },
      );
      expect(sent[0]).toMatchObject({ state: 'pending', description: 'Run #1 is queued' });
      expect(sent.at(-1)).toMatchObject({
        repository: 'acme/shop',
        context: `ci/gocdnext/forge-${kind}/build`,
        targetUrl: `http://ci.example.test/runs/${runId}`,
        description: 'Run #1 succeeded',
      });
      // In between at most the running status, in order.
      expect(sent.slice(1, -1).every((s) => s.description === 'Run #1 is running')).toBe(true);
      expect(forge.seen.every((r) => r.answered < 300)).toBe(true);
    }
  }, 180_000);
});
