// The system packages the tests use — real PostgreSQL, MariaDB, Redis, ClickHouse and Chromium from Debian, and the
// CI agent's engines: podman (with the runc runtime, CNI plugins, uidmap and slirp4netns it needs here),
// bubblewrap, and busybox-static (the root file system of the agent tests' local image: no registry is
// reachable) — found, installed (as root, non-interactively) or named exactly when they cannot be installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

function onPath(name) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin'];
  return dirs.some((d) => d && existsSync(`${d}/${name}`));
}

function postgresInstalled() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return false;
  return readdirSync(root).some(
    (v) => existsSync(`${root}/${v}/bin/initdb`) && existsSync(`${root}/${v}/bin/postgres`),
  );
}

export const PREREQUISITES = [
  { pkg: 'postgresql', present: postgresInstalled },
  { pkg: 'mariadb-server', present: () => onPath('mariadbd') && onPath('mariadb-install-db') },
  { pkg: 'redis-server', present: () => onPath('redis-server') },
  { pkg: 'clickhouse-server', present: () => onPath('clickhouse-server') },
  { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
  { pkg: 'podman', present: () => onPath('podman') },
  { pkg: 'runc', present: () => onPath('runc') },
  { pkg: 'containernetworking-plugins', present: () => existsSync('/usr/lib/cni/bridge') },
  { pkg: 'uidmap', present: () => onPath('newuidmap') },
  { pkg: 'slirp4netns', present: () => onPath('slirp4netns') },
  { pkg: 'bubblewrap', present: () => onPath('bwrap') },
  { pkg: 'busybox-static', present: () => busyboxStatic() },
  { pkg: 'prometheus', present: () => onPath('promtool') }, // promtool checks both services' /metrics
];

/** Debian's busybox-static: one statically linked /bin/busybox that runs inside an empty image. */
function busyboxStatic() {
  if (!existsSync('/bin/busybox')) return false;
  const r = spawnSync('file', ['-L', '/bin/busybox'], { encoding: 'utf8' });
  // Without `file`, trust dpkg's word.
  if (r.status !== 0) return spawnSync('dpkg', ['-s', 'busybox-static'], { stdio: 'ignore' }).status === 0;
  return /statically linked|static-pie/.test(r.stdout);
}

export function missingPrerequisites() {
  return PREREQUISITES.filter((p) => !p.present()).map((p) => p.pkg);
}

/** Returns true when everything is present (after installing what was missing, when allowed). */
export function ensurePrerequisites() {
  let missing = missingPrerequisites();
  if (missing.length === 0) return true;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && process.env.SKIP_APT_INSTALL !== '1') {
    console.log(`Installing system packages the tests use: ${missing.join(', ')} (apt-get)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    });
    missing = missingPrerequisites();
    if (missing.length === 0) return true;
  }
  console.error(
    `Missing system packages: ${missing.join(', ')}.\nInstall them with:  sudo apt-get install -y ${missing.join(' ')}`,
  );
  return false;
}
