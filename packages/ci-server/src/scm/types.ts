// What the three SCM hosts' webhook payloads mean to the control plane, once parsed: which repository, and
// for each ref the delivery touched, what kind of event it was, which branch or tag, and which commit.
// Parsers read untrusted JSON: every field is checked for its type, nothing is assumed to exist.
export const SCM_HOSTS = ['github', 'gitlab', 'bitbucket'] as const;
export type ScmHost = (typeof SCM_HOSTS)[number];

export type ChangeKind = 'push' | 'tag' | 'pull_request';

export interface RefChange {
  kind: ChangeKind;
  /** push: the branch pushed; pull_request: the target (base) branch; tag: null. */
  branch: string | null;
  /** What the run records as git_ref: the branch, the tag name, or the host's pull-request ref. */
  gitRef: string;
  /** The commit to build (the tag's commit for tags, the head commit of a pull request). */
  revision: string;
  message: string | null;
  author: string | null;
  committedAt: string | null;
  /** Pull requests: where the proposed code lives and who proposed it (the fork policy reads both). */
  pullRequest?: PullRequestOrigin;
  /** Paths a push changed, from the payload's commit lists; null or absent when unknown (gocdnext's
   * `when.paths` then fails open). */
  files?: string[] | null;
}

/**
 * Where a pull request's code comes from. `fromFork` compares the head (source) repository with the base
 * (target) one as each host reports them; a head repository the payload does not name (a deleted fork) counts
 * as a fork. `author` is the account that opened it (GitHub login, GitLab username, Bitbucket nickname).
 */
export interface PullRequestOrigin {
  fromFork: boolean;
  headRepository: string | null;
  author: string | null;
  /**
   * The pull request's labels, trimmed, lower case, without repeats (gocdnext's `approval.quorum_by_label`
   * reads them); empty when it has none or the host has no labels (Bitbucket).
   */
  labels: string[];
}

/**
 * The paths a push payload's commits added, modified or removed (GitHub and GitLab share the shape).
 * Null when the list may be incomplete: no commits, a commit without its lists, or a payload that holds
 * fewer commits than the push had (both hosts cap it at 20).
 */
export function pushedFiles(commits: unknown, total?: unknown): string[] | null {
  if (!Array.isArray(commits) || commits.length === 0 || commits.length >= 20) return null;
  if (typeof total === 'number' && total > commits.length) return null;
  const out = new Set<string>();
  for (const c of commits) {
    if (typeof c !== 'object' || c === null) return null;
    for (const k of ['added', 'modified', 'removed']) {
      const list = (c as Record<string, unknown>)[k];
      if (!Array.isArray(list)) return null;
      for (const f of list) if (typeof f === 'string') out.add(f);
    }
  }
  return [...out];
}

export interface ParsedDelivery {
  /** The host's event name (X-GitHub-Event, X-Gitlab-Event, X-Event-Key). */
  event: string;
  /** Display name of the repository (`org/repo`), null when the payload names none. */
  repository: string | null;
  /** Every URL the payload gives for the repository (clone, ssh, web); matched after normalisation. */
  repositoryUrls: string[];
  /** Who caused it (login or display name), for `triggered_by`. */
  sender: string | null;
  changes: RefChange[];
  /** Why the delivery starts nothing even when verified (ping, closed pull request, deleted branch, …). */
  ignored: string | null;
}

/** Pull-request labels as a host sends them, in the form runs keep: trimmed, lower case, no repeats. */
export function normaliseLabels(names: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (typeof n !== 'string') continue;
    const label = n.trim().toLowerCase();
    if (label !== '' && !out.includes(label)) out.push(label);
  }
  return out.slice(0, 100);
}

/** A payload that is not what its event header announces: 400. */
export class PayloadError extends Error {
  override name = 'PayloadError';
}

/** `[skip ci]`, `[ci skip]` and `[no ci]` in a head commit message skip a push (any case). */
export function wantsSkip(message: string | null): boolean {
  return message !== null && /\[(skip ci|ci skip|no ci)\]/i.test(message);
}

export const ZERO_SHA = /^0+$/;

/** Small readers that keep parsers short and never throw on missing fields. */
export function obj(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export function urls(...values: unknown[]): string[] {
  return [...new Set(values.map(str).filter((v): v is string => v !== null))];
}

/** Cuts a commit message or title to what a run list needs. */
export function clip(text: string | null, max = 4096): string | null {
  return text === null ? null : text.length > max ? text.slice(0, max) : text;
}
