// The sandbox engine: a job without an image runs under bubblewrap (`bwrap`). The host's file system is
// visible read-only; the job's checkout and TMPDIR are the only writable places (plus a private /tmp); the
// agent's work directory (its identity and credential, the cache, every other job's workspace) and the
// container engine's sockets and storage are covered by empty tmpfs mounts; /proc is the job's own (a new
// pid namespace), so no other process's environment or files can be read through it; every capability is
// dropped, so a job running as root cannot unmount what hides those paths. `network: none` adds a network
// namespace with only a loopback.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

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
];

export interface SandboxMounts {
  /** The agent's work directory: hidden entirely, then the job's own paths are bound back. */
  workdir: string;
  /** Writable: the checkout and the job's TMPDIR. */
  writable: string[];
  /** Read-only: the generated script. */
  readOnly: string[];
  /** Bound over /etc/hosts (service containers by name), when set. */
  hostsFile?: string;
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
  args.push('--chdir', m.cwd, '--');
  return args;
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
