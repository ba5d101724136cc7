// How the tests start a service (control plane, agent or portal) as its own process: `node` on the bundle
// that `npm start` and production run (scripts/build-servers.mjs), built at most once per test process and
// only when a source is newer than it. Starting through tsx compiled and resolved every TypeScript module at
// each start, about 2 s of CPU per agent and 3 s per control plane or portal on the 2-core CI machine, and the
// suite starts dozens of them. Always the bundle here: Vitest sets DEV in its workers, which would send the
// build script to tsx.
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const BUILD_SCRIPT = pathToFileURL(join(ROOT, 'scripts/build-servers.mjs')).href;
const known = new Map<string, string[]>();

/** The `node` arguments that start the service; relative paths are from the repository root. */
export function serviceArgs(name: 'ci' | 'agent' | 'portal'): string[] {
  let args = known.get(name);
  if (!args) {
    // The build script decides (stale or fresh bundle) and builds when it must. Synchronous, so the callers,
    // which spawn at once and return the child, stay as they are.
    const script = `const m = await import(${JSON.stringify(BUILD_SCRIPT)});
console.log(JSON.stringify(await m.serverArgs(${JSON.stringify(name)})));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, DEV: '' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Its last line: a build first says "Building …".
    args = JSON.parse(out.trim().split('\n').pop() ?? '[]') as string[];
    known.set(name, args);
  }
  return args;
}
