// gocdnext's built-in job variables (its YAML reference, "CI built-ins"), set for every job beside the
// spec's own CI_* ones, so that scripts and plugin settings written for gocdnext find them (pure).
// docs/ci-gocdnext.md lists which are set and which are not.
import type { JobSpec } from '../domain/index.js';

export interface GocdnextFacts {
  projectId: string;
  branch: string;
  sha: string;
  matrix: Record<string, string>;
}

export function gocdnextBuiltins(f: GocdnextFacts): Record<string, string> {
  const out: Record<string, string> = {
    GOCDNEXT: 'true',
    CI_PROJECT_ID: f.projectId,
    CI_BRANCH: f.branch,
    // Empty until the checkout resolves the commit; the agent fills it in then (like CI_COMMIT_SHA).
    CI_COMMIT_SHORT_SHA: f.sha.slice(0, 8),
  };
  const cell = Object.keys(f.matrix).sort();
  if (cell.length > 0) out.GOCDNEXT_MATRIX = cell.map((k) => `${k}=${f.matrix[k]}`).join(',');
  return out;
}

/**
 * gocdnext keys accepted at apply whose execution needs agent support this build does not have yet: the job
 * fails at dispatch with a message naming the key, instead of running without it. Each line is removed
 * when its part lands (needs_artifacts and outputs: the agent's
 * download call and output file, see docs/ci-gocdnext.md).
 */
export function unsupportedAtDispatch(job: JobSpec, jobName: string): string | null {
  if (job.needs_artifacts && job.needs_artifacts.length > 0)
    return `job "${jobName}" has needs_artifacts: downloading artifacts of earlier jobs is not delivered to agents in this build`;
  const refs = Object.values(job.variables).some((v) => /\$\{\{\s*needs\./.test(v));
  if (refs)
    return `job "${jobName}" reads \${{ needs.<job>.outputs.<alias> }}: job outputs are not passed between jobs in this build`;
  return null;
}
