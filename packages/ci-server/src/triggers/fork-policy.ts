// What a project does with pull requests from forks (docs/ci-triggers.md, "Pull requests from forks"):
// the per-project setting `{on_fork, trusted_authors, allow_secrets}` kept in `project_settings` (key
// `fork_policy`, like the log-archive override), and the pure decision the webhook service takes for each
// fork pull request. The default is GitHub's "approve and run": the run waits for a maintainer and its
// jobs get no project or global secrets.
import { badRequest } from '@app/kit';
import type { StoreDb } from '../store/database.js';
import { projectIdOf } from '../store/lookups.js';
import { readProjectSetting, writeProjectSetting } from '../store/settings.js';

export const FORK_POLICY_KEY = 'fork_policy';
export const ON_FORK = ['approve', 'run', 'skip'] as const;
export type OnFork = (typeof ON_FORK)[number];
export const MAX_TRUSTED_AUTHORS = 500;

export interface ForkPolicy {
  /** approve: wait for a maintainer; run: run at once; skip: start no run. */
  on_fork: OnFork;
  /** Accounts (host logins, any case) whose fork pull requests run without approval. */
  trusted_authors: string[];
  /** Whether runs of fork pull requests get the project's and global secrets (default no). */
  allow_secrets: boolean;
}

export const DEFAULT_FORK_POLICY: ForkPolicy = {
  on_fork: 'approve',
  trusted_authors: [],
  allow_secrets: false,
};

export type ForkDecision =
  | { start: false; reason: string }
  | { start: true; awaitingApproval: boolean; secretsWithheld: boolean; reason: string };

/** What happens to a fork's pull request by `author` from `headRepository` under `policy`. */
export function decideForkRun(
  policy: ForkPolicy,
  author: string | null,
  headRepository: string | null,
): ForkDecision {
  const from = `pull request from fork ${headRepository ?? '(a deleted repository)'} by ${author ?? '(unknown)'}`;
  if (policy.on_fork === 'skip')
    return { start: false, reason: `${from}: the project does not build forks (on_fork: skip)` };
  const trusted =
    author !== null && policy.trusted_authors.some((a) => a.toLowerCase() === author.toLowerCase());
  const secretsWithheld = !policy.allow_secrets;
  const secrets = secretsWithheld ? 'its jobs get no secrets' : 'its jobs get the secrets (allow_secrets)';
  if (policy.on_fork === 'run' || trusted)
    return {
      start: true,
      awaitingApproval: false,
      secretsWithheld,
      reason: `${from}: runs without approval (${trusted ? 'trusted author' : 'on_fork: run'}); ${secrets}`,
    };
  return {
    start: true,
    awaitingApproval: true,
    secretsWithheld,
    reason: `${from}: waits for a maintainer to approve the run; ${secrets}`,
  };
}

/** A stored document read leniently: anything unreadable falls back to the default field by field. */
function parsePolicy(text: string | undefined): ForkPolicy {
  if (!text) return { ...DEFAULT_FORK_POLICY };
  try {
    const v = JSON.parse(text) as Partial<ForkPolicy>;
    return {
      on_fork: ON_FORK.includes(v.on_fork as OnFork) ? (v.on_fork as OnFork) : DEFAULT_FORK_POLICY.on_fork,
      trusted_authors: Array.isArray(v.trusted_authors)
        ? v.trusted_authors.filter((a): a is string => typeof a === 'string')
        : [],
      allow_secrets: v.allow_secrets === true,
    };
  } catch {
    return { ...DEFAULT_FORK_POLICY };
  }
}

export async function forkPolicyOf(db: StoreDb, projectId: string): Promise<ForkPolicy> {
  return parsePolicy((await readProjectSetting(db, projectId, FORK_POLICY_KEY))?.value);
}

export async function readForkPolicy(
  db: StoreDb,
  slug: string,
): Promise<ForkPolicy & { updated_at: string | null }> {
  const id = await projectIdOf(db, slug);
  const row = await readProjectSetting(db, id, FORK_POLICY_KEY);
  return { ...parsePolicy(row?.value), updated_at: row?.updated_at ?? null };
}

/** Replaces the policy; fields left out take their defaults. */
export async function writeForkPolicy(
  db: StoreDb,
  slug: string,
  input: Partial<ForkPolicy>,
): Promise<ForkPolicy & { updated_at: string | null }> {
  const id = await projectIdOf(db, slug);
  const authors = [...new Set((input.trusted_authors ?? []).map((a) => a.trim()))];
  if (authors.some((a) => a === '')) throw badRequest('trusted_authors holds an empty name');
  const policy: ForkPolicy = {
    on_fork: input.on_fork ?? DEFAULT_FORK_POLICY.on_fork,
    trusted_authors: authors,
    allow_secrets: input.allow_secrets ?? false,
  };
  await writeProjectSetting(db, id, FORK_POLICY_KEY, JSON.stringify(policy));
  return readForkPolicy(db, slug);
}
