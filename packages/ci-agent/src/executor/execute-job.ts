// The agent-side execution of one job run attempt, end to end and independent of the network:
// workspace → checkout → cache restore → services → script (masked log) → services stop → artifacts and
// test reports → cache save → workspace removal, producing a JobResult. Cancellation and the job's timeout
// reach every phase (git, readiness waits and the script are killed with their process groups). The
// executor also tracks running jobs for graceful drain: drain() refuses new jobs and waits for the rest.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Masker } from '@app/kit';
import type { JobAssignment } from '../job-spec.js';
import {
  type CollectedArtifact,
  collectArtifacts,
  shouldCollectArtifacts,
  uploadArtifacts,
} from './artifacts.js';
import { type CacheContext, restoreCaches, saveCaches } from './cache.js';
import { type CacheStore, LocalCacheStore } from './cache-store.js';
import { checkout, repositoryPassword } from './checkout.js';
import { CONTAINER_WORKSPACE, ContainerJob } from './container-job.js';
import { detectSandbox, ENGINE_TEXT, type EngineName, type EngineSettings, engineFor } from './engine.js';
import { buildJobEnv, hostEnv } from './environment.js';
import {
  ExecutorDrainingError,
  type ExecutorOptions,
  type JobCallbacks,
  type JobPhase,
  type JobResult,
  type JobStatus,
  type RunningJob,
} from './job-contract.js';
import { collectTestReports, type TestReport } from './junit.js';
import { CONTAINER_OUTPUT_DIR, type Place, scriptLaunch, serviceLauncher } from './launches.js';
import { JobLog } from './log.js';
import { fetchNeededArtifacts, readOutputs } from './needed-artifacts.js';
import { formatDuration, type Launch, type ScriptResult, type ScriptRun, startScript } from './runner.js';
import { ServiceGroup } from './services.js';
import { createWorkspace, type Workspace } from './workspace.js';

// The executor's contract is part of its module's face: callers import it from here.
export * from './job-contract.js';

let defaultEngines: EngineSettings | undefined;
function sandboxOnly(): EngineSettings {
  defaultEngines ??= { plain: 'sandbox', sandbox: detectSandbox().sandbox };
  return defaultEngines;
}

type StopCause = { kind: 'cancel' | 'timeout'; reason: string };

export class JobExecutor {
  private readonly jobs = new Map<string, RunningJob>();
  private draining = false;
  readonly cacheStore: CacheStore;

  readonly engines: EngineSettings;

  constructor(private readonly opts: ExecutorOptions) {
    this.cacheStore = opts.cacheStore ?? new LocalCacheStore(join(opts.workdir, 'cache'));
    this.engines = opts.engines ?? sandboxOnly();
  }

