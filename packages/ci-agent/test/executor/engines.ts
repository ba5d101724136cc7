// Real engines for the isolation tests: bubblewrap and podman as installed on the machine (a missing one
// fails the tests: scripts/prerequisites.mjs installs them), and one small local image built from Debian's
// busybox-static — no registry is reachable — once per test run (its tag is the binary's hash, so every
// test file after the first finds it present).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectEngines, type EngineSettings, type PodmanSettings, podman, which } from '../../src/index.js';
import { scratchDir } from './helpers.js';

const BUSYBOX = '/bin/busybox';

/** Engine settings with the sandbox and podman, both required. */
export async function realEngines(workdir: string): Promise<EngineSettings & { podman: PodmanSettings }> {
  const { settings, problems } = await detectEngines({ workdir, plain: 'sandbox' });
  if (!settings.sandbox || !settings.podman)
    throw new Error(`the isolation tests need bubblewrap and podman: ${problems.join('; ')}`);
  return settings as EngineSettings & { podman: PodmanSettings };
}

let built: Promise<string> | undefined;

/**
 * `localhost/ci-agent-test-busybox:<hash>`: /bin/busybox with its applets, PATH=/bin, and a command that
 * prints `image cmd says $PLUGIN_MESSAGE` (a plugin-style image: it runs when a job has no script).
 */
export function testImage(): Promise<string> {
  built ??= (async () => {
    const hash = createHash('sha256').update(readFileSync(BUSYBOX)).digest('hex').slice(0, 12);
    const image = `localhost/ci-agent-test-busybox:${hash}`;
    const bin = which('podman');
    if (!bin) throw new Error('podman is not installed');
    const cli = { binary: bin, runtime: 'runc' };
    if ((await podman(cli, ['image', 'exists', image])).code === 0) return image;
    const root = scratchDir('busybox-rootfs-');
    for (const d of ['bin', 'tmp', 'etc', 'www']) mkdirSync(join(root, d));
    writeFileSync(join(root, 'bin', 'busybox'), readFileSync(BUSYBOX), { mode: 0o755 });
    const applets = execFileSync(BUSYBOX, ['--list']).toString().split('\n').filter(Boolean);
    for (const a of applets) if (a !== 'busybox') symlinkSync('busybox', join(root, 'bin', a));
    writeFileSync(join(root, 'etc', 'marker'), 'the image file system\n');
    writeFileSync(join(root, 'www', 'index.html'), 'pong\n');
    const tar = join(scratchDir('busybox-tar-'), 'rootfs.tar');
    execFileSync('tar', ['-C', root, '-cf', tar, '.']);
    const r = await podman(cli, [
      'import',
      '--change',
      'ENV PATH=/bin',
      '--change',
      'CMD ["/bin/sh","-c","echo image cmd says $PLUGIN_MESSAGE"]',
      tar,
      image,
    ]);
    if (r.code !== 0) throw new Error(`podman import failed: ${r.stderr}`);
    return image;
  })();
  return built;
}

/** Containers and networks carrying a label (`ci.job=<id>`), to prove nothing was left behind. */
export async function leftovers(settings: PodmanSettings, label: string): Promise<string[]> {
  const ps = await podman(settings, ['ps', '-a', '-q', '--filter', `label=${label}`]);
  const nets = await podman(settings, ['network', 'ls', '-q', '--filter', `label=${label}`]);
  return [...ps.stdout.split('\n'), ...nets.stdout.split('\n')].filter((l) => l.trim() !== '');
}
