// The system packages the tests use — real PostgreSQL, MariaDB, Redis, ClickHouse and Chromium from Debian — found,
// installed (as root, non-interactively) or named exactly when they cannot be installed.
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
  { pkg: 'prometheus', present: () => onPath('promtool') }, // promtool checks both services' /metrics
];

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
