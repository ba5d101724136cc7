// The sandbox engine: a job without an image runs under bubblewrap (`bwrap`). The host's file system is
// visible read-only; the job's checkout and TMPDIR are the only writable places (plus a private /tmp); the
// agent's work directory (its identity and credential, the cache, every other job's workspace) and the
// container engine's sockets and storage are covered by empty tmpfs mounts; /proc is the job's own (a new
// pid namespace), so no other process's environment or files can be read through it; every capability is
// dropped, so a job running as root cannot unmount what hides those paths. `network: none` adds a network
// namespace with only a loopback.
//
// The job's environment never reaches bwrap's own process: bwrap runs outside the sandbox, so a job
// variable such as LD_PRELOAD, LD_AUDIT or LD_DEBUG_OUTPUT would make the dynamic loader act on the host
// before any namespace exists. bwrap gets the agent's allow-listed environment; the job's variables are
// written NUL-separated to a 0600 file of the workspace's private directory, bound read-only, and a small
// bash prologue inside the sandbox exports them before it execs the job's command (values never appear on
// a command line either).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface SandboxSettings {
  /** Absolute path of bwrap. */
  binary: string;
  /** Paths covered inside every sandbox, besides the agent's work directory (CI_AGENT_SANDBOX_HIDE). */
  hide: string[];
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
  const args = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(m.network === 'none' ? ['--unshare-net'] : []),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const p of [...DEFAULT_HIDDEN, ...settings.hide]) args.push(...cover(p));
  args.push('--tmpfs', m.workdir);
  for (const p of m.writable) args.push('--bind', p, p);
  for (const p of m.readOnly) args.push('--ro-bind', p, p);
  if (m.hostsFile) args.push('--ro-bind', m.hostsFile, '/etc/hosts');
  if (m.envFile) args.push('--ro-bind', m.envFile, m.envFile);
  args.push('--chdir', m.cwd, '--');
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
