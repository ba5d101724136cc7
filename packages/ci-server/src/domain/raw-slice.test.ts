// Raw per-pipeline slices of a bundle for GET /pipelines/{id}/yaml: comments and layout kept.
import { describe, expect, it } from 'vitest';
import { parseBundle, parsePipelineDocument } from './bundle-parse.js';
import { SPEC_BUNDLE_EXAMPLE, SPEC_PIPELINE_EXAMPLE } from './spec-example.fixture.js';

function slices(text: string): { text: string; reconstructed: boolean }[] {
  const result = parseBundle(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.bundle.pipelines.map((p) => ({ text: p.rawYaml, reconstructed: p.rawReconstructed }));
}

const BUNDLE = `# Shop's CI
project:
  slug: shop
  name: Shop
pipelines:
  # The build pipeline
  - name: build   # builds it
    stages: [b]
    jobs:
      make:
        stage: b
        script: |
          make all
            indented more
    # trailing comment of build

  # Leading comment of deploy
  -
    name: deploy
    stages: [d]   # one stage
    jobs: {ship: {stage: d, script: [ship]}}
# a comment after everything
`;

describe('raw slices of the JSON variant', () => {
  it.each([
    [
      0,
      `# The build pipeline
name: build   # builds it
stages: [b]
jobs:
  make:
    stage: b
    script: |
      make all
        indented more
# trailing comment of build
`,
    ],
    [
      1,
      `# Leading comment of deploy
name: deploy
stages: [d]   # one stage
jobs: {ship: {stage: d, script: [ship]}}
`,
    ],
  ])('pipeline %i keeps its comments and layout, dedented', (index, expected) => {
    const slice = slices(BUNDLE)[index];
    expect(slice).toEqual({ text: expected, reconstructed: false });
  });

  it('each slice is a pipeline document that parses to the same document', () => {
    const result = parseBundle(BUNDLE);
    if (!result.ok) throw new Error('parse failed');
    for (const p of result.bundle.pipelines) {
      const again = parsePipelineDocument(p.rawYaml);
      expect(again.ok && again.pipeline.document).toEqual(p.document);
    }
  });

  it('gives back the spec example verbatim from inside a bundle', () => {
    expect(slices(SPEC_BUNDLE_EXAMPLE)[1]).toEqual({ text: SPEC_PIPELINE_EXAMPLE, reconstructed: false });
  });

  it('handles a flow-style list', () => {
    const text =
      'project: {slug: s, name: n}\npipelines: [{name: a, stages: [s], jobs: {j: {stage: s, script: [x]}}}, {name: b, stages: [s], jobs: {j: {stage: s, script: [y]}}}]\n';
    expect(slices(text).map((s) => s.text)).toEqual([
      '{name: a, stages: [s], jobs: {j: {stage: s, script: [x]}}}',
      '{name: b, stages: [s], jobs: {j: {stage: s, script: [y]}}}',
    ]);
  });

  it('handles CRLF line ends', () => {
    const text =
      'project: {slug: s, name: n}\r\npipelines:\r\n  - name: a # c\r\n    stages: [s]\r\n    jobs: {j: {stage: s, script: [x]}}\r\n';
    expect(slices(text)[0]).toEqual({
      text: 'name: a # c\nstages: [s]\njobs: {j: {stage: s, script: [x]}}\n',
      reconstructed: false,
    });
  });

  it('keeps anchors defined inside the slice', () => {
    const text =
      'project: {slug: s, name: n}\npipelines:\n  - name: a\n    stages: [s]\n    jobs:\n      j: &job {stage: s, script: [x]}\n      k: *job\n';
    expect(slices(text)[0]).toEqual({
      text: 'name: a\nstages: [s]\njobs:\n  j: &job {stage: s, script: [x]}\n  k: *job\n',
      reconstructed: false,
    });
  });

  it('re-serialises (and says so) when the slice uses an anchor defined outside it', () => {
    const text =
      'x-job: &job {stage: s, script: [x]}\nproject: {slug: s, name: n}\npipelines:\n  - name: a\n    stages: [s]\n    jobs: {j: *job}\n';
    const result = parseBundle(text);
    expect(result.ok).toBe(false); // x-job is an unknown top-level key...
    const ok = parseBundle(
      'project: {slug: s, name: n}\npipelines:\n  - name: a\n    stages: &st [s]\n    jobs: {j: {stage: s, script: [x]}}\n  - name: b\n    stages: *st\n    jobs: {j: {stage: s, script: [x]}}\n',
    );
    if (!ok.ok) throw new Error(JSON.stringify(ok.errors));
    const [a, b] = ok.bundle.pipelines;
    expect(a.rawReconstructed).toBe(false);
    expect(b.rawReconstructed).toBe(true);
    const again = parsePipelineDocument(b.rawYaml);
    expect(again.ok && again.pipeline.document).toEqual(b.document);
  });
});

describe('alias bombs', () => {
  it('are refused, not expanded', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(10)
          .fill(`*${'abcdefghij'[i - 1]}`)
          .join(', ')}]`,
      );
    const text = `project: {slug: s, name: n}\npipelines:\n  - name: p\n    stages: [s]\n    variables:\n${lines.map((l) => `      ${l}`).join('\n')}\n    jobs: {j: {stage: s, script: [x]}}\n`;
    const result = parseBundle(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0].message).toMatch(/alias/i);
  });
});
