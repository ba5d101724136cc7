// The podman engine's plumbing: the CLI (not the Docker-compatible socket: one binary, no daemon to keep
// running), image availability under a pull policy, and the labels every container and network of this
// agent carries so that whatever a canceled job, a timeout or an agent killed with SIGKILL left behind is
// swept by label at the agent's next start. Job-level use (networks, containers of one job) is container-job.ts.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';

import type { PullPolicy } from '../job-spec.js';

export type { PullPolicy };
export const PULL_POLICIES: readonly PullPolicy[] = ['always', 'if-not-present', 'never'];

/** Label naming the agent that made a container or network (its key, see agentKey()). */
export const AGENT_LABEL = 'ci.agent';
/** Label naming the job run attempt (`<jobRunId>-<attempt>`). */
export const JOB_LABEL = 'ci.job';

export interface PodmanSettings {
  /** Absolute path of the podman binary (a job's own PATH must not decide which program runs). */
  binary: string;
  /** OCI runtime (`--runtime`); runc where crun refuses hybrid cgroups. */
  runtime: string;
  /** `--ulimit` values, e.g. `nofile=1024:1024`. */
  ulimits: string[];
  /** `--cpus` (e.g. `2`), `--memory` (e.g. `2g`), `--pids-limit`; unset means podman's default. */
  cpus?: string;
  memory?: string;
  pids?: number;
  /** This agent's key: the value of the `ci.agent` label. */
  agentKey: string;
}

/**
 * A key naming this agent on its host: a hash of its work directory (two agents cannot share one), so two
 * agents on one machine never sweep each other's containers.
 */
export function agentKey(workdir: string): string {
  return createHash('sha256').update(workdir).digest('hex').slice(0, 12);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs podman with its global options; never rejects (a missing binary is exit code 127). It runs with the
 * agent's environment unless told otherwise (never the job's: see container-job.ts).
 */
export function podman(
  settings: Pick<PodmanSettings, 'binary' | 'runtime'>,
  args: string[],
  opts: { env?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(settings.binary, ['--runtime', settings.runtime, ...args], {
      env: opts.env ?? (process.env as Record<string, string>),
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.once('error', (err) => resolve({ code: 127, stdout, stderr: stderr || err.message }));
    child.once('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The last meaningful line of podman's error output, for a one-line failure reason. */
export function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines[lines.length - 1] ?? '').replace(/^Error:\s*/, '');
}

/**
 * Makes the image available under the policy. Returns undefined when it is, or the reason it cannot be had
 * (the job fails with it).
 */
export async function ensureImage(
  settings: PodmanSettings,
  image: string,
  policy: PullPolicy,
  note: (text: string) => void,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const present = async () => (await podman(settings, ['image', 'exists', image], { signal })).code === 0;
  if (policy === 'never') {
    if (await present()) return undefined;
    return `image ${image} is not on this agent and the pull policy is never`;
  }
  if (policy === 'if-not-present' && (await present())) {
    note(`image ${image} is present`);
    return undefined;
  }
  note(`pulling image ${image} (pull policy ${policy})`);
  const pulled = await podman(settings, ['pull', '--quiet', image], { signal });
  if (pulled.code === 0) return undefined;
  return `cannot pull image ${image}: ${lastLine(pulled.stderr) || `podman exit code ${pulled.code}`}`;
}

/**
 * The prefix of every name this agent gives (networks, containers, env secrets): podman 4.3 cannot filter
 * secrets by label, so a killed agent's secrets are found by name.
 */
export function namePrefix(settings: Pick<PodmanSettings, 'agentKey'>): string {
  return `ci-${settings.agentKey}-`;
}

/**
 * Image references as podman takes them (`[host[:port]/]path[:tag][@digest]`): no leading `-` (podman would
 * read it as an option), no whitespace, `=` or `,`. The reason when `image` is not one.
 */
export function imageProblem(image: string): string | undefined {
  if (/^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,254}$/.test(image)) return undefined;
  return `image ${JSON.stringify(image)} is not a valid image reference`;
}

/**
 * Removes every container and network labelled with this agent's key, and the env secrets named with its
 * prefix (leftovers of a killed agent).
 */
export async function sweepLeftovers(
  settings: PodmanSettings,
): Promise<{ containers: number; networks: number; secrets: number }> {
  const filter = `label=${AGENT_LABEL}=${settings.agentKey}`;
  const ids = (r: CliResult) => r.stdout.split('\n').filter((l) => l.trim() !== '');
  const containers = ids(await podman(settings, ['ps', '-a', '-q', '--filter', filter]));
  if (containers.length > 0) await podman(settings, ['rm', '-f', '-t', '0', ...containers]);
  const networks = ids(await podman(settings, ['network', 'ls', '-q', '--filter', filter]));
  if (networks.length > 0) await podman(settings, ['network', 'rm', '-f', ...networks]);
  const secrets = ids(
    await podman(settings, ['secret', 'ls', '--noheading', '--format', '{{.Name}}']),
  ).filter((n) => n.startsWith(namePrefix(settings)));
  if (secrets.length > 0) await podman(settings, ['secret', 'rm', ...secrets]);
  return { containers: containers.length, networks: networks.length, secrets: secrets.length };
}

/** Whether podman can run a container here; the reason when it cannot. */
export async function podmanProblem(settings: PodmanSettings): Promise<string | undefined> {
  const r = await podman(settings, ['version', '--format', '{{.Client.Version}}']);
  if (r.code !== 0) return `podman is not usable: ${lastLine(r.stderr) || `exit code ${r.code}`}`;
  return undefined;
}
