// A cold install is never a silent wait: scripts/ensure-deps.mjs says what it is doing and how long a first
// install takes, passes npm's own output through with install scripts in the foreground, and prints a
// progress line (time and packages so far) while npm runs. A stand-in `npm` waits until that progress line
// was printed, so the check does not depend on timing.
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@app/kit/testing';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./ensure-deps.mjs', import.meta.url));

describe('ensure-deps on a cold clone', () => {
  it('shows npm output, the expected duration and progress lines until the install ends', async () => {
    const dir = tempDir('ensure-deps-');
    writeFileSync(join(dir, 'package-lock.json'), '{}');
    const signal = join(dir, 'progress-seen');
    const npm = join(dir, 'fake-npm');
    // Installs two packages, prints like npm, then waits for the test to have seen a progress line.
    writeFileSync(
      npm,
      `#!/bin/sh
echo "fake npm $*"
mkdir -p node_modules/left-pad node_modules/@scope/pkg node_modules/.bin
while [ ! -f "${signal}" ]; do sleep 0.05; done
touch node_modules/.bin/tsx node_modules/.package-lock.json
echo "added 2 packages"
`,
    );
    chmodSync(npm, 0o755);
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `
      const { ensureDeps } = await import(${JSON.stringify(SCRIPT)});
      await ensureDeps({ root: ${JSON.stringify(dir)}, npm: ${JSON.stringify(npm)}, heartbeatMs: 50 });
    `,
    ]);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('still installing npm dependencies')) writeFileSync(signal, '');
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code, out).toBe(0);
    expect(out).toContain('A first install takes 2–5 minutes');
    expect(out).toContain('fake npm install --no-audit --no-fund --foreground-scripts');
    expect(out).toMatch(/still installing npm dependencies: \d+ s, 2 packages so far/);
    expect(out).toContain('added 2 packages');
    expect(out).toMatch(/npm dependencies installed in \d+ s\./);
  });
});
