// The sandbox engine: a job without an image runs under bubblewrap (`bwrap`). The job sees a new root made
// of an allow-list, read-only: the system's programs and libraries (/usr and the /bin, /lib links) and the
// parts of /etc that programs need to run (users, name resolution, certificates, loader and locale
// settings) — nothing else of the host: no home directories, /root, /var, /srv, /opt, /run, /mnt, no other
// service's data (a control plane or portal on the same host keeps its keys and tokens there), no
// /etc/shadow, SSH host keys or configuration files that hold passwords. Fail closed: a path not listed is
// absent, and an operator adds paths with CI_AGENT_SANDBOX_EXPOSE. The job's checkout and TMPDIR are the
// only writable places (plus a private /tmp and /var/tmp); its HOME is its TMPDIR; the agent's work
// directory stays covered even when exposed; /proc is the job's own (a new pid namespace), so no other
// process's environment or files can be read through it; every capability is dropped, so a job running as
// root cannot unmount or remount anything. `network: none` adds a network namespace with only a loopback.
//
// The job's environment never reaches bwrap's own process: bwrap runs outside the sandbox, so a job
// variable such as LD_PRELOAD, LD_AUDIT or LD_DEBUG_OUTPUT would make the dynamic loader act on the host
// before any namespace exists. bwrap gets the agent's allow-listed environment; the job's variables are
// written NUL-separated to a 0600 file of the workspace's private directory, bound read-only, and a small
// bash prologue inside the sandbox exports them before it execs the job's command (values never appear on
// a command line either).
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve, sep } from 'node:path';

export interface SandboxSettings {
  /** Absolute path of bwrap. */
  binary: string;
  /** Paths covered inside every sandbox, besides the agent's work directory (CI_AGENT_SANDBOX_HIDE). */
  hide: string[];
  /** Extra host paths every job sees read-only, besides the system allow-list (CI_AGENT_SANDBOX_EXPOSE). */
  expose?: string[];
}

/** The system's programs and libraries; on merged-/usr systems the others are links into /usr. */
export const SYSTEM_PATHS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * What of /etc a job sees. Listed, not filtered: anything else there (shadow files, SSH host keys, TLS
 * private keys, sudoers, npmrc and pip.conf that may carry registry tokens, services' own configuration)
 * stays out. These are what shells, the loader, name resolution, TLS clients, git, Java, Perl and Python
 * read to run.
 */
export const ETC_ENTRIES = [
  'passwd',
  'group',
  'hosts',
  'hostname',
  'resolv.conf',
  'nsswitch.conf',
  'host.conf',
  'gai.conf',
  'services',
  'protocols',
  'networks',
  'ssl/certs',
  'ssl/openssl.cnf',
  'ca-certificates',
  'ca-certificates.conf',
  'pki/tls/certs',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'os-release',
  'debian_version',
  'alternatives',
  'mime.types',
  'magic',
  'magic.mime',
  'bash.bashrc',
  'profile',
  'profile.d',
  'inputrc',
  'shells',
  'locale.alias',
  'locale.conf',
  'terminfo',
  'gitconfig',
  'ssh/ssh_config',
  'ssh/ssh_known_hosts',
  'java-17-openjdk',
  'java-21-openjdk',
  'perl',
  'python3',
  'mtab',
  'xml',
  'sgml',
  'fonts',
];

/** Whether `path` is `root` or below it. */
function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The bwrap arguments showing one host path at the same place, read-only. A link stays a link where it
 * points into what the job sees anyway (/bin → usr/bin, /etc/mtab → /proc/mounts); a link pointing
 * elsewhere (resolv.conf into /run) is replaced by what it points to, so nothing beside it shows.
 */
function expose(path: string): string[] {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return [];
  }
  if (st.isSymbolicLink()) {
    const target = readlinkSync(path);
    const absolute = isAbsolute(target) ? target : resolve(path, '..', target);
    if (['/usr', '/proc'].some((root) => within(absolute, root))) return ['--symlink', target, path];
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return [];
    }
    return ['--ro-bind', real, path];
  }
  return ['--ro-bind', path, path];
}

/** The read-only system part of the job's root: programs, libraries and the listed parts of /etc. */
export function systemRootArgs(): string[] {
  const args: string[] = [];
  for (const p of SYSTEM_PATHS) args.push(...expose(p));
  for (const e of ETC_ENTRIES) args.push(...expose(`/etc/${e}`));
  return args;
}

/** Paths hidden by default where they exist: container engines' sockets, storage and registry logins. */
export const DEFAULT_HIDDEN = [
  '/run/podman',
  '/run/containers',
  '/var/lib/containers',
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/var/lib/docker',
  '/etc/containers/auth.json',
  // Per-user runtime directories (rootless podman's socket and logins, session buses, gpg and ssh agents).
  '/run/user',
  // The system bus and systemd's private socket: a job of a root agent could ask systemd to run anything.
  '/run/dbus',
  '/run/systemd/private',
];

