// gocdnext's matrix output selector: `${{ needs.J.matrix[SEL].outputs.A }}` picks one cell of a matrix job,
// checked at apply (each refusal names the reference and what it could have named); dispatch/gocdnext-env.test.ts resolves it.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { describe, expect, it } from 'vitest';
import { assembleBundle, formatBundleError } from './bundle-parse.js';
import { outputRefs, selectCell } from './output-refs.js';

const errors = (text: string) => {
  const r = assembleBundle({ slug: 's', name: 's' }, [{ name: 'ci.yaml', text }]);
  return r.ok ? '' : r.errors.map(formatBundleError).join('\n');
};

describe('matrix output selectors', () => {
  it('reads the three forms and the bare one', () => {
    expect(
      outputRefs('${{ needs.bump.matrix[apac].outputs.next }}-${{ needs.b.outputs.v }}').map((r) => [
        r.job,
        r.selector,
        r.alias,
      ]),
    ).toEqual([
      ['bump', 'apac', 'next'],
      ['b', null, 'v'],
    ]);
    const one = { shard: ['apac', 'emea'] };
    const two = { os: ['linux', 'darwin'], arch: ['amd64', 'arm64'] };
    expect(selectCell('apac', one)).toEqual({ key: 'shard=apac' });
    expect(selectCell('shard=emea', one)).toEqual({ key: 'shard=emea' });
    expect(selectCell('os=linux,arch=arm64', two)).toEqual({ key: 'arch=arm64,os=linux' });
    expect(selectCell('arch=arm64, os=linux', two)).toEqual({ key: 'arch=arm64,os=linux' });
    expect(selectCell('linux', two)).toEqual({ error: expect.stringMatching(/use the explicit form/) });
    expect(selectCell('cpu=x', two)).toEqual({
      error: expect.stringMatching(/"cpu" is not a dimension of the matrix \(os, arch\)/),
    });
    expect(selectCell('os=linux', two)).toEqual({ error: expect.stringMatching(/missing arch/) });
    expect(selectCell('us', one)).toEqual({
      error: expect.stringMatching(/shard has no value "us" \(apac, emea\)/),
    });
  });

  it('is checked at apply: a bare reference to a matrix job, a selector on a plain job, a cell that does not exist', () => {
    const all = errors(`stages: [a, b]
jobs:
  bump:
    stage: a
    parallel: {matrix: [{shard: [apac, emea]}]}
    outputs: {next: NEXT}
    script: [x]
  plain:
    stage: a
    outputs: {v: V}
    script: [x]
  ok:
    stage: b
    variables: {T: "\${{ needs.bump.matrix[apac].outputs.next }}", U: "\${{ needs.bump.matrix[shard=emea].outputs.next }}"}
    script: [x]
  bare:
    stage: b
    variables: {T: "\${{ needs.bump.outputs.next }}"}
    script: [x]
  sel:
    stage: b
    variables: {T: "\${{ needs.plain.matrix[x].outputs.v }}"}
    script: [x]
  missing:
    stage: b
    variables: {T: "\${{ needs.bump.matrix[us].outputs.next }}"}
    script: [x]`);
    expect(all).not.toMatch(/jobs\.ok/);
    expect(all).toMatch(/jobs\.bare\.variables\.T: .*"bump" has a matrix, so one cell must be picked/);
    expect(all).toMatch(
      /jobs\.sel\.variables\.T: .*"plain" has no matrix: drop the matrix\[\.\.\.\] selector/,
    );
    expect(all).toMatch(/jobs\.missing\.variables\.T: .*shard has no value "us" \(apac, emea\)/);
  });
});
