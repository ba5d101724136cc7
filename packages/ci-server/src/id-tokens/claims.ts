// What a job's OIDC token says (docs/ci-gocdnext.md, "id_tokens"; gocdnext's concepts/id-tokens): the `sub`
// a cloud's trust policy pins, and the claims beside it. Pure: dispatch passes the run's facts.
//
// `sub` follows gocdnext's grammar so that policies written for it keep working:
//   branch run:  project:{slug}:pipeline:{name}:ref_type:branch:ref:{branch}
//   tag run:     project:{slug}:pipeline:{name}:ref_type:tag:ref:{tag}
//   PR run:      project:{slug}:pipeline:{name}:pull_request
//   no git:      project:{slug}:pipeline:{name}:ref_type:none:ref:none
// A pull request's sub carries no ref at all: its head branch name is chosen by whoever opened it, so a PR
// from a branch called `main` must never match a `ref:main` policy.

export interface TokenFacts {
  projectSlug: string;
  projectId: string;
  pipelineName: string;
  pipelineId: string;
  jobName: string;
  runId: string;
  runCounter: number;
  /** The run's cause (manual, webhook, poll, cron, upstream, rerun, run_all). */
  cause: string;
  /** The trigger event recorded on the run: push, pull_request, tag, … (null: from the cause). */
  event: string | null;
  /** The pipeline has a git material; false: the run has no ref. */
  hasGit: boolean;
  /** The branch, or the tag name of a tag run. */
  ref: string;
  sha: string;
  matrix: Record<string, string>;
}

/** `:` separates the sub's segments and `%` escapes: both are percent-encoded inside a segment. */
export function subSegment(s: string): string {
  return s.replace(/%/g, '%25').replace(/:/g, '%3A');
}

export type RefType = 'branch' | 'tag' | 'pull_request' | 'none';

export function refTypeOf(f: TokenFacts): RefType {
  if (f.event === 'pull_request') return 'pull_request';
  if (!f.hasGit || f.ref === '') return 'none';
  return f.event === 'tag' ? 'tag' : 'branch';
}

export function subjectOf(f: TokenFacts): string {
  const head = `project:${subSegment(f.projectSlug)}:pipeline:${subSegment(f.pipelineName)}`;
  const type = refTypeOf(f);
  if (type === 'pull_request') return `${head}:pull_request`;
  if (type === 'none') return `${head}:ref_type:none:ref:none`;
  return `${head}:ref_type:${type}:ref:${subSegment(f.ref)}`;
}

/** The claims besides iss/sub/aud/iat/nbf/exp/jti; all strings, as gocdnext writes them. */
export function contextClaims(f: TokenFacts): Record<string, string> {
  const type = refTypeOf(f);
  const out: Record<string, string> = {
    project_slug: f.projectSlug,
    project_id: f.projectId,
    pipeline: f.pipelineName,
    pipeline_id: f.pipelineId,
    job: f.jobName,
    run_id: f.runId,
    run_counter: String(f.runCounter),
    cause: f.cause,
    ref_type: type,
  };
  if (type === 'branch' || type === 'tag') out.ref = f.ref;
  if (f.hasGit && f.sha !== '') out.sha = f.sha;
  const dims = Object.keys(f.matrix).sort();
  if (dims.length > 0) out.matrix_key = dims.map((k) => `${k}=${f.matrix[k]}`).join(',');
  return out;
}
