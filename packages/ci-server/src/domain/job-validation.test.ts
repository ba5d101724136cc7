// Job validation errors, table-driven: each row is a document, the error path and message (and position).
import { describe, expect, it } from 'vitest';
import { errorsOf, pipeline } from './bundle.fixture.js';
import { parsePipelineDocument } from './bundle-parse.js';

// Validation errors of jobs: stage, needs, script/approval, durations, enums, bounds, services, matrix.
describe('job validation errors', () => {
  it.each([
    ['jobs missing', 'name: p\nstages: [s]\n', 'jobs', /missing required key "jobs"/, 1, 1],
    ['jobs empty', 'name: p\nstages: [s]\njobs: {}\n', 'jobs', /at least one job/],
    [
      'stage not declared',
      pipeline('  a: { stage: deploy, script: [x] }\n'),
      'jobs.a.stage',
      /"deploy" is not declared in stages \(build, test\)/,
      4,
      15,
    ],
    [
      'needs unknown job',
      pipeline('  a: { stage: build, script: [x], needs: [ghost] }\n'),
      'jobs.a.needs[0]',
      /unknown job "ghost"/,
      4,
      43,
    ],
    [
      'needs itself',
      pipeline('  a: { stage: build, script: [x], needs: [a] }\n'),
      'jobs.a.needs[0]',
      /cannot need itself/,
    ],
    [
      'needs a later stage',
      pipeline('  a: { stage: build, script: [x], needs: [b] }\n  b: { stage: test, script: [x] }\n'),
      'jobs.a.needs[0]',
      /later stage "test"/,
    ],
    [
      'needs cycle',
      pipeline(
        '  a: { stage: build, script: [x], needs: [c] }\n  b: { stage: build, script: [x], needs: [a] }\n  c: { stage: build, script: [x], needs: [b] }\n',
      ),
      'jobs.b.needs[0]',
      /needs form a cycle: a -> c -> b -> a/,
    ],
    [
      'approval with script',
      pipeline('  a: { stage: build, script: [x], approval: {} }\n'),
      'jobs.a.approval',
      /exclusive/,
    ],
    [
      'neither script nor approval',
      pipeline('  a: { stage: build }\n'),
      'jobs.a',
      /needs "script" .* or "approval"/,
    ],
    [
      'gate with tags',
      pipeline('  g: { stage: build, approval: {}, tags: [x] }\n'),
      'jobs.g.tags',
      /manual gate \(approval\) cannot have "tags"/,
    ],
    ['empty script', pipeline('  a: { stage: build, script: [] }\n'), 'jobs.a.script', /empty list/],
    [
      'empty script line',
      pipeline('  a: { stage: build, script: [""] }\n'),
      'jobs.a.script[0]',
      /must not be empty/,
    ],
    [
      'secret name',
      pipeline('  a: { stage: build, script: [x], secrets: [1BAD] }\n'),
      'jobs.a.secrets[0]',
      /not valid/,
    ],
    [
      'secret name length',
      pipeline(`  a: { stage: build, script: [x], secrets: [${'S'.repeat(201)}] }\n`),
      'jobs.a.secrets[0]',
      /at most 200/,
    ],
    [
      'timeout without unit',
      pipeline('  a: { stage: build, script: [x], timeout: 30 }\n'),
      'jobs.a.timeout',
      /"30" is not a duration/,
    ],
    [
      'timeout bad unit',
      pipeline('  a: { stage: build, script: [x], timeout: 3x }\n'),
      'jobs.a.timeout',
      /not a duration/,
    ],
    [
      'timeout zero',
      pipeline('  a: { stage: build, script: [x], timeout: 0s }\n'),
      'jobs.a.timeout',
      /too short; the minimum is 1s/,
    ],
    [
      'expire_in',
      pipeline('  a: { stage: build, script: [x], artifacts: { paths: [d], expire_in: soon } }\n'),
      'jobs.a.artifacts.expire_in',
      /not a duration/,
    ],
    [
      'approval timeout',
      pipeline('  g: { stage: build, approval: { timeout: 72 } }\n'),
      'jobs.g.approval.timeout',
      /not a duration/,
    ],
    [
      'artifacts.when',
      pipeline('  a: { stage: build, script: [x], artifacts: { paths: [d], when: sometimes } }\n'),
      'jobs.a.artifacts.when',
      /one of on_success, on_failure, always/,
    ],
    [
      'artifacts without paths',
      pipeline('  a: { stage: build, script: [x], artifacts: { when: always } }\n'),
      'jobs.a.artifacts.paths',
      /missing required key/,
    ],
    [
      'retry too high',
      pipeline('  a: { stage: build, script: [x], retry: 11 }\n'),
      'jobs.a.retry',
      /integer from 0 to 10/,
    ],
    [
      'retry negative',
      pipeline('  a: { stage: build, script: [x], retry: -1 }\n'),
      'jobs.a.retry',
      /integer from 0 to 10/,
    ],
    [
      'retry fraction',
      pipeline('  a: { stage: build, script: [x], retry: 1.5 }\n'),
      'jobs.a.retry',
      /integer/,
    ],
    [
      'retry as text',
      pipeline('  a: { stage: build, script: [x], retry: "1" }\n'),
      'jobs.a.retry',
      /integer/,
    ],
    [
      'approval.required zero',
      pipeline('  g: { stage: build, approval: { required: 0 } }\n'),
      'jobs.g.approval.required',
      /integer from 1/,
    ],
    [
      'unknown service',
      pipeline('  a: { stage: build, script: [x], services: [db] }\n'),
      'jobs.a.services[0]',
      /service "db" is not declared in services \(none declared\)/,
    ],
    [
      'matrix empty list',
      pipeline('  a: { stage: build, script: [x], matrix: { N: [] } }\n'),
      'jobs.a.matrix.N',
      /empty list/,
    ],
    [
      'matrix not a list',
      pipeline('  a: { stage: build, script: [x], matrix: { N: 20 } }\n'),
      'jobs.a.matrix.N',
      /list of strings/,
    ],
    [
      'matrix nested value',
      pipeline('  a: { stage: build, script: [x], matrix: { N: [{ a: 1 }] } }\n'),
      'jobs.a.matrix.N[0]',
      /must be a string/,
    ],
    [
      'matrix with no variable',
      pipeline('  a: { stage: build, script: [x], matrix: {} }\n'),
      'jobs.a.matrix',
      /at least one variable/,
    ],
    [
      'matrix duplicate values',
      pipeline('  a: { stage: build, script: [x], matrix: { N: [1, "1"] } }\n'),
      'jobs.a.matrix.N',
      /distinct/,
    ],
    [
      'matrix too big',
      pipeline(
        `  a: { stage: build, script: [x], matrix: { A: [${[...Array(20).keys()]}], B: [${[...Array(20).keys()]}] } }\n`,
      ),
      'jobs.a.matrix',
      /400 combinations; at most 256/,
    ],
    [
      'matrix variable name',
      pipeline('  a: { stage: build, script: [x], matrix: { "N-1": [1] } }\n'),
      'jobs.a.matrix.N-1',
      /not a valid matrix variable/,
    ],
    ['reserved name', pipeline('  __proto__: { stage: build, script: [x] }\n'), 'jobs.__proto__', /reserved/],
    [
      'needs not a list',
      pipeline('  a: { stage: build, script: [x], needs: a }\n'),
      'jobs.a.needs',
      /list of strings/,
    ],
    [
      'services not a list',
      pipeline('  a: { stage: build, script: [x], services: db }\n'),
      'jobs.a.services',
      /list/,
    ],
    [
      'image that podman would read as an option',
      pipeline('  a: { stage: build, script: [x], image: "--privileged" }\n'),
      'jobs.a.image',
      /not starting with "-"/,
    ],
    [
      'service image that podman would read as an option',
      pipeline(
        '  a: { stage: build, image: alpine, script: [x] }\n',
        'services:\n  - { name: db, image: "-v=/:/host" }\n',
      ),
      'services[0].image',
      /not starting with "-"/,
    ],
    [
      'a privileged container asked for',
      pipeline('  a: { stage: build, image: alpine, script: [x], privileged: true }\n'),
      'jobs.a.privileged',
      /unknown key/,
    ],
  ])('pipeline: %s', (_name, text, path, message, line?: number, column?: number) => {
    const errors = errorsOf(parsePipelineDocument(text));
    const error = errors.find((e) => e.path === path && message.test(e.message));
    expect(error, JSON.stringify(errors, null, 1)).toBeDefined();
    if (line !== undefined) expect(error).toMatchObject({ line, column });
  });

  it('reports a malformed list once', () => {
    const errors = errorsOf(
      parsePipelineDocument(pipeline('  a: { stage: build, script: [x], needs: a, services: b }\n')),
    );
    expect(errors.map((e) => e.path)).toEqual(['jobs.a.needs', 'jobs.a.services']);
  });
});
