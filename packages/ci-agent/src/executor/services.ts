// Services of a job (spec/pipeline-yaml.md `services`): long-running helpers started before the script,
// each in its own process group, and probed until ready (TCP connect, HTTP GET 2xx, or a command exiting 0)
// within its timeout. Lifecycle events `starting`, `ready`, `failed`, `stopped` feed the server's service-run
// rows. Their output goes to the job log prefixed with `[name] `. All are stopped after the job, whatever
// its outcome.
import { canConnect } from '@app/kit';
import type { ServiceAssignment, ServiceReadySpec } from '../job-spec.js';
import type { JobLog } from './log.js';
import { type GroupProcess, spawnGroup, terminateGroup } from './process-group.js';
import { formatDuration, type Launch } from './runner.js';

export type ServiceState = 'starting' | 'ready' | 'failed' | 'stopped';

export interface ServiceEvent {
  service: string;
  state: ServiceState;
  /** RFC 3339 */
  at: string;
  /** Why it failed (masked like log lines). */
  message?: string;
  exit_code?: number | null;
}

export type ServiceEventSink = (event: ServiceEvent) => void;

export const DEFAULT_READY_TIMEOUT_MS = 30_000;
const PROBE_INTERVAL_MS = 200;
const PROBE_ATTEMPT_MAX_MS = 5_000;

export interface ServiceGroupOptions {
  services: ServiceAssignment[];
  cwd: string;
  env: Record<string, string>;
  log: JobLog;
  onEvent?: ServiceEventSink;
  /** Time between SIGTERM and SIGKILL when stopping; default 5 s. */
  killGraceMs?: number;
  /** How the job's engine starts services and readiness commands; default plain processes on the host. */
  launcher?: ServiceLauncher;
}

/** The engine's side of services: a sandboxed process, or a container on the job's network. */
export interface ServiceLauncher {
  launch(spec: ServiceAssignment): Launch;
  /** A readiness command, run where the service runs (with `env` when the engine says, e.g. podman exec). */
  probeCommand(
    spec: ServiceAssignment,
    argv: string[],
  ): { command: string; args: string[]; env?: Record<string, string> };
  /** The address probes reach a container service at (resolves once it has one); 127.0.0.1 without it. */
  address?(spec: ServiceAssignment, isDone: () => boolean, deadline: number): Promise<string | undefined>;
}

/** A readiness URL naming the service or the loopback points at the service's address instead. */
function probeUrl(url: string, spec: ServiceAssignment, host: string): string {
  try {
    const u = new URL(url);
    if (['127.0.0.1', 'localhost', spec.name].includes(u.hostname)) u.hostname = host;
    return u.toString();
  } catch {
    return url;
  }
}

interface Running {
  spec: ServiceAssignment;
  proc: GroupProcess;
  state: ServiceState;
  output: Promise<void>[];
  stop?: (graceMs: number) => Promise<void>;
  /** Where probes connect (the container's address for a container service). */
  host: string;
  /** Set by stopAll(), so the exit it causes is not reported as a crash. */
  stopping?: boolean;
}

