// Which engine runs a job, and which engines this agent has. A job with an `image` runs in a podman
// container; a job without one runs in the bubblewrap sandbox, or directly on the host only where the
// operator opted in for the agent (CI_AGENT_PLAIN_ENGINE=host). The engines are detected at the agent's
// start and reported to the control plane, whose dispatcher sends a job only to an agent that can run it.
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import type { JobAssignment } from '../job-spec.js';
import { agentKey, type PodmanSettings, podmanProblem, sweepLeftovers } from './podman.js';
import { homeCredentials, type SandboxSettings, sandboxProblem } from './sandbox.js';

export type EngineName = 'host' | 'sandbox' | 'podman';
export type PlainEngine = 'sandbox' | 'host';

/** How the job log names the engine. */
export const ENGINE_TEXT: Record<EngineName, string> = {
  podman: 'podman container',
  sandbox: 'bubblewrap sandbox',
  host: 'host (no isolation: the operator opted in)',
};

export interface EngineSettings {
  /** The engine for jobs without an image: the sandbox (default) or the host (an operator's opt-in). */
  plain: PlainEngine;
  /** Present when bubblewrap works here. */
  sandbox?: SandboxSettings;
  /** Present when podman works here. */
  podman?: PodmanSettings;
}

/** A program's absolute path on PATH (or the usual system directories), undefined when absent. */
export function which(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of [...path.split(':'), '/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin']) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The engines an agent with these settings offers, as reported to the control plane. */
export function enginesOf(settings: EngineSettings): EngineName[] {
  const out: EngineName[] = [];
  if (settings.plain === 'host') out.push('host');
  else if (settings.sandbox) out.push('sandbox');
  if (settings.podman) out.push('podman');
  return out;
}

/** The engine that runs the job here, or why none can. */
export function engineFor(
  settings: EngineSettings,
  job: Pick<JobAssignment, 'image' | 'services'>,
): { engine: EngineName } | { error: string } {
  const containers = Boolean(job.image) || job.services.some((s) => s.image);
  if (containers && !settings.podman)
    return { error: 'the job needs containers (an image) and this agent has no podman engine' };
  if (job.image) {
    // A container cannot reach a process on the host's loopback: a container job's services are containers.
    const plain = job.services.find((s) => !s.image);
    if (plain)
      return { error: `service ${plain.name} has no image: a job with an image needs image services` };
    return { engine: 'podman' };
  }
  if (settings.plain === 'host') return { engine: 'host' };
  if (!settings.sandbox)
    return {
      error: 'this agent cannot sandbox jobs (bubblewrap is not usable) and has not opted in to host jobs',
    };
  return { engine: 'sandbox' };
}

export interface DetectOptions {
  workdir: string;
  plain: PlainEngine;
  /** Extra paths hidden in the sandbox. */
  hide?: string[];
  /** Extra host paths shown read-only in the sandbox. */
  expose?: string[];
  /** Look for podman at all (false: the agent runs no containers). */
  podman?: boolean;
  runtime?: string;
  ulimits?: string[];
  cpus?: string;
  memory?: string;
  pids?: number;
}

export const DEFAULT_RUNTIME = 'runc';
export const DEFAULT_ULIMITS = ['nofile=1024:1024', 'nproc=1000:1000'];

/**
 * The sandbox settings when bubblewrap works here (synchronous: used for the executor's defaults too). The
 * hidden paths are the operator's plus the credential files of the agent user's home (`home`).
 */
export function detectSandbox(
  hide: string[] = [],
  home?: string,
  expose: string[] = [],
): { sandbox?: SandboxSettings; problem?: string } {
  const binary = which('bwrap');
  if (!binary) return { problem: 'bubblewrap (bwrap) is not installed' };
  const problem = sandboxProblem(binary);
  return problem ? { problem } : { sandbox: { binary, hide: [...hide, ...homeCredentials(home)], expose } };
}

/**
 * Probes bubblewrap and podman. Problems are returned for the agent's log (an engine missing is not an
 * error by itself: the agent reports what it has).
 */
export async function detectEngines(
  o: DetectOptions,
): Promise<{ settings: EngineSettings; problems: string[] }> {
  const problems: string[] = [];
  const settings: EngineSettings = { plain: o.plain };
  const sb = detectSandbox(o.hide ?? [], undefined, o.expose ?? []);
  if (sb.sandbox) settings.sandbox = sb.sandbox;
  else if (o.plain === 'sandbox') problems.push(sb.problem ?? 'bubblewrap is not usable');
  if (o.podman !== false) {
    const binary = which('podman');
    if (!binary) problems.push('podman is not installed: jobs with an image cannot run here');
    else {
      const p: PodmanSettings = {
        binary,
        runtime: o.runtime || DEFAULT_RUNTIME,
        ulimits: o.ulimits ?? DEFAULT_ULIMITS,
        cpus: o.cpus,
        memory: o.memory,
        pids: o.pids,
        agentKey: agentKey(o.workdir),
      };
      const problem = await podmanProblem(p);
      if (problem) problems.push(problem);
      else settings.podman = p;
    }
  }
  return { settings, problems };
}

/** Removes the containers and networks a previous life of this agent left (see podman.ts). */
export async function sweepEngines(
  settings: EngineSettings,
): Promise<{ containers: number; networks: number; secrets: number }> {
  return settings.podman ? sweepLeftovers(settings.podman) : { containers: 0, networks: 0, secrets: 0 };
}