  /** The engine that would run the job here (reported when the job starts), or why none can. */
  engineFor(job: JobAssignment): { engine: EngineName } | { error: string } {
    return engineFor(this.engines, job);
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** `<jobRunId>` of every job still running (for heartbeats). */
  get runningJobIds(): string[] {
    return [...this.jobs.values()].map((j) => j.jobRunId);
  }

  start(job: JobAssignment, callbacks: JobCallbacks): RunningJob {
    if (this.draining) throw new ExecutorDrainingError();
    const id = `${job.jobRunId}-${job.attempt}`;
    if (this.jobs.has(id))
      throw new Error(`job run ${job.jobRunId} attempt ${job.attempt} is already running`);
    const abort = new AbortController();
    const running: RunningJob = {
      jobRunId: job.jobRunId,
      attempt: job.attempt,
      result: undefined as unknown as Promise<JobResult>,
      cancel: (reason = 'canceled') => {
        if (!abort.signal.aborted) abort.abort({ kind: 'cancel', reason } satisfies StopCause);
      },
    };
    running.result = this.run(job, callbacks, abort).finally(() => this.jobs.delete(id));
    this.jobs.set(id, running);
    return running;
  }

  /** Cancels every running attempt of a job run; false when none runs here. */
  cancel(jobRunId: string, reason?: string): boolean {
    let found = false;
    for (const j of this.jobs.values()) {
      if (j.jobRunId === jobRunId) {
        j.cancel(reason);
        found = true;
      }
    }
    return found;
  }

  /** Refuses new jobs from now on and resolves when the running ones have finished. */
  async drain(): Promise<void> {
    this.draining = true;
    await Promise.allSettled([...this.jobs.values()].map((j) => j.result));
  }

  private async run(job: JobAssignment, cb: JobCallbacks, abort: AbortController): Promise<JobResult> {
    const started = new Date();
    const signal = abort.signal;
    const secretValues = Object.values(job.secrets ?? {});
    const urlPassword = job.git ? repositoryPassword(job.git.url) : undefined;
    if (urlPassword) secretValues.push(urlPassword);
    secretValues.push(...(job.logMasks ?? []));
    const log = new JobLog(cb.onLog, new Masker(secretValues), this.opts.maxLineChars, cb.logPressure);
    const phase = (p: JobPhase) => {
      try {
        cb.onPhase?.(p);
      } catch {
        // Progress reporting must not break the job.
      }
    };

    const timer =
      job.timeoutMs !== undefined && job.timeoutMs > 0
        ? setTimeout(() => {
            const cause: StopCause = {
              kind: 'timeout',
              reason: `timed out after ${formatDuration(job.timeoutMs!)}`,
            };
            if (!signal.aborted) abort.abort(cause);
          }, job.timeoutMs)
        : undefined;
    const stopCause = () => (signal.aborted ? (signal.reason as StopCause) : undefined);

    let ws: Workspace | undefined;
    let containers: ContainerJob | undefined;
    let engine: EngineName | undefined;
    let services: ServiceGroup | undefined;
    let script: ScriptResult | undefined;
    let checkedOut = false;
    let commit: string | undefined;
    let error: string | undefined;
    let testReport: TestReport | undefined;
    let artifacts: CollectedArtifact[] = [];
    let outputs: Record<string, string> | undefined;
    let status: JobStatus = 'failed';

    try {
      log.note(`job ${job.jobName} (run ${job.runCounter}, attempt ${job.attempt}) of ${job.pipelineName}`);
      const choice = engineFor(this.engines, job);
      if ('error' in choice) throw new Error(choice.error);
      engine = choice.engine;
      log.note(`engine: ${ENGINE_TEXT[engine]}${job.image ? ` (image ${job.image})` : ''}`);
      ws = createWorkspace(this.opts.workdir, job.jobRunId, job.attempt);
      const base = this.opts.baseEnv ?? hostEnv();
      // A sandboxed job cannot see the agent user's home (sandbox.ts): its HOME is its own TMPDIR, so tools
      // that keep a cache or config under ~ work, and nothing of the host's home is implied.
      const { env, rejected } = buildJobEnv(job, ws, engine === 'sandbox' ? { ...base, HOME: ws.tmp } : base);
      for (const r of rejected) log.error(`${r} cannot be exported (invalid name or NUL byte); skipped`);
      // Inside a container the host's environment means nothing: only the job's own, at container paths.
      const containerEnv = buildJobEnv(job, { checkout: CONTAINER_WORKSPACE, tmp: '/tmp' }, {}).env;
      // gocdnext's output file: a directory of its own, writable by the job whatever its engine.
      const outputDir = join(ws.root, 'outputs');
      mkdirSync(outputDir, { mode: 0o700 });
      env.GOCDNEXT_OUTPUT_FILE = join(outputDir, 'outputs.env');
      containerEnv.GOCDNEXT_OUTPUT_FILE = `${CONTAINER_OUTPUT_DIR}/outputs.env`;
      if (this.engines.podman && (job.image || job.services.some((s) => s.image))) {
        containers = new ContainerJob({
          settings: this.engines.podman,
          id: `${job.jobRunId}-${job.attempt}`,
          metaDir: ws.meta,
          network: job.network ?? 'host',
          withServices: job.services.length > 0,
        });
      }

      if (job.git) {
        phase('checkout');
        const co = await checkout({
          url: job.git.url,
          revision: job.git.revision,
          branch: job.git.branch,
          dir: ws.checkout,
          env: this.opts.baseEnv ?? hostEnv(),
          signal,
          note: (t) => log.note(t),
        });
        commit = co.commit;
        if (!env.CI_COMMIT_SHA) env.CI_COMMIT_SHA = commit;
        if (!env.CI_COMMIT_SHORT_SHA) env.CI_COMMIT_SHORT_SHA = commit.slice(0, 8);
      } else {
        log.note('no git material: the job runs in an empty workspace');
      }
      // The workspace is ready (checked out, or empty by design): artifacts and reports are collected.
      checkedOut = true;

      const cacheCtx: CacheContext = {
        store: this.cacheStore,
        project: job.projectSlug,
        checkout: ws.checkout,
        stagingDir: ws.meta,
        note: (t) => log.note(t),
        warn: (t) => log.error(t),
      };
      let restored: Awaited<ReturnType<typeof restoreCaches>> = [];
      if (job.cache.length > 0 && !signal.aborted) {
        phase('cache_restore');
        restored = await restoreCaches(job.cache, cacheCtx);
      }

      const needed = job.neededArtifacts ?? [];
      if (needed.length > 0 && !signal.aborted) {
        phase('needed_artifacts');
        const downloader = cb.artifactDownloader;
        if (!downloader) throw new Error('this agent cannot download the artifacts the job needs');
        await fetchNeededArtifacts(ws.checkout, ws.meta, needed, downloader, (t) => log.note(t));
      }

      if (containers && !signal.aborted) {
        error = await containers.prepareAll([job, ...job.services], (t) => log.note(t), signal);
        if (!error && !signal.aborted) error = await containers.storeMultiline(containerEnv, signal);
        if (error && !signal.aborted) log.error(error);
      }

      const place: Place = {
        engine,
        workdir: this.opts.workdir,
        ws,
        env,
        agentEnv: this.opts.baseEnv ?? hostEnv(),
        containerEnv,
        containers,
        network: job.network ?? 'host',
        log,
        outputDir,
      };
      if (job.services.length > 0 && !signal.aborted && !error) {
        phase('services');
        services = new ServiceGroup({
          services: job.services,
          cwd: ws.checkout,
          env,
          log,
          onEvent: cb.onServiceEvent,
          killGraceMs: this.opts.serviceKillGraceMs,
          launcher: serviceLauncher(this.engines, place),
        });
        const failure = await services.start(signal);
        if (failure && !signal.aborted) error = failure;
      }

      if (!error && !signal.aborted) {
        phase('script');
        script = await this.runScript(job, env, ws, log, abort, scriptLaunch(this.engines, job, place));
        if (script.exitCode !== 0 && !stopCause()) error = script.summary;
        else if (job.outputs && Object.keys(job.outputs).length > 0 && !stopCause()) {
          const read = await readOutputs(env.GOCDNEXT_OUTPUT_FILE, job.outputs);
          if ('error' in read) {
            error = read.error;
            log.error(read.error);
          } else {
            outputs = read.outputs;
            log.note(`outputs: ${Object.keys(outputs).join(', ')}`);
          }
        }
      }

      // Stop services before collecting outputs: a service flushing files on SIGTERM has them in place.
      await services?.stopAll();
      services = undefined;

      const cause = stopCause();
      if (cause?.kind === 'timeout') error = cause.reason;
      const succeeded = !cause && !error && script?.exitCode === 0;

      if (checkedOut && cause?.kind !== 'cancel') {
        const uploader = cb.artifactUploader ?? this.opts.artifactUploader;
        if (job.artifacts && shouldCollectArtifacts(job.artifacts.when, succeeded)) {
          phase('artifacts');
          const collected = await collectArtifacts(ws.checkout, job.artifacts.paths);
          for (const w of collected.warnings) log.error(w);
          try {
            artifacts = uploader ? await uploadArtifacts(collected.artifacts, uploader) : collected.artifacts;
            if (artifacts.length)
              log.note(`${artifacts.length} artifact file(s) ${uploader ? 'uploaded' : 'collected'}`);
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            log.error(message);
            if (!error) error = message;
          }
        }
        if (job.testReports.length > 0) {
          phase('test_reports');
          testReport = await collectTestReports(ws.checkout, job.testReports);
          if (testReport) {
            log.note(
              `test report: ${testReport.tests} tests, ${testReport.failures} failures, ${testReport.errors} errors, ${testReport.skipped} skipped`,
            );
            for (const u of testReport.unreadable ?? [])
              log.error(`test report ${u.file} is unreadable: ${u.error}`);
          } else log.error(`no test report matches ${job.testReports.join(', ')}`);
        }
        if (succeeded && !error && job.cache.length > 0 && !signal.aborted) {
          phase('cache_save');
          await saveCaches(job.cache, restored, cacheCtx);
        }
      }

      const finalCause = stopCause();
      if (finalCause?.kind === 'cancel') {
        status = 'canceled';
        error = finalCause.reason;
      } else {
        if (finalCause?.kind === 'timeout' && !error) error = finalCause.reason;
        status = error ? 'failed' : 'success';
      }
    } catch (err) {
      const cause = stopCause();
      if (cause?.kind === 'cancel') {
        status = 'canceled';
        error = cause.reason;
      } else {
        status = 'failed';
        error = cause?.kind === 'timeout' ? cause.reason : err instanceof Error ? err.message : String(err);
        log.error(error);
      }
    } finally {
      if (timer) clearTimeout(timer);
      await services?.stopAll().catch(() => undefined);
      // Whatever the job's containers and network are doing, they go (a canceled job leaves nothing).
      await containers
        ?.cleanup()
        .catch((err) => log.error(`could not remove the job's containers: ${String(err)}`));
    }

    phase('cleanup');
    if (ws && !(status === 'failed' && this.opts.keepFailedWorkspaces)) {
      await ws.remove().catch((err) => log.error(`could not remove the workspace: ${String(err)}`));
    } else if (ws) log.note(`workspace kept at ${ws.root}`);
    log.note(status === 'success' ? 'job succeeded' : `job ${status}${error ? `: ${error}` : ''}`);

    const result: JobResult = {
      status,
      exit_code: script ? script.exitCode : null,
      artifacts,
      log_lines: 0,
      started_at: started.toISOString(),
      finished_at: new Date().toISOString(),
    };
    if (engine) result.engine = engine;
    if (error) result.error = log.masker.mask(error);
    if (testReport) result.test_report = testReport;
    if (commit) result.commit = commit;
    if (outputs && status === 'success') result.outputs = outputs;
    log.flush();
    result.log_lines = log.lines;
    return result;
  }

  private runScript(
    job: JobAssignment,
    env: Record<string, string>,
    ws: Workspace,
    log: JobLog,
    abort: AbortController,
    launch: Launch | undefined,
  ): Promise<ScriptResult> {
    const run: ScriptRun = startScript({
      script: job.script,
      cwd: ws.checkout,
      env,
      scriptPath: join(ws.meta, 'script.sh'),
      log,
      killGraceMs: this.opts.killGraceMs,
      launch,
    });
    const onAbort = () => {
      const cause = abort.signal.reason as StopCause;
      run.stop(cause.kind, cause.reason);
    };
    if (abort.signal.aborted) onAbort();
    else abort.signal.addEventListener('abort', onAbort, { once: true });
    return run.result.finally(() => abort.signal.removeEventListener('abort', onAbort));
  }
}
