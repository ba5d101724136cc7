// `npm test`: installs what the tests need (npm dependencies; PostgreSQL, MariaDB, Redis and Chromium from
// Debian when missing and running as root), then runs every test with Vitest. A missing prerequisite fails
// the run; it never turns into a skip.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDeps, root } from './ensure-deps.mjs';
import { ensurePrerequisites } from './prerequisites.mjs';

await ensureDeps();
if (!ensurePrerequisites()) process.exit(1);
const results = join(tmpdir(), `vitest-results-${process.pid}.json`);
const res = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${results}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
// One plain closing line that any CI log reader understands.
if (existsSync(results)) {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  rmSync(results, { force: true });
  // A test file that fails to load has no failed test in it, so count failed files too.
  const failed = r.numFailedTests + r.numFailedTestSuites;
  console.log(`Tests: ${r.numPassedTests} passed, ${failed} failed`);
  if (r.numTotalTests === 0) {
    console.error('No test ran.');
    process.exit(1);
  }
}
process.exit(res.status ?? 1);
