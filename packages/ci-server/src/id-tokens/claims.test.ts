// The sub grammar and context claims of job OIDC tokens: gocdnext's forms, a pull request never carrying a
// ref, and `:`/`%` escaped inside segments.
import { describe, expect, it } from 'vitest';
import { contextClaims, subjectOf, type TokenFacts } from './claims.js';

const facts = (over: Partial<TokenFacts> = {}): TokenFacts => ({
  projectSlug: 'shop',
  projectId: 'p1',
  pipelineName: 'deploy',
  pipelineId: 'pl1',
  jobName: 'ship',
  runId: 'r1',
  runCounter: 7,
  cause: 'webhook',
  event: 'push',
  hasGit: true,
  ref: 'main',
  sha: 'a'.repeat(40),
  matrix: {},
  ...over,
});

describe('id_tokens claims', () => {
  it("writes gocdnext's sub for branch, tag, pull request and ref-less runs", () => {
    expect(subjectOf(facts())).toBe('project:shop:pipeline:deploy:ref_type:branch:ref:main');
    expect(subjectOf(facts({ event: null, cause: 'manual' }))).toBe(
      'project:shop:pipeline:deploy:ref_type:branch:ref:main',
    );
    expect(subjectOf(facts({ event: 'tag', ref: 'v1.2.0' }))).toBe(
      'project:shop:pipeline:deploy:ref_type:tag:ref:v1.2.0',
    );
    // A pull request from a branch called main must not read as main.
    expect(subjectOf(facts({ event: 'pull_request', ref: 'main' }))).toBe(
      'project:shop:pipeline:deploy:pull_request',
    );
    expect(subjectOf(facts({ hasGit: false, ref: '', sha: '' }))).toBe(
      'project:shop:pipeline:deploy:ref_type:none:ref:none',
    );
  });

  it('escapes the separator and the escape inside segments', () => {
    expect(subjectOf(facts({ pipelineName: 'a:b%c', ref: 'x:y' }))).toBe(
      'project:shop:pipeline:a%3Ab%25c:ref_type:branch:ref:x%3Ay',
    );
  });

  it('carries string claims; ref only for branches and tags, the matrix cell sorted', () => {
    expect(contextClaims(facts({ matrix: { OS: 'linux', ARCH: 'arm64' } }))).toEqual({
      project_slug: 'shop',
      project_id: 'p1',
      pipeline: 'deploy',
      pipeline_id: 'pl1',
      job: 'ship',
      run_id: 'r1',
      run_counter: '7',
      cause: 'webhook',
      ref_type: 'branch',
      ref: 'main',
      sha: 'a'.repeat(40),
      matrix_key: 'ARCH=arm64,OS=linux',
    });
    const pr = contextClaims(facts({ event: 'pull_request', ref: 'refs/pull/3/head' }));
    expect(pr.ref_type).toBe('pull_request');
    expect(pr).not.toHaveProperty('ref');
    expect(contextClaims(facts({ hasGit: false, ref: '', sha: '' }))).not.toHaveProperty('sha');
  });
});
