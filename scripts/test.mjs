// `npm test`: installs what the tests need (npm dependencies; PostgreSQL, MariaDB, Redis and Chromium from
// Debian when missing and running as root), then runs every test with Vitest. A missing prerequisite fails
// the run; it never turns into a skip.
import { spawnSync } from 'node:child_process';
import { ensureDeps, root } from './ensure-deps.mjs';
import { ensurePrerequisites } from './prerequisites.mjs';

ensureDeps();
if (!ensurePrerequisites()) process.exit(1);
const res = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
