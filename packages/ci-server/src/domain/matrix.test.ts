// Matrix expansion order and job-run display names.
import { describe, expect, it } from 'vitest';
import { expandMatrix, jobRunDisplayName, matrixKey, matrixSize } from './matrix.js';

describe('expandMatrix', () => {
  it.each([
    ['no matrix', undefined, [{}]],
    ['null', null, [{}]],
    ['empty matrix', {}, [{}]],
    ['one key', { NODE: ['20', '22'] }, [{ NODE: '20' }, { NODE: '22' }]],
    [
      'two keys, first varies slowest',
      { NODE: ['20', '22'], OS: ['linux', 'mac'] },
      [
        { NODE: '20', OS: 'linux' },
        { NODE: '20', OS: 'mac' },
        { NODE: '22', OS: 'linux' },
        { NODE: '22', OS: 'mac' },
      ],
    ],
    ['single values', { A: ['1'], B: ['x'] }, [{ A: '1', B: 'x' }]],
  ])('%s', (_name, matrix, expected) => {
    expect(expandMatrix(matrix)).toEqual(expected);
    expect(matrixSize(matrix)).toBe(expected.length);
  });

  it('keeps combination key order as declared', () => {
    const [first] = expandMatrix({ Z: ['1'], A: ['2'] });
    expect(Object.keys(first)).toEqual(['Z', 'A']);
  });
});

describe('jobRunDisplayName', () => {
  it.each([
    ['test', {}, 'test'],
    ['test', undefined, 'test'],
    ['test', { NODE: '20' }, 'test [NODE=20]'],
    ['test', { NODE: '20', OS: 'linux' }, 'test [NODE=20, OS=linux]'],
  ])('%s %j → %s', (name, combo, expected) => {
    expect(jobRunDisplayName(name, combo)).toBe(expected);
  });
});

describe('matrixKey', () => {
  it('ignores key order and tells combinations apart', () => {
    expect(matrixKey({ A: '1', B: '2' })).toBe(matrixKey({ B: '2', A: '1' }));
    expect(matrixKey({ A: '1' })).not.toBe(matrixKey({ A: '2' }));
    expect(matrixKey({})).toBe(matrixKey(undefined));
  });
});
