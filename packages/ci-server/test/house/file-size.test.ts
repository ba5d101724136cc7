// Files stay small enough to read whole: no source file of the CI's packages (the control plane and the
// agent) over 400 lines. A file that grows past it is split by concept (each part named for what it holds),
// not trimmed of comments.
import { join } from 'node:path';
import { filesOver, sourceFiles } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 400;

describe.each([
  ['packages/ci-server/src', join(import.meta.dirname, '../../src'), 100],
  ['packages/ci-agent/src', join(import.meta.dirname, '../../../ci-agent/src'), 20],
])('file sizes in %s', (_, src, atLeast) => {
  it('reads the sources', () => {
    expect(sourceFiles(src).length).toBeGreaterThan(atLeast);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    expect(filesOver(src, MAX_LINES)).toEqual([]);
  });
});
