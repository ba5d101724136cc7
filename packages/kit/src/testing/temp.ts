// Temporary directories for tests. During a Vitest run they live under one run-wide root that the global
// setup creates and removes at the end (workers are killed, so per-process exit hooks cannot be relied on);
// outside a run they are removed when the process exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_TMP_ROOT_ENV = 'TEST_TMP_ROOT';

const made: string[] = [];
process.once('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'test-'): string {
  const dir = mkdtempSync(join(process.env[TEST_TMP_ROOT_ENV] ?? tmpdir(), prefix));
  made.push(dir);
  return dir;
}
