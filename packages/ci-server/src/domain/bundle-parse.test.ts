// Bundle parser: the spec example, defaults, unknown keys (path, line, column), multipart assembly.
import { describe, expect, it } from 'vitest';
import { bundleOf, errorsOf, long, pipeline } from './bundle.fixture.js';
import { assembleBundle, formatBundleError, parseBundle, parsePipelineDocument } from './bundle-parse.js';
import type { PipelineDocument as Doc, GitMaterial } from './bundle-types.js';
import { SPEC_BUNDLE_EXAMPLE, SPEC_PIPELINE_EXAMPLE } from './spec-example.fixture.js';

describe('the spec example', () => {
  it('parses cleanly as a pipeline document, defaults filled and durations in ms', () => {
    const result = parsePipelineDocument(SPEC_PIPELINE_EXAMPLE);
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    const doc = result.pipeline.document;
    expect(doc.name).toBe('build-and-test');
    expect(doc.stages).toEqual(['build', 'test', 'deploy']);
    expect(doc.materials).toEqual([
      {
        git: {
          url: 'https://git.example.com/org/shop.git',
          branch: 'main',
          on: ['push', 'pull_request', 'tag'],
          poll_interval: 300_000,
        },
      },
      { upstream: { pipeline: 'build-core', stage: 'test', status: 'success' } },
      { cron: { expression: '0 3 * * *' } },
    ]);
    expect(doc.services).toEqual([
      { name: 'cache', command: ['redis-server', '--port', '6399'], ready: { tcp: 6399, timeout: 30_000 } },
    ]);
    expect(doc.jobs.compile).toEqual({
      stage: 'build',
      script: ['npm ci', 'npm run build'],
      needs: [],
      variables: { KEY: 'value' },
      secrets: ['NPM_TOKEN'],
      services: ['cache'],
      artifacts: { paths: ['dist/'], when: 'on_success', expire_in: 604_800_000 },
      cache: [{ key: 'npm-{{ hash "package-lock.json" }}', paths: ['node_modules/'] }],
      test_reports: ['reports/*.xml'],
      matrix: { NODE: ['20', '22'] },
      timeout: 1_800_000,
      retry: 1,
      tags: ['linux'],
    });
    expect(doc.jobs['release-gate']).toMatchObject({
      stage: 'deploy',
      approval: { description: 'Ship to production?', required: 1, timeout: 259_200_000 },
    });
    expect(doc.jobs['release-gate'].script).toBeUndefined();
    expect(result.pipeline.rawYaml).toBe(SPEC_PIPELINE_EXAMPLE);
    expect(result.externalUpstreams).toEqual([
      { pipeline: 'build-and-test', upstream: 'build-core', path: 'materials[1].upstream.pipeline' },
    ]);
  });

  it('parses cleanly as a bundle, the upstream resolved inside it', () => {
    const result = parseBundle(SPEC_BUNDLE_EXAMPLE);
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    expect(result.bundle.project).toEqual({ slug: 'shop', name: 'Shop', description: 'optional' });
    expect(result.bundle.pipelines.map((p) => p.document.name)).toEqual(['build-core', 'build-and-test']);
    expect(result.bundle.externalUpstreams).toEqual([]);
    expect(result.bundle.secretReferences).toEqual(['NPM_TOKEN']);
    expect(result.bundle.pipelines[1].document).toEqual(
      (parsePipelineDocument(SPEC_PIPELINE_EXAMPLE) as { ok: true; pipeline: { document: unknown } }).pipeline
        .document,
    );
  });

  it('gives the same digest for the same text and another one after a change', () => {
    const a = parseBundle(SPEC_BUNDLE_EXAMPLE);
    const b = parseBundle(SPEC_BUNDLE_EXAMPLE);
    const c = parseBundle(SPEC_BUNDLE_EXAMPLE.replace('retry: 1', 'retry: 2'));
    if (!a.ok || !b.ok || !c.ok) throw new Error('parse failed');
    expect(a.bundle.pipelines.map((p) => p.digest)).toEqual(b.bundle.pipelines.map((p) => p.digest));
    expect(c.bundle.pipelines[0].digest).toBe(a.bundle.pipelines[0].digest);
    expect(c.bundle.pipelines[1].digest).not.toBe(a.bundle.pipelines[1].digest);
  });
});