function describeProbe(ready: ServiceReadySpec | undefined): string {
  if (ready?.tcp !== undefined) return `tcp 127.0.0.1:${ready.tcp}`;
  if (ready?.http) return `http ${ready.http}`;
  if (ready?.command) return `command ${ready.command.join(' ')}`;
  return 'start';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ServiceGroup {
  private readonly running: Running[] = [];
  private readonly abort = new AbortController();

  constructor(private readonly opts: ServiceGroupOptions) {}

  private emit(r: Running, state: ServiceState, extra: Partial<ServiceEvent> = {}): void {
    r.state = state;
    const event: ServiceEvent = { service: r.spec.name, state, at: new Date().toISOString(), ...extra };
    if (event.message) event.message = this.opts.log.masker.mask(event.message);
    try {
      this.opts.onEvent?.(event);
    } catch {
      // The sink's trouble is not the job's.
    }
  }

  /**
   * Starts every service and waits until all are ready. Returns undefined when they are, or the reason the
   * first one failed (the others' waits are abandoned; call stopAll() in every case).
   */
  async start(signal?: AbortSignal): Promise<string | undefined> {
    const onAbort = () => this.abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const outcomes = await Promise.all(this.opts.services.map((s) => this.startOne(s)));
      if (signal?.aborted) return 'canceled while starting services';
      return outcomes.find((o) => o !== undefined);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async startOne(spec: ServiceAssignment): Promise<string | undefined> {
    const [cmd, ...args] = spec.command;
    if (!cmd && !spec.image) {
      const message = `service ${spec.name} has no command`;
      this.opts.log.error(message);
      this.abort.abort();
      return message;
    }
    const launch = this.opts.launcher?.launch(spec) ?? {
      command: cmd!,
      args,
      env: this.opts.env,
      cwd: this.opts.cwd,
    };
    const proc = spawnGroup(launch.command, launch.args, { cwd: launch.cwd, env: launch.env });
    const r: Running = { spec, proc, state: 'starting', output: [], stop: launch.stop, host: '127.0.0.1' };
    this.running.push(r);
    this.emit(r, 'starting');
    const what = spec.image
      ? `image ${spec.image}${cmd ? ` ${spec.command.join(' ')}` : ''}`
      : spec.command.join(' ');
    this.opts.log.note(`starting service ${spec.name}: ${what}`);
    if (proc.child.stdout)
      r.output.push(this.opts.log.follow(proc.child.stdout, 'stdout', `[${spec.name}] `));
    if (proc.child.stderr)
      r.output.push(this.opts.log.follow(proc.child.stderr, 'stderr', `[${spec.name}] `));

    const failure = await this.waitReady(r);
    if (failure === undefined) {
      this.emit(r, 'ready');
      this.opts.log.note(`service ${spec.name} is ready`);
      // A service that dies during the job is reported, but does not by itself fail the job.
      proc.exited.then((exit) => {
        if (r.state !== 'ready' || r.stopping) return;
        const message = `service ${spec.name} exited during the job (${exit.signal ?? `exit code ${exit.code}`})`;
        this.opts.log.error(message);
        this.emit(r, 'failed', { message, exit_code: exit.code });
      });
      return undefined;
    }
    if (failure === 'aborted') return undefined;
    this.abort.abort(); // the job cannot run: stop waiting for the others
    this.opts.log.error(failure);
    const exit = proc.done ? await proc.exited : undefined;
    this.emit(r, 'failed', { message: failure, exit_code: exit?.code });
    await this.terminate(r);
    return failure;
  }

  /** undefined when ready; 'aborted' when another service failed or the job was canceled; else the reason. */
  private async waitReady(r: Running): Promise<string | undefined> {
    const { spec, proc } = r;
    const ready = spec.ready;
    const timeoutMs = ready?.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const spawnError = await proc.spawned;
    if (spawnError) return `cannot start service ${spec.name}: ${spawnError.message}`;
    if (spec.image && this.opts.launcher?.address) {
      const address = await this.opts.launcher.address(
        spec,
        () => proc.done || this.abort.signal.aborted,
        deadline,
      );
      if (this.abort.signal.aborted) return 'aborted';
      if (!address && !proc.done)
        return `service ${spec.name} got no address on the job's network within ${formatDuration(timeoutMs)}`;
      if (address) r.host = address;
    }
    for (;;) {
      if (this.abort.signal.aborted) return 'aborted';
      if (proc.done) {
        const exit = await proc.exited;
        if (exit.error) return `cannot start service ${spec.name}: ${exit.error.message}`;
        return `service ${spec.name} exited before it was ready (${exit.signal ?? `exit code ${exit.code}`})`;
      }
      const remaining = deadline - Date.now();
      if (!ready || (ready.tcp === undefined && !ready.http && !ready.command)) return undefined;
      if (await this.probe(r, ready, Math.max(100, Math.min(remaining, PROBE_ATTEMPT_MAX_MS)))) {
        return proc.done ? `service ${spec.name} exited before it was ready` : undefined;
      }
      if (Date.now() >= deadline) {
        return `service ${spec.name} was not ready within ${formatDuration(timeoutMs)} (${describeProbe(ready)})`;
      }
      await sleep(Math.min(PROBE_INTERVAL_MS, Math.max(0, deadline - Date.now())));
    }
  }

  private async probe(r: Running, ready: ServiceReadySpec, attemptMs: number): Promise<boolean> {
    if (ready.tcp !== undefined) return canConnect(ready.tcp, r.host, attemptMs);
    if (ready.http) {
      try {
        const url = r.spec.image ? probeUrl(ready.http, r.spec, r.host) : ready.http;
        const res = await fetch(url, { signal: AbortSignal.timeout(attemptMs), redirect: 'manual' });
        await res.body?.cancel();
        return res.status >= 200 && res.status < 300;
      } catch {
        return false;
      }
    }
    if (ready.command && ready.command.length > 0) {
      const [cmd, ...args] = ready.command;
      const run = this.opts.launcher?.probeCommand(r.spec, ready.command) ?? { command: cmd, args };
      const check = spawnGroup(run.command, run.args, { cwd: this.opts.cwd, env: run.env ?? this.opts.env });
      check.child.stdout?.resume();
      check.child.stderr?.resume();
      const timer = setTimeout(() => void terminateGroup(check.pid, 1_000), attemptMs);
      const exit = await check.exited;
      clearTimeout(timer);
      return exit.code === 0;
    }
    return true;
  }

  private async terminate(r: Running): Promise<void> {
    const grace = this.opts.killGraceMs ?? 5_000;
    await Promise.all([terminateGroup(r.proc.pid, grace), r.stop?.(grace)]);
  }

  /** Stops every started service (SIGTERM, then SIGKILL after the grace period) and waits for them. */
  async stopAll(): Promise<void> {
    this.abort.abort();
    await Promise.all(
      this.running.map(async (r) => {
        r.stopping = true;
        await this.terminate(r);
        await Promise.race([Promise.all(r.output), sleep(2_000)]);
        // A process that left the group may still hold the pipes: no line may follow the job's result.
        r.proc.child.stdout?.destroy();
        r.proc.child.stderr?.destroy();
        if (r.state === 'starting' || r.state === 'ready') {
          this.emit(r, 'stopped');
          this.opts.log.note(`service ${r.spec.name} stopped`);
        }
      }),
    );
  }
}
