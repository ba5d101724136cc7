// Build information reported by GET /version. The commit and date come from the environment of a release
// build, else from the git checkout, else "unknown" / process start.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

export interface BuildInfo {
  version: string;
  commit: string;
  build_date: string;
}

export function buildInfo(): BuildInfo {
  return {
    version: process.env.CI_BUILD_VERSION ?? pkg.version,
    commit: process.env.CI_BUILD_COMMIT ?? gitCommit(),
    build_date: process.env.CI_BUILD_DATE ?? new Date().toISOString(),
  };
}