const git = (d: Doc) => (d.materials[0] as { git: GitMaterial }).git;

describe('defaults and normalisation', () => {
  it.each([
    [
      'git on defaults to [push], branch to main',
      'materials:\n  - git: { url: "https://h/o/r" }\n',
      (d: Doc) => git(d),
      { url: 'https://h/o/r', branch: 'main', on: ['push'] },
    ],
    [
      'on accepts one event, dedupes',
      'materials:\n  - git: { url: u, branch: refs/heads/dev, on: [tag, push, tag] }\n',
      (d: Doc) => git(d),
      { url: 'u', branch: 'dev', on: ['push', 'tag'] },
    ],
    [
      'on: [] means webhooks never trigger',
      'materials:\n  - git: { url: u, on: [] }\n',
      (d: Doc) => git(d).on,
      [],
    ],
    [
      'upstream status defaults to success',
      'materials:\n  - upstream: { pipeline: other, stage: s }\n',
      (d: Doc) => (d.materials[0] as { upstream: { status: string } }).upstream.status,
      'success',
    ],
    [
      'scalars stringified as written',
      'variables: { A: 1.10, B: true, C: 0x1F, D: "" }\n',
      (d: Doc) => d.variables,
      { A: '1.10', B: 'true', C: '0x1F', D: '' },
    ],
    ['parameters', 'parameters: { TARGET: staging }\n', (d: Doc) => d.parameters, { TARGET: 'staging' }],
  ])('%s', (_name, extra, pick, expected) => {
    const result = parsePipelineDocument(pipeline('', extra));
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    expect(pick(result.pipeline.document)).toEqual(expected);
  });

  it.each([
    ['script as one line', '  a: { stage: build, script: make all }\n', { script: ['make all'] }],
    [
      'matrix numbers stringified',
      '  a: { stage: build, script: [x], matrix: { N: [20, 22.0] } }\n',
      { matrix: { N: ['20', '22.0'] } },
    ],
    [
      'artifacts.when defaults to on_success',
      '  a: { stage: build, script: [x], artifacts: { paths: [d/] } }\n',
      { artifacts: { paths: ['d/'], when: 'on_success' } },
    ],
    [
      'gate required defaults to 1',
      '  g: { stage: build, approval: {} }\n',
      { approval: { required: 1 }, retry: 0, needs: [] },
    ],
    [
      'gate approvers, roles, self-approval and a gocdnext timeout',
      '  g: { stage: build, approval: { approvers: [alice, bob@example.com, alice], approver_groups: admin, allow_self_approval: true, timeout: 168h } }\n',
      {
        approval: {
          required: 1,
          timeout: 604_800_000,
          approvers: ['alice', 'bob@example.com'],
          approver_groups: ['admin'],
          allow_self_approval: true,
        },
      },
    ],
    [
      'gate timeout never: no timeout; allow_self_approval false is the default',
      '  g: { stage: build, approval: { timeout: never, allow_self_approval: false } }\n',
      { approval: { required: 1 } },
    ],
    [
      'duplicate needs collapse',
      '  a: { stage: build, script: [x] }\n  b: { stage: build, script: [x], needs: [a, a] }\n',
      { needs: ['a'] },
    ],
  ])('job: %s', (_name, jobs, expected) => {
    const result = parsePipelineDocument(pipeline(jobs));
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    const job = Object.values(result.pipeline.document.jobs).at(-1);
    expect(job).toMatchObject(expected);
  });

  it('a gate with `timeout: never` waits until answered (no timeout stored)', () => {
    const result = parsePipelineDocument(pipeline('  g: { stage: build, approval: { timeout: never } }\n'));
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    expect(result.pipeline.document.jobs.g.approval).toEqual({ required: 1 });
  });

  it('allows needs on an earlier stage and a stage without jobs', () => {
    const result = parsePipelineDocument(
      'name: p\nstages: [build, empty, test]\njobs:\n  a: { stage: build, script: [x] }\n  t: { stage: test, script: [x], needs: [a] }\n',
    );
    expect(result.ok).toBe(true);
  });
});

