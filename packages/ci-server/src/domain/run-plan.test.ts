// Planning runs: trigger (cause manual), parameter merging, run rerun.
import { describe, expect, it } from 'vitest';
import { parsePipelineDocument } from './bundle-parse.js';
import { manualTrigger, mergeParameters, planRun, rerunRun } from './run-plan.js';
import { SPEC_PIPELINE_EXAMPLE } from './spec-example.fixture.js';

describe('planRun', () => {
  it('lays out the spec example: stages in order, matrix runs, a gate', () => {
    const parsed = parsePipelineDocument(SPEC_PIPELINE_EXAMPLE);
    if (!parsed.ok) throw new Error('parse failed');
    let n = 0;
    const run = planRun(parsed.pipeline.document, () => `id${++n}`);
    expect(run.status).toBe('queued');
    expect(run.stages.map((s) => [s.name, s.status, s.jobs.length])).toEqual([
      ['build', 'created', 2],
      ['test', 'created', 0],
      ['deploy', 'created', 1],
    ]);
    expect(run.stages[0].jobs).toEqual([
      {
        id: 'id1',
        name: 'compile',
        matrix: { NODE: '20' },
        status: 'created',
        needs: [],
        attempt: 1,
        isGate: false,
        retryLeft: 1,
        retry: 1,
      },
      {
        id: 'id2',
        name: 'compile',
        matrix: { NODE: '22' },
        status: 'created',
        needs: [],
        attempt: 1,
        isGate: false,
        retryLeft: 1,
        retry: 1,
      },
    ]);
    expect(run.stages[2].jobs[0]).toMatchObject({
      name: 'release-gate',
      isGate: true,
      requiredApprovals: 1,
      approvedBy: [],
      matrix: {},
    });
  });
});

describe('mergeParameters', () => {
  it.each([
    [{ TARGET: 'staging' }, undefined, { TARGET: 'staging' }],
    [{ TARGET: 'staging' }, { TARGET: 'prod' }, { TARGET: 'prod' }],
    [{ TARGET: 'staging' }, { EXTRA: '1' }, { TARGET: 'staging', EXTRA: '1' }],
    [{}, null, {}],
  ])('%j + %j → %j', (defaults, overrides, expected) => {
    expect(mergeParameters(defaults, overrides)).toEqual(expected);
  });
});

describe('rerunRun (POST /runs/{id}/rerun)', () => {
  it('copies revision and parameters, cause rerun, pointing at the origin', () => {
    const origin = {
      id: 'r1',
      pipelineId: 'p1',
      gitRef: 'main',
      revision: 'abc123',
      parameters: { TARGET: 'prod' },
    };
    const next = rerunRun(origin);
    expect(next).toEqual({
      pipelineId: 'p1',
      cause: 'rerun',
      gitRef: 'main',
      revision: 'abc123',
      parameters: { TARGET: 'prod' },
      rerunOf: 'r1',
    });
    next.parameters.TARGET = 'x';
    expect(origin.parameters.TARGET).toBe('prod');
  });
});

describe('trigger (POST /pipelines/{id}/trigger)', () => {
  it.each([
    [{}, { TARGET: 'staging' }, null],
    [{ git_ref: 'v1.2.0', parameters: { TARGET: 'prod' } }, { TARGET: 'prod' }, 'v1.2.0'],
  ])('%j: cause manual, parameters merged, the run queued', (body, parameters, gitRef) => {
    const parsed = parsePipelineDocument(SPEC_PIPELINE_EXAMPLE);
    if (!parsed.ok) throw new Error('parse failed');
    expect(manualTrigger('p1', parsed.pipeline.document, body)).toEqual({
      pipelineId: 'p1',
      cause: 'manual',
      gitRef,
      revision: null,
      parameters,
      rerunOf: null,
    });
    expect(planRun(parsed.pipeline.document, () => 'x').status).toBe('queued');
  });
});
