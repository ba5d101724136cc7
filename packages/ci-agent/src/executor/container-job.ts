// One job's containers under podman: its private network (services reach each other and the job by name),
// the service containers, and the job's own container — the checkout mounted as the working directory, the
// script mounted read-only (or, with no script, the image's own entrypoint and command: how plugins run).
// Variables and secrets reach the container as environment through a 0600 `--env-file` in the workspace's
// agent-private directory (never mounted, never on a command line); a value with a line break, which an env
// file cannot hold, becomes a podman secret (created from stdin, handed over as `--secret
// <name>,type=env,target=NAME`, removed after the job). No job value ever enters podman's own environment:
// podman is a dynamically linked program running on the host, and a job variable named LD_PRELOAD or
// LD_LIBRARY_PATH (relative to the checkout, podman's working directory) would make the loader run the
// job's code there, outside any container; nor can a job configure podman (CONTAINERS_CONF, ...) that way.
// Everything carries the agent's and the job's labels (secrets: the agent's name prefix) and is removed after
// the job.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostEnv } from './environment.js';
import {
  AGENT_LABEL,
  ensureImage,
  imageProblem,
  JOB_LABEL,
  lastLine,
  namePrefix,
  type PodmanSettings,
  type PullPolicy,
  podman,
} from './podman.js';

/** Where the checkout is mounted inside a job's container (CI_WORKSPACE there). */
export const CONTAINER_WORKSPACE = '/workspace';
/** Where the generated script is mounted inside a job's container. */
export const CONTAINER_SCRIPT = '/ci-agent/script.sh';

/** Runs the script with bash when the image has it, else a POSIX sh (with pipefail where it knows it). */
const SCRIPT_WRAPPER = `if command -v bash >/dev/null 2>&1; then exec bash -eo pipefail ${CONTAINER_SCRIPT}; fi; if (set -o pipefail) 2>/dev/null; then exec sh -eo pipefail ${CONTAINER_SCRIPT}; fi; exec sh -e ${CONTAINER_SCRIPT}`;

export interface ContainerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  stop(graceMs: number): Promise<void>;
}

export interface ContainerJobOptions {
  settings: PodmanSettings;
  /** `<jobRunId>-<attempt>`: names and the job label. */
  id: string;
  /** The agent-private directory of the workspace (env files). */
  metaDir: string;
  /** `none`: the job's network reaches nothing outside (an internal network, or none without services). */
  network: 'host' | 'none';
  /** Whether the job has service containers (they need the private network). */
  withServices: boolean;
}

export class ContainerJob {
  readonly network: string;
  private readonly names: string[] = [];
  private readonly hosts = new Map<string, string>();
  private networkMade = false;
  private files = 0;
  /** Podman secrets holding multi-line values: `NAME\0value` → secret name. */
  private readonly secrets = new Map<string, string>();

  constructor(private readonly opts: ContainerJobOptions) {
    this.network = `${namePrefix(opts.settings)}${opts.id}`;
  }

  private labels(): string[] {
    return [
      '--label',
      `${AGENT_LABEL}=${this.opts.settings.agentKey}`,
      '--label',
      `${JOB_LABEL}=${this.opts.id}`,
    ];
  }

  /** Services by name → address, for /etc/hosts of a sandboxed job and `--add-host` of containers. */
  get serviceHosts(): ReadonlyMap<string, string> {
    return this.hosts;
  }

  /** Pulls what the pull policies ask for, then makes the network; the first reason the job cannot run. */
  async prepareAll(
    users: { image?: string; pull?: PullPolicy }[],
    note: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    for (const u of users) {
      if (!u.image) continue;
      const bad = imageProblem(u.image);
      if (bad) return bad;
      const why = await ensureImage(this.opts.settings, u.image, u.pull ?? 'if-not-present', note, signal);
      if (why) return why;
    }
    return signal?.aborted ? undefined : this.prepare(signal);
  }

  /**
   * Creates the job's private network (not the shared default bridge: one job's containers never reach
   * another's), unless the job has no network and no services; the reason when it cannot.
   */
  async prepare(signal?: AbortSignal): Promise<string | undefined> {
    if (this.opts.network === 'none' && !this.opts.withServices) return undefined;
    const r = await podman(
      this.opts.settings,
      [
        'network',
        'create',
        ...this.labels(),
        ...(this.opts.network === 'none' ? ['--internal'] : []),
        this.network,
      ],
      { signal },
    );
    if (r.code !== 0) return `cannot create the job's network: ${lastLine(r.stderr)}`;
    this.networkMade = true;
    return undefined;
  }

  /**
   * Makes a podman secret of every value with a line break (an env file cannot hold one); run before the
   * containers start. The reason when podman refuses.
   */
  async storeMultiline(env: Record<string, string>, signal?: AbortSignal): Promise<string | undefined> {
    for (const [k, v] of Object.entries(env)) {
      if (!/[\r\n]/.test(v) || this.secrets.has(`${k}\0${v}`)) continue;
      const name = `${this.network}-env-${this.secrets.size + 1}`;
      // From a 0600 file of the agent-private directory, removed at once (podman 4.3 takes stdin only
      // from a FIFO, and an environment variable is what this avoids).
      const file = join(this.opts.metaDir, `${name}.value`);
      writeFileSync(file, v, { mode: 0o600 });
      const r = await podman(this.opts.settings, ['secret', 'create', ...this.labels(), name, file], {
        signal,
      }).finally(() => rmSync(file, { force: true }));
      if (r.code !== 0)
        return `cannot hand ${k} (a multi-line value) to the container: ${lastLine(r.stderr)}`;
      this.secrets.set(`${k}\0${v}`, name);
    }
    return undefined;
  }

