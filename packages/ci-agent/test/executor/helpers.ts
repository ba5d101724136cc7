// Shared test fixtures for the executor: real git repositories in temp dirs, a job assignment builder and a
// log collector.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '@app/kit/testing';
import { afterAll } from 'vitest';
import type { JobAssignment, LogLine } from '../../src/index.js';

// The kit's tempDir() cleans up on process exit, which Vitest's worker processes do not always reach:
// this file's directories are removed after each test file as well.
const made: string[] = [];
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
}

/**
 * A directory outside /tmp (under /var/tmp), for files that must stay visible inside a sandbox: the sandbox
 * covers /tmp with its own tmpfs, so a probe of a path under /tmp proves nothing.
 */
export function visibleDir(prefix: string): string {
  const dir = mkdtempSync(join('/var/tmp', prefix));
  made.push(dir);
  return dir;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: GIT_ENV, stdio: 'pipe' }).toString().trim();
}

export interface TestRepo {
  dir: string;
  url: string;
  /** Commit ids in order. */
  commits: string[];
  commit(files: Record<string, string>, message?: string): string;
}

/** A real repository (branch `main`) with one commit per entry of `history`. */
export function makeRepo(history: Record<string, string>[] = [{ 'README.md': 'hello\n' }]): TestRepo {
  const dir = scratchDir('ci-agent-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  const repo: TestRepo = {
    dir,
    url: `file://${dir}`,
    commits: [],
    commit(files, message = 'change') {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '--allow-empty', '-m', message);
      const sha = git(dir, 'rev-parse', 'HEAD');
      repo.commits.push(sha);
      return sha;
    },
  };
  for (const files of history) repo.commit(files);
  return repo;
}

export function makeJob(repo: TestRepo, overrides: Partial<JobAssignment> = {}): JobAssignment {
  const id = `job${Math.random().toString(16).slice(2, 10)}`;
  return {
    jobRunId: id,
    attempt: 1,
    projectSlug: 'shop',
    pipelineName: 'build',
    pipelineId: 'p-1',
    runId: 'r-1',
    runCounter: 7,
    jobName: 'compile',
    cause: 'manual',
    git: { url: repo.url, revision: repo.commits.at(-1)!, branch: 'main' },
    script: ['true'],
    env: {},
    secrets: {},
    services: [],
    cache: [],
    testReports: [],
    ...overrides,
  };
}

export function logCollector() {
  const lines: LogLine[] = [];
  return {
    lines,
    sink: (l: LogLine) => void lines.push(l),
    text: () => lines.map((l) => l.text).join('\n'),
    stdout: () => lines.filter((l) => l.stream === 'stdout').map((l) => l.text),
  };
}