/**
 * Credential files and directories of the agent user's home, hidden where they exist (the rest of the home
 * stays readable, so tools installed there keep working): SSH and GPG keys, registry and cloud logins,
 * git and package-registry tokens, rootless podman's storage.
 */
export const HOME_CREDENTIALS = [
  '.ssh',
  '.gnupg',
  '.docker',
  '.config/containers',
  '.local/share/containers',
  '.git-credentials',
  '.config/git/credentials',
  '.netrc',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.config/pip',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.aws',
  '.azure',
  '.kube',
  '.config/gcloud',
  '.config/gh',
  '.pgpass',
  '.my.cnf',
];

/** The credential paths of a home directory (existing or not; cover() skips the absent ones). */
export function homeCredentials(home: string = homedir()): string[] {
  return home ? HOME_CREDENTIALS.map((p) => join(home, p)) : [];
}

export interface SandboxMounts {
  /** The agent's work directory: hidden entirely, then the job's own paths are bound back. */
  workdir: string;
  /** Writable: the checkout and the job's TMPDIR. */
  writable: string[];
  /** Read-only: the generated script. */
  readOnly: string[];
  /** Bound over /etc/hosts (service containers by name), when set. */
  hostsFile?: string;
  /** The job's environment as written by writeEnvFile(), bound read-only and exported by the prologue. */
  envFile?: string;
  cwd: string;
  network: 'host' | 'none';
}

function cover(path: string): string[] {
  if (!existsSync(path)) return [];
  // A directory is replaced by an empty tmpfs, a file (a socket, a credential) by an empty one.
  return statSync(path).isDirectory() ? ['--tmpfs', path] : ['--ro-bind', '/dev/null', path];
}

/** The bwrap arguments placing a command in the job's sandbox (the command follows them). */
export function sandboxArgs(settings: SandboxSettings, m: SandboxMounts): string[] {
  const exposed = settings.expose ?? [];
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(m.network === 'none' ? ['--unshare-net'] : []),
    '--cap-drop',
    'ALL',
    ...systemRootArgs(),
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--tmpfs',
    '/var/tmp',
    '--dir',
    '/run',
  ];
  // After the private temporary directories, so an exposed path below them still shows.
  for (const p of exposed) if (isAbsolute(p)) args.push(...expose(p));
  // Defence in depth for what an operator exposed: sockets and credentials below it stay covered.
  for (const p of [...DEFAULT_HIDDEN, ...settings.hide]) {
    if (exposed.some((root) => within(p, root))) args.push(...cover(p));
  }
  args.push('--tmpfs', m.workdir);
  for (const p of m.writable) args.push('--bind', p, p);
  for (const p of m.readOnly) args.push('--ro-bind', p, p);
  if (m.hostsFile) args.push('--ro-bind', m.hostsFile, '/etc/hosts');
  if (m.envFile) args.push('--ro-bind', m.envFile, m.envFile);
  // The root itself (and the directories bwrap made in it for the mounts) is read-only too.
  args.push('--remount-ro', '/', '--chdir', m.cwd, '--');
  return args;
}

/**
 * Runs inside the sandbox: exports each NUL-terminated `NAME=value` of the file named by $1 (names bash
 * keeps read-only, like UID, are skipped silently), then execs the rest of the arguments.
 */
const ENV_PROLOGUE =
  'while IFS= read -r -d "" kv; do export "$kv" 2>/dev/null || true; done < "$1"; shift; exec "$@"';

/** Writes the job's environment for the prologue (0600, in the workspace's private directory). */
export function writeEnvFile(path: string, env: Record<string, string>): string {
  const text = Object.entries(env)
    .map(([k, v]) => `${k}=${v}\0`)
    .join('');
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

/** The full bwrap argv running `argv` in the sandbox with the job's environment of `m.envFile`. */
export function sandboxCommand(settings: SandboxSettings, m: SandboxMounts, argv: string[]): string[] {
  const args = sandboxArgs(settings, m);
  if (!m.envFile) return [...args, ...argv];
  return [...args, 'bash', '-c', ENV_PROLOGUE, 'ci-env', m.envFile, ...argv];
}

/** Whether bwrap can make a sandbox here (user namespaces allowed, the binary present); else the reason. */
export function sandboxProblem(binary: string): string | undefined {
  const r = spawnSync(
    binary,
    [
      '--die-with-parent',
      '--unshare-pid',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--proc',
      '/proc',
      'true',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
  );
  if (r.error) return `bubblewrap is not usable: ${r.error.message}`;
  if (r.status !== 0)
    return `bubblewrap is not usable: ${String(r.stderr).trim() || `exit code ${r.status}`}`;
  return undefined;
}
