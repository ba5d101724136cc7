/**
 * gocdnext's `when` (pipeline and job): whether a run's trigger event, branch and changed files pass it
 * (pure). Empty lists pass anything. An unknown changed-file set passes `paths` (gocdnext's "fail open":
 * a missing run on a real change is worse than an extra run); events without files (tag, manual, cron,
 * upstream) always pass `paths`.
 */
import type { WhenSpec } from './bundle-types.js';
import type { RunCause } from './run-types.js';

export type TriggerEvent = 'push' | 'pull_request' | 'tag' | 'manual' | 'cron' | 'upstream';

export interface TriggerFacts {
  event: TriggerEvent;
  /** The branch of the run; null for a tag or when unknown (passes `branch`: nothing to compare). */
  branch: string | null;
  /** Repository-relative paths the trigger changed; null when unknown. */
  files: string[] | null;
  /** A pull request's run only (its rerun too): its labels, lower case; `approval.quorum_by_label` reads them (gate-quorum.ts). */
  labels?: string[];
}

/** The event a run cause stands for when the trigger did not say (webhooks say push, pull_request or tag). */
export function causeEvent(cause: RunCause): TriggerEvent {
  switch (cause) {
    case 'cron':
      return 'cron';
    case 'upstream':
      return 'upstream';
    case 'webhook':
    case 'poll':
      return 'push';
    default:
      return 'manual';
  }
}

/** A glob as a regular expression: `**` crosses directories, `*` and `?` do not, the rest is literal. */
export function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` also matches nothing at all (`**/*.go` matches `main.go`).
      if (glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Why the facts do not pass `when` (a sentence for the trigger's notes), or null when they pass. */
export function whenRefusal(when: WhenSpec | undefined, facts: TriggerFacts): string | null {
  if (!when) return null;
  if (when.event.length > 0 && !when.event.includes(facts.event))
    return `when.event is [${when.event.join(', ')}], this is a ${facts.event} trigger`;
  if (
    when.branch.length > 0 &&
    facts.branch !== null &&
    !when.branch.some((b) => globRegExp(b).test(facts.branch!))
  )
    return `when.branch is [${when.branch.join(', ')}], this run is on ${facts.branch}`;
  const hasFiles = facts.event === 'push' || facts.event === 'pull_request';
  if (when.paths.length > 0 && hasFiles && facts.files !== null) {
    const globs = when.paths.map(globRegExp);
    if (!facts.files.some((f) => globs.some((g) => g.test(f))))
      return `no changed file matches when.paths [${when.paths.join(', ')}]`;
  }
  return null;
}
