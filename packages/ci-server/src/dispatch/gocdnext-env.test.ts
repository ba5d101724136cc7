// Output references resolved at dispatch: a matrix job's cell picked by `${{ needs.J.matrix[SEL].outputs.A }}`
// reads that cell's outputs; a cell that returned none fails the dispatch, naming it.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${{ … }}` references are the subject here.
import { describe, expect, it } from 'vitest';
import { outputsKey, resolveOutputs } from './gocdnext-env.js';

describe('resolveOutputs', () => {
  it('resolves each cell to its own outputs at dispatch, and names a cell that returned none', () => {
    const outputs = new Map([
      [outputsKey('bump', 'shard=apac'), { next: 'v1.2.0-apac' }],
      [outputsKey('bump', 'shard=emea'), { next: 'v1.2.0-emea' }],
    ]);
    const dims = (j: string) => (j === 'bump' ? { shard: ['apac', 'emea', 'us'] } : undefined);
    const none = () => new Set<string>();
    expect(
      resolveOutputs(
        {
          A: '${{ needs.bump.matrix[apac].outputs.next }}',
          E: 'x-${{ needs.bump.matrix[shard=emea].outputs.next }}',
        },
        outputs,
        none,
        dims,
      ),
    ).toEqual({ variables: { A: 'v1.2.0-apac', E: 'x-v1.2.0-emea' }, masks: ['v1.2.0-apac', 'v1.2.0-emea'] });
    expect(resolveOutputs({ U: '${{ needs.bump.matrix[us].outputs.next }}' }, outputs, none, dims)).toMatch(
      /job "bump" \(matrix cell \[shard=us\]\) of this run returned no output "next"/,
    );
  });
});
