// How each engine starts a job's processes: the script and the services, as programs with arguments. The
// host engine runs them as they are; the sandbox puts bubblewrap in front (the same mounts for the script,
// its services and their readiness commands); podman runs the job and its image services as containers on
// the job's network (container-job.ts). Whatever runs outside the job's isolation (bwrap, podman) gets the
// agent's own allow-listed environment, never the job's: a job variable like LD_PRELOAD would otherwise be
// obeyed by the host's dynamic loader for that program.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JobAssignment, ServiceAssignment } from '../job-spec.js';
import type { ContainerJob } from './container-job.js';
import type { EngineName, EngineSettings } from './engine.js';
import type { JobLog } from './log.js';
import type { Launch } from './runner.js';
import { type SandboxMounts, sandboxCommand, writeEnvFile } from './sandbox.js';
import type { ServiceLauncher } from './services.js';
import type { Workspace } from './workspace.js';

/** Where and how a job's processes run. */
export interface Place {
  engine: EngineName;
  /** The agent's work directory, hidden in the sandbox. */
  workdir: string;
  ws: Workspace;
  /** The environment of host and sandboxed processes. */
  env: Record<string, string>;
  /** The agent's allow-listed environment: what bwrap and podman themselves run with. */
  agentEnv: Record<string, string>;
  /** The environment inside containers (container paths, nothing of the host's). */
  containerEnv: Record<string, string>;
  containers?: ContainerJob;
  network: 'host' | 'none';
  log: JobLog;
  /** The directory of $GOCDNEXT_OUTPUT_FILE (writable by the job; mounted in its container). */
  outputDir?: string;
}

/** Where the output file's directory is mounted inside a job's container. */
export const CONTAINER_OUTPUT_DIR = '/gocdnext-output';

function mounts(place: Place, readOnly: string[], hostsFile?: string): SandboxMounts {
  return {
    workdir: place.workdir,
    writable: [place.ws.checkout, place.ws.tmp, ...(place.outputDir ? [place.outputDir] : [])],
    readOnly,
    hostsFile,
    // Rewritten at each launch: the environment may have grown since (CI_COMMIT_SHA after the checkout).
    envFile: writeEnvFile(join(place.ws.meta, 'sandbox-env'), place.env),
    cwd: place.ws.checkout,
    network: place.network,
  };
}

/** The host's /etc/hosts plus the job's service containers, so a sandboxed job reaches them by name. */
function hostsFile(place: Place): string | undefined {
  const hosts = place.containers?.serviceHosts;
  if (!hosts || hosts.size === 0) return undefined;
  let base = '';
  try {
    base = readFileSync('/etc/hosts', 'utf8');
  } catch {
    base = '127.0.0.1 localhost\n';
  }
  const file = join(place.ws.meta, 'hosts');
  const lines = [...hosts].map(([name, ip]) => `${ip} ${name}`);
  writeFileSync(file, `${base.trimEnd()}\n${lines.join('\n')}\n`, { mode: 0o644 });
  return file;
}

/** How the job's script starts; undefined for the host engine's default (bash on the host). */
export function scriptLaunch(engines: EngineSettings, job: JobAssignment, place: Place): Launch | undefined {
  const scriptPath = join(place.ws.meta, 'script.sh');
  if (place.engine === 'podman') {
    return place.containers!.jobContainer({
      image: job.image!,
      checkout: place.ws.checkout,
      scriptPath: job.script.length > 0 ? scriptPath : undefined,
      env: place.containerEnv,
      cwd: place.ws.checkout,
      log: (t) => place.log.error(t),
      volumes: place.outputDir ? [`${place.outputDir}:${CONTAINER_OUTPUT_DIR}`] : [],
    });
  }
  if (place.engine === 'sandbox') {
    // The runner writes the script before it starts the launch; bwrap binds the file read-only.
    const m = mounts(place, [scriptPath], hostsFile(place));
    return {
      command: engines.sandbox!.binary,
      args: sandboxCommand(engines.sandbox!, m, ['bash', '-eo', 'pipefail', scriptPath]),
      env: place.agentEnv,
      cwd: place.ws.checkout,
    };
  }
  return undefined;
}

/** Starts services where the job's engine runs things: containers for image services, else processes. */
export function serviceLauncher(engines: EngineSettings, place: Place): ServiceLauncher {
  const plain = (argv: string[]): { command: string; args: string[]; env: Record<string, string> } => {
    if (place.engine === 'sandbox')
      return {
        command: engines.sandbox!.binary,
        args: sandboxCommand(engines.sandbox!, mounts(place, []), argv),
        env: place.agentEnv,
      };
    return { command: argv[0]!, args: argv.slice(1), env: place.env };
  };
  const launcher: ServiceLauncher = {
    launch(spec: ServiceAssignment): Launch {
      if (spec.image) {
        return place.containers!.serviceContainer({
          service: spec.name,
          image: spec.image,
          command: spec.command,
          env: place.containerEnv,
          cwd: place.ws.checkout,
          log: (t) => place.log.error(t),
        });
      }
      return { ...plain(spec.command), cwd: place.ws.checkout };
    },
    probeCommand(spec, argv) {
      return spec.image ? place.containers!.execArgs(spec.name, argv, place.agentEnv) : plain(argv);
    },
  };
  if (place.containers) {
    const containers = place.containers;
    launcher.address = (spec, isDone, deadline) => containers.serviceAddress(spec.name, isDone, deadline);
  }
  return launcher;
}
