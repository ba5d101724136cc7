// Files stay small enough to read whole: no source file of packages/ci-server/src over 400 lines. A file
// that grows past it is split by concept (each part named for what it holds), not trimmed of comments.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const MAX_LINES = 400;

describe('file sizes in packages/ci-server/src', () => {
  it('reads the sources', () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(100);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    const over = sourceFiles(SRC)
      .map((file) => ({
        file: relative(SRC, file),
        lines: readFileSync(file, 'utf8').split('\n').length - 1,
      }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });
});
