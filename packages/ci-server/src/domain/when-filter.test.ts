// gocdnext's `when`: events, branch globs, changed-file globs (failing open when the files are unknown).
import { describe, expect, it } from 'vitest';
import type { WhenSpec } from './bundle-types.js';
import { causeEvent, globRegExp, whenRefusal } from './when-filter.js';

const when = (over: Partial<WhenSpec>): WhenSpec => ({ event: [], branch: [], paths: [], ...over });

describe('when', () => {
  it.each([
    ['**/*.go', 'main.go', true],
    ['**/*.go', 'server/x/y.go', true],
    ['web/**', 'web/app/page.tsx', true],
    ['web/**', 'webx/a', false],
    ['*.md', 'docs/a.md', false],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/x', false],
    ['go.mod', 'go.mod', true],
    ['a?c', 'abc', true],
  ])('glob %s against %s: %s', (glob, path, ok) => {
    expect(globRegExp(glob).test(path)).toBe(ok);
  });

  it('passes anything when absent or empty', () => {
    expect(whenRefusal(undefined, { event: 'cron', branch: null, files: null })).toBeNull();
    expect(whenRefusal(when({}), { event: 'tag', branch: null, files: [] })).toBeNull();
  });

  it('filters by event, branch and changed files, and fails open on unknown files', () => {
    const w = when({ event: ['push', 'pull_request'], branch: ['main', 'release/*'], paths: ['server/**'] });
    expect(whenRefusal(w, { event: 'tag', branch: null, files: null })).toMatch(/this is a tag trigger/);
    expect(whenRefusal(w, { event: 'push', branch: 'feature/x', files: null })).toMatch(/on feature\/x/);
    expect(whenRefusal(w, { event: 'push', branch: 'main', files: ['web/a.ts'] })).toMatch(/no changed file/);
    expect(whenRefusal(w, { event: 'push', branch: 'release/2', files: ['server/main.go'] })).toBeNull();
    expect(whenRefusal(w, { event: 'push', branch: 'main', files: null })).toBeNull();
    expect(whenRefusal(when({ paths: ['x/**'] }), { event: 'cron', branch: null, files: [] })).toBeNull();
  });

  it('reads run causes as events', () => {
    expect(
      ['webhook', 'poll', 'cron', 'upstream', 'manual', 'rerun', 'run_all'].map((c) =>
        causeEvent(c as never),
      ),
    ).toEqual(['push', 'push', 'cron', 'upstream', 'manual', 'manual', 'manual']);
  });
});
