// Helpers of the commit-status tests: a control plane (auth off) whose log lines are kept for inspection, the
// three hosts' recorded push and pull-request payloads pointed at a commit, and the outbox rows of a run.
import { randomBytes } from 'node:crypto';
import { tempDir } from '@app/kit/testing';
import type { CiServer } from '../../src/index.js';
import { fixture } from '../triggers/helpers.js';
import type { ForgeKind } from './forge-doubles.js';

export const HOOK_SECRET = 'forge-hook-secret';
export const PUBLIC_URL = 'http://ci.example.test';

export async function startForgeServer(url: string): Promise<{ server: CiServer; logs: string[] }> {
  const { createCiServer, loadCiSettings } = await import('../../src/index.js');
  const logs: string[] = [];
  const settings = loadCiSettings({
    CI_DATA_DIR: tempDir('ci-forge-'),
    CI_HTTP_PORT: '0',
    CI_GRPC_PORT: '0',
    CI_AGENT_TOKEN: 'test-agent-token',
    CI_SECRET_KEY: '0'.repeat(64),
    CI_DATABASE_URL: url,
    CI_AUTH_ENABLED: 'false',
    CI_WEBHOOK_SECRET: HOOK_SECRET,
    CI_PUBLIC_URL: PUBLIC_URL,
  });
  const server = await createCiServer(settings, {
    logger: { write: (line: string) => void logs.push(line) },
    notifications: { backoffMs: 1 },
    triggers: { tickMs: 60_000 },
  });
  return { server, logs };
}

export const newSha = () => randomBytes(20).toString('hex');

/** Where each host's recorded payloads say the repository is, and the path statuses are posted on. */
export const REPOSITORY: Record<ForgeKind, { url: string; path: string }> = {
  github: { url: 'https://github.com/acme/shop.git', path: 'acme/shop' },
  gitlab: { url: 'https://gitlab.example.com/acme/api.git', path: 'acme/api' },
  bitbucket: { url: 'git@bitbucket.org:acme/web.git', path: 'acme/web' },
};

export const EVENTS: Record<ForgeKind, { push: string; pr: string }> = {
  github: { push: 'push', pr: 'pull_request' },
  gitlab: { push: 'Push Hook', pr: 'Merge Request Hook' },
  bitbucket: { push: 'repo:push', pr: 'pullrequest:created' },
};

/** The host's push of branch main at `sha`. */
export function pushBody(kind: ForgeKind, sha: string): string {
  if (kind === 'github') {
    const p = JSON.parse(fixture('github-push.json'));
    p.after = sha;
    p.head_commit.id = sha;
    return JSON.stringify(p);
  }
  if (kind === 'gitlab') {
    const p = JSON.parse(fixture('gitlab-push.json'));
    p.after = sha;
    p.checkout_sha = sha;
    return JSON.stringify(p);
  }
  const p = JSON.parse(fixture('bitbucket-push.json'));
  // The branch change only (the recorded push also carries a tag).
  p.push.changes = p.push.changes.slice(0, 1);
  p.push.changes[0].new.target.hash = sha;
  return JSON.stringify(p);
}

/** The host's pull request into main whose head (source) commit is `sha` (Bitbucket: abbreviated). */
export function pullRequestBody(kind: ForgeKind, sha: string): string {
  if (kind === 'github') {
    const p = JSON.parse(fixture('github-pull-request.json'));
    p.pull_request.head.sha = sha;
    return JSON.stringify(p);
  }
  if (kind === 'gitlab') {
    const p = JSON.parse(fixture('gitlab-merge-request.json'));
    p.object_attributes.last_commit.id = sha;
    return JSON.stringify(p);
  }
  const p = JSON.parse(fixture('bitbucket-pullrequest-created.json'));
  p.pullrequest.source.commit.hash = sha.slice(0, 12);
  return JSON.stringify(p);
}

/** The commit-status rows of a run, oldest first. */
export function statusRows(server: CiServer, runId: string) {
  return server.database.db
    .selectFrom('notification_outbox')
    .selectAll()
    .where('run_id', '=', runId)
    .where('channel_kind', '=', 'commit_status')
    .orderBy('id')
    .execute();
}

/** Makes every pending row due now (retries wait for their backoff; tests do not wait on a clock). */
export async function dueNow(server: CiServer): Promise<void> {
  await server.database.db
    .updateTable('notification_outbox')
    .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
    .where('status', '=', 'pending')
    .execute();
}
