// The house rule of the control plane's source, checked on the files themselves: arrows point down (routes
// call services; no module outside http/ imports from http/, except the composition root server.ts).
import { join, relative } from 'node:path';
import { importsInto, sourceFiles } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

describe('layers of packages/ci-server/src', () => {
  it('no module outside http/ imports from http/ (server.ts composes them)', () => {
    const folders = new Set(sourceFiles(SRC).map((f) => relative(SRC, f).split('/')[0]));
    for (const folder of ['auth', 'agents', 'domain', 'store', 'plugins', 'scheduler'])
      expect(folders.has(folder)).toBe(true);
    expect(importsInto(SRC, 'http', ['server.ts'])).toEqual([]);
  });
});
