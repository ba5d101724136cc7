// Commit statuses sent back to the forge (docs/ci-triggers.md, "Commit statuses"), the pure part: which runs
// report (a push or pull request: causes `webhook` and `poll`, and reruns of a run that reported), which
// state a run status is on each host, the status name (`ci/gocdnext/<project>/<pipeline>`), the repository path a
// material URL names, and the project's stored configuration read leniently. No I/O.
import { normaliseGitUrl } from './fingerprint.js';

export const FORGE_HOSTS = ['github', 'gitlab', 'bitbucket'] as const;
export type ForgeHost = (typeof FORGE_HOSTS)[number];

/** The outbox channel kind of a commit status (one row per status sent). */
export const FORGE_STATUS_KIND = 'commit_status';
/** The project setting key of the configuration, and the project secret holding the token. */
export const FORGE_STATUS_SETTING = 'commit_status';
export const FORGE_STATUS_TOKEN_SECRET = 'COMMIT_STATUS_TOKEN';
export const DEFAULT_CONTEXT_PREFIX = 'ci/gocdnext';

/** Where each host's REST API lives by default (the public services). */
export const DEFAULT_API_URL: Record<ForgeHost, string> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com/api/v4',
  bitbucket: 'https://api.bitbucket.org/2.0',
};

export interface ForgeStatusConfig {
  host: ForgeHost;
  /** The API root (`https://github.example.com/api/v3`); null: the host's public API. */
  api_url: string | null;
  /** `owner/repo` (GitLab: the full project path); null: taken from the pipeline's git material. */
  repository: string | null;
  /** Bitbucket: with a username the token is an app password sent as Basic auth; else Bearer. */
  username: string | null;
  context_prefix: string;
}

/** The host-neutral state of a run: one per run status. */
export type ForgeState = 'pending' | 'running' | 'success' | 'failure' | 'canceled';

const STATE_OF: Record<string, ForgeState> = {
  queued: 'pending',
  running: 'running',
  success: 'success',
  failed: 'failure',
  canceled: 'canceled',
};

export function forgeStateOf(runStatus: string): ForgeState | null {
  return STATE_OF[runStatus] ?? null;
}

/**
 * Each host's word for a state. GitHub has no running or canceled state: running stays `pending` (the
 * description says running) and a canceled run is `error`, as GitHub Actions reports a cancelled workflow
 * through its commit-status API. GitLab has all five. Bitbucket: INPROGRESS, SUCCESSFUL, FAILED, STOPPED.
 */
export const HOST_STATE: Record<ForgeHost, Record<ForgeState, string>> = {
  github: {
    pending: 'pending',
    running: 'pending',
    success: 'success',
    failure: 'failure',
    canceled: 'error',
  },
  gitlab: {
    pending: 'pending',
    running: 'running',
    success: 'success',
    failure: 'failed',
    canceled: 'canceled',
  },
  bitbucket: {
    pending: 'INPROGRESS',
    running: 'INPROGRESS',
    success: 'SUCCESSFUL',
    failure: 'FAILED',
    canceled: 'STOPPED',
  },
};

const WORD: Record<ForgeState, string> = {
  pending: 'is queued',
  running: 'is running',
  success: 'succeeded',
  failure: 'failed',
  canceled: 'was canceled',
};

/**
 * The status description: `Run #12 succeeded` (every host shows it beside the status name). A fork's pull
 * request held for a maintainer says so while it waits, rather than looking queued for an agent.
 */
export function forgeDescription(counter: number, state: ForgeState, held = false): string {
  return `Run #${counter} ${held && state === 'pending' ? "waits for a maintainer's approval" : WORD[state]}`;
}

/**
 * The status name (GitHub `context`, GitLab `name`, Bitbucket `name`): `ci/gocdnext/<project>/<pipeline>`, the
 * context gocdnext itself posts, so branch protection rules that require it keep working after a move. The
 * project qualifies the pipeline: two projects building one repository do not overwrite each other's status.
 */
export function forgeContext(prefix: string, project: string, pipeline: string): string {
  return `${prefix}/${project}/${pipeline}`;
}

// Full SHA-1 or SHA-256 ids; Bitbucket's pull-request payloads give the source commit abbreviated (12
// characters), which its status API resolves like any commit endpoint.
const SHA = /^[0-9a-f]{7,64}$/;

/** Whether a run of this cause and revision reports (reruns are decided by the store: did the origin report). */
export function reportsCause(cause: string, revision: string | null): boolean {
  return revision !== null && SHA.test(revision) && (cause === 'webhook' || cause === 'poll');
}

export function isCommitSha(revision: string | null): revision is string {
  return revision !== null && SHA.test(revision);
}

/**
 * The repository path a git URL names on its host: `git@github.com:acme/shop.git` → `acme/shop`; GitLab keeps
 * every group (`group/sub/project`). Null for local paths and URLs without at least owner and name.
 */
export function repositoryPath(url: string, host: ForgeHost): string | null {
  const key = normaliseGitUrl(url);
  if (key.startsWith('/') || key.startsWith('file:')) return null;
  const slash = key.indexOf('/');
  if (slash < 0) return null;
  let path = key.slice(slash + 1);
  // Bitbucket Server style `scm/<project>/<repo>` is not Bitbucket Cloud; GitLab may carry `/-/` suffixes.
  path = path.replace(/\/-\/.*$/, '');
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length < 2) return null;
  if (host !== 'gitlab' && parts.length !== 2) return null;
  return parts.join('/');
}

/** Whether `text` is a repository path the host accepts (`owner/repo`, GitLab `group/…/project`). */
export function validRepository(text: string, host: ForgeHost): boolean {
  const parts = text.split('/');
  if (parts.some((p) => !/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/.test(p))) return false;
  return host === 'gitlab' ? parts.length >= 2 : parts.length === 2;
}

/** The stored document, read leniently: null when absent or unreadable (nothing is reported then). */
export function parseForgeStatusConfig(text: string | undefined): ForgeStatusConfig | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<ForgeStatusConfig>;
    if (!FORGE_HOSTS.includes(v.host as ForgeHost)) return null;
    const s = (x: unknown) => (typeof x === 'string' && x !== '' ? x : null);
    return {
      host: v.host as ForgeHost,
      api_url: s(v.api_url),
      repository: s(v.repository),
      username: s(v.username),
      context_prefix: s(v.context_prefix) ?? DEFAULT_CONTEXT_PREFIX,
    };
  } catch {
    return null;
  }
}