describe('unknown keys: named, with path, line and column', () => {
  it.each([
    ['top level', 'projct: {slug: s, name: n}\npipelines: []\n', 'projct', 1, 1],
    ['project', 'project: {slug: s, name: n, slgu: x}\npipelines: []\n', 'project.slgu', 1, 29],
    [
      'job (the spec example)',
      bundleOf(
        '  - name: build\n    stages: [build]\n    jobs:\n      compile:\n        stage: build\n        scirpt: [make]\n',
      ),
      'pipelines[0].jobs.compile.scirpt',
      8,
      9,
    ],
    [
      'pipeline',
      bundleOf(
        '  - name: a\n    stages: [s]\n    jobs: {j: {stage: s, script: [x]}}\n  - name: b\n    stagse: [s]\n',
      ),
      'pipelines[1].stagse',
      7,
      5,
    ],
    [
      'git material',
      bundleOf(
        '  - name: a\n    materials:\n      - git:\n          url: u\n          branchh: main\n    stages: [s]\n    jobs: {j: {stage: s, script: [x]}}\n',
      ),
      'pipelines[0].materials[0].git.branchh',
      7,
      11,
    ],
    [
      'artifacts',
      bundleOf(
        '  - name: a\n    stages: [s]\n    jobs:\n      j:\n        stage: s\n        script: [x]\n        artifacts:\n          paths: [d]\n          whenn: always\n',
      ),
      'pipelines[0].jobs.j.artifacts.whenn',
      11,
      11,
    ],
    [
      'service readiness',
      bundleOf(
        '  - name: a\n    stages: [s]\n    services:\n      - name: db\n        command: [db]\n        ready: { tcpp: 5432 }\n    jobs: {j: {stage: s, script: [x]}}\n',
      ),
      'pipelines[0].services[0].ready.tcpp',
      8,
      18,
    ],
    [
      'cache entry',
      bundleOf(
        '  - name: a\n    stages: [s]\n    jobs:\n      j:\n        stage: s\n        script: [x]\n        cache:\n          - keys: k\n            paths: [p]\n',
      ),
      'pipelines[0].jobs.j.cache[0].keys',
      10,
      13,
    ],
    [
      'approval',
      bundleOf(
        '  - name: a\n    stages: [s]\n    jobs:\n      g:\n        stage: s\n        approval: { requird: 2 }\n',
      ),
      'pipelines[0].jobs.g.approval.requird',
      8,
      21,
    ],
    [
      'odd job name quoted in the path',
      bundleOf(
        '  - name: a\n    stages: [s]\n    jobs:\n      "my job":\n        stage: s\n        script: [x]\n        tag: [x]\n',
      ),
      'pipelines[0].jobs["my job"].tag',
      9,
      9,
    ],
  ])('%s', (_name, text, path, line, column) => {
    const errors = errorsOf(parseBundle(text));
    const key = path.split(/[.[]/).at(-1)!.replace(/["\]]/g, '');
    const error = errors.find((e) => e.path === path);
    expect(error, JSON.stringify(errors)).toBeDefined();
    expect(error).toMatchObject({ line, column });
    expect(error!.message).toContain(`unknown key "${key}"`);
  });

  it('suggests the closest key and lists the allowed ones', () => {
    const errors = errorsOf(parsePipelineDocument(pipeline('  a: { stage: build, scirpt: [x] }\n')));
    const error = errors.find((e) => e.path === 'jobs.a.scirpt')!;
    expect(error.message).toMatch(/did you mean "script"\?/);
    expect(error.message).toMatch(/allowed keys here: stage, script, needs/);
    expect(formatBundleError(error)).toBe(`jobs.a.scirpt: ${error.message} (line 4, column 22)`);
  });
});

describe('error reports', () => {
  it('does not error on an upstream pipeline outside the bundle, but records it', () => {
    const result = parseBundle(
      bundleOf(
        '  - {name: b, materials: [{upstream: {pipeline: elsewhere, stage: s}}], stages: [s], jobs: {j: {stage: s, script: [x]}}}\n',
      ),
    );
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    expect(result.bundle.externalUpstreams).toEqual([
      { pipeline: 'b', upstream: 'elsewhere', path: 'pipelines[0].materials[0].upstream.pipeline' },
    ]);
  });

  it('reports every problem at once, in line order', () => {
    const errors = errorsOf(
      parsePipelineDocument(
        pipeline('  a: { stage: nope, script: [x], retry: 99 }\n  b: { stage: build, scirpt: [x] }\n'),
      ),
    );
    expect(errors.map((e) => e.path)).toEqual(['jobs.a.stage', 'jobs.a.retry', 'jobs.b', 'jobs.b.scirpt']);
    expect(errors.map((e) => e.line)).toEqual([4, 4, 5, 5]);
  });

  it('caps the report at 100 errors', () => {
    const jobs = Array.from({ length: 150 }, (_, i) => `  j${i}: { stage: nope, script: [x] }\n`).join('');
    expect(errorsOf(parsePipelineDocument(pipeline(jobs)))).toHaveLength(100);
  });
});

describe('assembleBundle (multipart)', () => {
  const fileA = 'name: a\nstages: [s]\njobs: {j: {stage: s, script: [x], secrets: [TOKEN]}}\n';
  const fileB =
    '# b depends on a\nname: b\nmaterials: [{upstream: {pipeline: a, stage: s}}]\nstages: [s]\njobs: {j: {stage: s, script: [x]}}\n';

  it('gives the same shape as the JSON variant, rawYaml being each file', () => {
    const result = assembleBundle({ slug: 'shop', name: 'Shop' }, [fileA, { name: 'b.yaml', text: fileB }]);
    if (!result.ok) throw new Error(result.errors.map(formatBundleError).join('\n'));
    expect(result.bundle.project).toEqual({ slug: 'shop', name: 'Shop', description: null });
    expect(result.bundle.pipelines.map((p) => p.rawYaml)).toEqual([fileA, fileB]);
    expect(result.bundle.externalUpstreams).toEqual([]);
    expect(result.bundle.secretReferences).toEqual(['TOKEN']);
    const json = parseBundle(
      bundleOf(`  - name: a\n    stages: [s]\n    jobs: {j: {stage: s, script: [x], secrets: [TOKEN]}}\n`),
    );
    if (!json.ok) throw new Error('json variant failed');
    expect(json.bundle.pipelines[0].document).toEqual(result.bundle.pipelines[0].document);
  });

  it.each([
    ['bad slug', { slug: 'No Way', name: 'n' }, [fileA], { path: 'slug', line: null, column: null }],
    ['missing name', { slug: 's', name: ' ' }, [fileA], { path: 'name', message: 'the name is required' }],
    ['long name', { slug: 's', name: long }, [fileA], { path: 'name' }],
    [
      'error in a named file',
      { slug: 's', name: 'n' },
      [fileA, { name: 'b.yaml', text: 'name: b\nstages: [s]\njobs: {j: {stage: s, scirpt: [x]}}\n' }],
      { path: 'jobs.j.scirpt', file: 'b.yaml', line: 3, column: 22 },
    ],
    [
      'error in an unnamed file',
      { slug: 's', name: 'n' },
      [fileA, 'name: b\nstages: []\njobs: {j: {stage: s, script: [x]}}\n'],
      { path: 'stages', file: 'files[1]' },
    ],
    [
      'same name in two files',
      { slug: 's', name: 'n' },
      [fileA, fileA],
      { path: 'name', file: 'files[1]', message: 'pipeline name "a" is already used by files[0]' },
    ],
  ])('%s', (_name, project, files, expected) => {
    const errors = errorsOf(assembleBundle(project, files));
    expect(errors).toContainEqual(expect.objectContaining(expected));
  });
});
