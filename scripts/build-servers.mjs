// Builds the Node services for `npm start` and production: each entry (TypeScript, workspace packages
// included) is bundled by esbuild into one ES module under packages/<pkg>/build/server/, with every npm
// dependency left external (native drivers, WASM parsers). A service then starts with plain `node`, without
// compiling TypeScript at every start (tsx stays the development runner). A build is redone only when a
// source file of a workspace package is newer than it ("stale"), so a start after an edit rebuilds.
//
// The bundle sits two folders below its package (build/server/main.mjs), the depth of src/http/*.ts, so the
// paths the sources resolve from `import.meta.url` (the web app's dist/, the embedded engines' child.mjs,
// package.json for the version) still land on the same files; child.mjs and package.json are copied in.
//
// Use: `node scripts/build-servers.mjs [portal|ci|agent ...]`, or `serverCommand(name)` from start.mjs.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The services: their package folder and entry. */
export const SERVICES = {
  portal: { pkg: 'portal-server', entry: 'src/main.ts' },
  ci: { pkg: 'ci-server', entry: 'src/main.ts' },
  agent: { pkg: 'ci-agent', entry: 'src/main.ts' },
};

/**
 * V8 flags each service starts with (measured in bench/README.md "Footprint"; docs/portal-runtime.md). The
 * portal's:
 * - `--liftoff-only`: the PostgreSQL parser (libpg-query) is WebAssembly; once it is hot, V8 recompiles its
 *   huge parser function with TurboFan in the background, which on Node 24 takes ~500 MB of compiler memory
 *   for a few seconds (the "Node 24 peak"). The baseline compiler parses a statement in microseconds anyway.
 * - `--max-semi-space-size=16`: Node 20's young generation on newer Node too (Node 24 sizes it larger, and a
 *   1,000,000-row export then peaks ~100 MB higher).
 */
export const NODE_FLAGS = {
  portal: ['--max-semi-space-size=16', '--liftoff-only'],
  ci: [],
  agent: [],
};

/** Files copied beside the bundle because the sources load them by path at run time. */
const BESIDE = {
  'portal-server': [['src/providers/embedded/child.mjs', 'child.mjs']],
  'ci-server': [],
  'ci-agent': [],
};

function newest(dir) {
  let t = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'build' || name === 'test') continue;
    const path = join(dir, name);
    const s = statSync(path);
    t = Math.max(t, s.isDirectory() ? newest(path) : s.mtimeMs);
  }
  return t;
}

/**
 * Pure-JavaScript dependencies bundled into a service instead of resolved by Node at every start. Fastify with
 * its plugins and schema compilers is ~40 packages; resolving and reading each file cost the portal ~0.45 s of
 * its 1.2 s start CPU and ~20 MB (docs/portal-runtime.md). Only the portal for now: its start is what the
 * footprint aims measure. Packages with native code, WASM or files loaded by path stay external.
 */
const BUNDLED = {
  'portal-server': new Set([
    'fastify',
    '@fastify/cookie',
    '@fastify/static',
    '@fastify/swagger',
    '@fastify/ajv-compiler',
    '@fastify/fast-json-stringify-compiler',
    'typebox',
    'yaml',
    'find-my-way',
  ]),
  'ci-server': new Set(),
  'ci-agent': new Set(),
};

/** Every other npm dependency of the workspace packages: left to Node's resolver at run time. */
function externals(service) {
  const names = new Set();
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', pkg, 'package.json');
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, 'utf8'));
    for (const dep of Object.keys({ ...json.dependencies, ...json.optionalDependencies })) {
      if (!dep.startsWith('@app/') && !BUNDLED[service].has(dep)) names.add(dep);
    }
  }
  return [...names].flatMap((n) => [n, `${n}/*`]);
}

function outFile(pkg) {
  return join(outDir(pkg), 'main.mjs');
}

function outDir(pkg) {
  return join(root, 'packages', pkg, 'build', 'server');
}

/** True when the bundle is missing or older than any source of the workspace packages it may include. */
export function isStale(name) {
  const out = outFile(SERVICES[name].pkg);
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  for (const pkg of ['kit', 'ci-proto', SERVICES[name].pkg]) {
    const dir = join(root, 'packages', pkg);
    if (existsSync(dir) && newest(dir) > built) return true;
  }
  return false;
}

export async function build(name) {
  const { pkg, entry } = SERVICES[name];
  const { build: esbuild } = await import('esbuild');
  const out = outFile(pkg);
  rmSync(outDir(pkg), { recursive: true, force: true });
  mkdirSync(outDir(pkg), { recursive: true });
  await esbuild({
    entryPoints: { main: join(root, 'packages', pkg, entry) },
    outdir: outDir(pkg),
    // What the sources load with import() (engine providers, parsers, tunnels) stays in its own chunk, loaded
    // on first use; chunks sit beside main.mjs so `import.meta.url` paths resolve alike.
    splitting: true,
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: externals(pkg),
    // CommonJS dependencies bundled into an ES module still call require(); give them one.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const [from, to] of BESIDE[pkg])
    copyFileSync(join(root, 'packages', pkg, from), join(dirname(out), to));
  copyFileSync(
    join(root, 'packages', pkg, 'package.json'),
    join(root, 'packages', pkg, 'build', 'package.json'),
  );
  return out;
}

/** The `node` arguments that start a service: its flags and bundle (rebuilt when stale), or tsx when DEV=1. */
export async function serverArgs(name) {
  const { pkg, entry } = SERVICES[name];
  if (process.env.DEV === '1') return [...NODE_FLAGS[name], '--import', 'tsx', join('packages', pkg, entry)];
  if (isStale(name)) {
    console.log(`Building ${pkg}…`);
    await build(name);
  }
  return [...NODE_FLAGS[name], outFile(pkg)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : Object.keys(SERVICES)) {
    if (!SERVICES[name])
      throw new Error(`unknown service ${name}; one of ${Object.keys(SERVICES).join(', ')}`);
    console.log(await build(name));
  }
}