  /** Environment as an env file plus `--secret` for multi-line values; podman itself runs with the agent's. */
  private environment(env: Record<string, string>, log: (t: string) => void) {
    const lines: string[] = [];
    const fromSecrets: string[] = [];
    for (const [k, v] of Object.entries(env)) {
      if (!/[\r\n]/.test(v)) lines.push(`${k}=${v}`);
      else {
        const secret = this.secrets.get(`${k}\0${v}`);
        if (secret) fromSecrets.push('--secret', `${secret},type=env,target=${k}`);
        else log(`${k} holds a line break and could not be handed to the container; not passed`);
      }
    }
    const file = join(this.opts.metaDir, `env-${++this.files}`);
    writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
    return { args: ['--env-file', file, ...fromSecrets], processEnv: hostEnv() };
  }

  private common(name: string): string[] {
    const s = this.opts.settings;
    const args = ['run', '--rm', '--name', name, ...this.labels(), '--pull', 'never'];
    for (const u of s.ulimits) args.push('--ulimit', u);
    if (s.cpus) args.push('--cpus', s.cpus);
    if (s.memory) args.push('--memory', s.memory);
    if (s.pids) args.push('--pids-limit', String(s.pids));
    return args;
  }

  private launch(
    name: string,
    args: string[],
    processEnv: Record<string, string>,
    cwd: string,
  ): ContainerLaunch {
    this.names.push(name);
    return {
      command: this.opts.settings.binary,
      args: ['--runtime', this.opts.settings.runtime, ...args],
      env: processEnv,
      cwd,
      // The client may be gone (SIGKILL) while the container lives on: stop the container itself.
      stop: async (graceMs) => {
        await podman(this.opts.settings, ['stop', '-t', String(Math.ceil(graceMs / 1000)), name]);
      },
    };
  }

  /** The job's container: the script through a shell, or the image's entrypoint when there is no script. */
  jobContainer(o: {
    image: string;
    checkout: string;
    scriptPath?: string;
    env: Record<string, string>;
    cwd: string;
    log: (t: string) => void;
    /** Extra `host:container` bind mounts (the job's output directory). */
    volumes?: string[];
  }): ContainerLaunch {
    const name = `${this.network}-job`;
    const { args: envArgs, processEnv } = this.environment(o.env, o.log);
    const args = [...this.common(name), ...envArgs];
    // Without a private network (network none and no services) the job has no network at all.
    args.push('--network', this.networkMade ? this.network : 'none');
    for (const [host, ip] of this.hosts) args.push('--add-host', `${host}:${ip}`);
    args.push('--volume', `${o.checkout}:${CONTAINER_WORKSPACE}`, '--workdir', CONTAINER_WORKSPACE);
    for (const v of o.volumes ?? []) args.push('--volume', v);
    if (o.scriptPath) {
      args.push('--volume', `${o.scriptPath}:${CONTAINER_SCRIPT}:ro`, '--entrypoint', '/bin/sh', o.image);
      args.push('-c', SCRIPT_WRAPPER);
    } else args.push(o.image);
    return this.launch(name, args, processEnv, o.cwd);
  }

  /** A service container on the job's network; its command replaces the image's when given. */
  serviceContainer(o: {
    service: string;
    image: string;
    command: string[];
    env: Record<string, string>;
    cwd: string;
    log: (t: string) => void;
  }): ContainerLaunch {
    const name = `${this.network}-svc-${o.service}`;
    const { args: envArgs, processEnv } = this.environment(o.env, o.log);
    const args = [...this.common(name), ...envArgs, '--network', this.network, '--hostname', o.service];
    for (const [host, ip] of this.hosts) args.push('--add-host', `${host}:${ip}`);
    args.push(o.image, ...o.command);
    return this.launch(name, args, processEnv, o.cwd);
  }

  /** Waits until the service's container has an address on the job's network (and remembers it). */
  async serviceAddress(
    service: string,
    isDone: () => boolean,
    deadline: number,
  ): Promise<string | undefined> {
    const name = `${this.network}-svc-${service}`;
    const format = `{{(index .NetworkSettings.Networks "${this.network}").IPAddress}}`;
    while (Date.now() < deadline && !isDone()) {
      const r = await podman(this.opts.settings, ['container', 'inspect', '--format', format, name]);
      const ip = r.code === 0 ? r.stdout.trim() : '';
      if (ip && ip !== '<no value>') {
        this.hosts.set(service, ip);
        return ip;
      }
      await new Promise((res) => setTimeout(res, 100));
    }
    return undefined;
  }

  /** argv running a readiness command inside a service's container (podman with the agent's `env`). */
  execArgs(
    service: string,
    command: string[],
    env: Record<string, string>,
  ): { command: string; args: string[]; env: Record<string, string> } {
    return {
      command: this.opts.settings.binary,
      args: ['--runtime', this.opts.settings.runtime, 'exec', `${this.network}-svc-${service}`, ...command],
      env,
    };
  }

  /** Removes the job's containers and network, whatever state they are in. */
  async cleanup(): Promise<void> {
    const s = this.opts.settings;
    if (this.names.length > 0) await podman(s, ['rm', '-f', '-t', '0', '--ignore', ...this.names]);
    if (this.networkMade) await podman(s, ['network', 'rm', '-f', this.network]);
    if (this.secrets.size > 0) await podman(s, ['secret', 'rm', ...this.secrets.values()]);
  }
}
