// Files stay small enough to read whole: no source file of packages/portal-server/src over 400 lines. A file
// that grows past it is split by concept (each part named for what it holds), not trimmed of comments.
import { join } from 'node:path';
import { filesOver, sourceFiles } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const MAX_LINES = 400;

describe('file sizes in packages/portal-server/src', () => {
  it('reads the sources', () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(100);
  });

  it(`has no file over ${MAX_LINES} lines`, () => {
    expect(filesOver(SRC, MAX_LINES)).toEqual([]);
  });
});
