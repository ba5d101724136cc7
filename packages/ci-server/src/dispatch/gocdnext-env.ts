// gocdnext's built-in job variables (its YAML reference, "CI built-ins"), set for every job beside the
// spec's own CI_* ones, so that scripts and plugin settings written for gocdnext find them (pure).
// docs/ci-gocdnext.md lists which are set and which are not.

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
