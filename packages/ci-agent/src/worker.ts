// The agent's worker: takes assignments from the session stream, runs them with the JobExecutor (at most
// CI_AGENT_CAPACITY at once), ships their logs, reports start, service events, test results and the end,
// uploads artifacts, honours cancellations, and drains on SIGTERM. A job stays "running" in heartbeats until
// its final report is delivered, so the server keeps its lease while the agent is still catching up. The
// jobs' log batches travel together, one call per turn for all of them (log-courier.ts), and so do their
// reports (report-courier.ts).
import type { JobAssignment as JobAssignmentMessage, ServerMessage } from '@app/ci-proto';
import { Code, ConnectError } from '@connectrpc/connect';
import { type AgentConnection, isTransient } from './connection.js';
import type { JobExecutor, JobResult } from './executor/execute-job.js';
import type { ServiceEvent } from './executor/services.js';
import { GrpcArtifactDownloader } from './grpc-artifact-downloader.js';
import { GrpcArtifactUploader } from './grpc-uploader.js';
import type { ArtifactWhen, JobAssignment, PullPolicy, ServiceReadySpec } from './job-spec.js';
import { LogCourier } from './log-courier.js';
import { LogShipper } from './log-shipper.js';
import { type JobReportInit, ReportCourier } from './report-courier.js';

export type WorkerLog = (
  level: 'info' | 'warn' | 'error',
  msg: string,
  extra?: Record<string, unknown>,
) => void;

/** How long a final report is retried while the control plane is unreachable. */
const REPORT_RETRY_MS = 60 * 60_000;
const SIDE_REPORT_RETRY_MS = 60_000;

export function toJobAssignment(a: JobAssignmentMessage): JobAssignment {
  const ready = (
    r: NonNullable<JobAssignmentMessage['services'][number]['ready']>,
  ): ServiceReadySpec | undefined => {
    const spec: ServiceReadySpec = {};
    if (r.tcp > 0) spec.tcp = r.tcp;
    else if (r.http) spec.http = r.http;
    else if (r.command.length > 0) spec.command = [...r.command];
    if (r.timeoutMs > 0) spec.timeoutMs = r.timeoutMs;
    return Object.keys(spec).length > 0 ? spec : undefined;
  };
  return {
    jobRunId: a.jobRunId,
    attempt: a.attempt,
    projectSlug: a.projectSlug,
    pipelineName: a.pipelineName,
    pipelineId: a.pipelineId,
    runId: a.runId,
    runCounter: a.runCounter,
    jobName: a.jobName,
    cause: a.cause,
    // No git source: the pipeline has no git material and the job runs in an empty workspace.
    git: a.git?.url ? { url: a.git.url, revision: a.git.revision, branch: a.git.branch } : undefined,
    script: [...a.script],
    env: { ...a.env },
    secrets: { ...a.secrets },
    services: a.services.map((s) => ({
      name: s.name,
      command: [...s.command],
      ready: s.ready ? ready(s.ready) : undefined,
      ...(s.image ? { image: s.image, pull: pullPolicy(s.pull) } : {}),
    })),
    cache: a.cache.map((c) => ({ key: c.key, paths: [...c.paths] })),
    artifacts:
      a.artifacts && a.artifacts.paths.length > 0
        ? { paths: [...a.artifacts.paths], when: (a.artifacts.when || 'on_success') as ArtifactWhen }
        : undefined,
    testReports: [...a.testReports],
    timeoutMs: a.timeoutMs > 0n ? Number(a.timeoutMs) : undefined,
    ...(a.image ? { image: a.image, pull: pullPolicy(a.pull) } : {}),
    ...(a.network === 'none' ? { network: 'none' as const } : {}),
    ...(a.neededArtifacts.length > 0
      ? {
          neededArtifacts: a.neededArtifacts.map((n) => ({
            artifactId: n.artifactId,
            path: n.path,
            dest: n.dest,
            sizeBytes: Number(n.sizeBytes),
            contentSha256: n.contentSha256,
            fromJob: n.fromJob,
          })),
        }
      : {}),
    ...(Object.keys(a.outputs).length > 0 ? { outputs: { ...a.outputs } } : {}),
    ...(a.logMasks.length > 0 ? { logMasks: [...a.logMasks] } : {}),
  };
}

/**
 * The agent's log courier over its connection: PushLogBatches for a turn's batches, PushLogs one by one
 * for a control plane that predates it. No retry here: each job's shipper retries its own batch.
 */
export function courierOf(connection: AgentConnection): LogCourier {
  return new LogCourier({
    many: async (batches) =>
      (await connection.call((o) => connection.client.pushLogBatches({ batches }, o), 0)).results,
    one: async (batch) =>
      Number((await connection.call((o) => connection.client.pushLogs(batch, o), 0)).ackedSeq),
    session: () => connection.sessionId,
  });
}

/**
 * The agent's report courier over its connection: a turn's reports on the session stream, tried once (a
 * control plane that does not take them there answers as one that does not know the way: each report then
 * goes with ReportJob for that session); ReportJob, with the report's own retry window, for what the stream
 * could not deliver.
 */
export function reportCourierOf(connection: AgentConnection): ReportCourier {
  return new ReportCourier({
    many: async (reports) => {
      const answer = connection.reportOnSession(reports);
      if (!answer)
        throw new ConnectError('the control plane takes no reports on the session', Code.Unimplemented);
      return answer;
    },
    one: async (report, retryMs) => {
      await connection.call((o) => connection.client.reportJob(report, o), retryMs);
    },
    session: () => connection.sessionId,
  });
}

function pullPolicy(p: string): PullPolicy {
  return p === 'always' || p === 'never' ? p : 'if-not-present';
}

interface WorkerJob {
  shipper: LogShipper;
  /** Service events are sent one after another, so their order survives. */
  services: Promise<void>;
  done: Promise<void>;
}

export class Worker {
  private readonly jobs = new Map<string, WorkerJob>();
  private draining = false;
  private aborting = false;
  /** Every job's log batches of one turn in one call (log-courier.ts). */
  private readonly courier: LogCourier;
  /** Every report of one turn in one call (report-courier.ts). */
  private readonly reports: ReportCourier;

  constructor(
    private readonly capacity: number,
    private readonly connection: AgentConnection,
    private readonly executor: JobExecutor,
    private readonly log: WorkerLog,
  ) {
    connection.runningJobIds = () => [...this.jobs.keys()];
    this.courier = courierOf(connection);
    this.reports = reportCourierOf(connection);
    connection.freeSlots = () => (this.draining ? 0 : this.capacity - this.jobs.size);
  }

  get running(): number {
    return this.jobs.size;
  }

  onRegistered(cancelJobIds: string[]): void {
    for (const id of cancelJobIds) this.cancel(id, 'the control plane no longer expects this job');
  }

  onServerMessage(message: ServerMessage): void {
    switch (message.kind.case) {
      case 'assignment':
        this.accept(message.kind.value);
        break;
      case 'cancel':
        this.cancel(message.kind.value.jobRunId, message.kind.value.reason || 'canceled');
        break;
      case 'heartbeatAck':
        for (const id of message.kind.value.cancelJobIds)
          this.cancel(id, 'the control plane no longer expects this job');
        break;
    }
  }

  private cancel(jobRunId: string, reason: string): void {
    if (this.executor.cancel(jobRunId, reason)) this.log('info', `canceling job run ${jobRunId}: ${reason}`);
  }

  private report(jobRunId: string, kind: JobReportInit['kind'], retryMs: number) {
    return this.reports.send({ jobRunId, kind }, retryMs);
  }

  private accept(a: JobAssignmentMessage): void {
    const id = a.jobRunId;
    if (this.jobs.has(id)) return;
    if (this.draining || this.jobs.size >= this.capacity) {
      const reason = this.draining ? 'the agent is draining' : 'the agent is full';
      this.report(id, { case: 'rejected', value: { reason } }, SIDE_REPORT_RETRY_MS).catch(() => undefined);
      return;
    }
    const shipper: LogShipper = new LogShipper(
      async (lines) => {
        try {
          return await this.courier.send(id, lines);
        } catch (err) {
          if (!isTransient(err)) {
            this.log('error', `the control plane refused the log of job run ${id}; dropping it`, {
              error: String(err),
            });
            shipper.abandon();
          }
          throw err;
        }
      },
      { onError: () => undefined },
    );
    const job: WorkerJob = { shipper, services: Promise.resolve(), done: Promise.resolve() };
    let running: ReturnType<JobExecutor['start']>;
    try {
      running = this.executor.start(toJobAssignment(a), {
        onLog: (line) => shipper.push(line),
        logPressure: () => shipper.pressure(),
        onServiceEvent: (e) => this.serviceEvent(id, job, e),
        artifactUploader: new GrpcArtifactUploader(this.connection, id),
        artifactDownloader: new GrpcArtifactDownloader(this.connection, id),
      });
    } catch (err) {
      this.log('warn', `cannot take job run ${id}: ${String(err)}`);
      this.report(id, { case: 'rejected', value: { reason: String(err) } }, SIDE_REPORT_RETRY_MS).catch(
        () => undefined,
      );
      return;
    }
    this.jobs.set(id, job);
    this.log(
      'info',
      `job ${a.jobName} (${id}, attempt ${a.attempt}) of ${a.projectSlug}/${a.pipelineName} started`,
    );
    const choice = this.executor.engineFor(toJobAssignment(a));
    const engine = 'engine' in choice ? choice.engine : '';
    this.report(id, { case: 'started', value: { engine } }, SIDE_REPORT_RETRY_MS).catch((err) =>
      this.log('warn', `could not report the start of job run ${id}: ${String(err)}`),
    );
    job.done = running.result
      .then((result) => this.finish(id, job, result))
      .catch((err) => this.log('error', `job run ${id} could not be reported: ${String(err)}`))
      .finally(() => {
        this.jobs.delete(id);
        this.connection.heartbeatNow();
      });
  }

  private serviceEvent(id: string, job: WorkerJob, e: ServiceEvent): void {
    job.services = job.services.then(() =>
      this.connection
        .call(
          (o) =>
            this.connection.client.reportService(
              {
                jobRunId: id,
                serviceName: e.service,
                state: e.state,
                message: e.message ?? '',
                atMs: BigInt(Date.parse(e.at) || Date.now()),
              },
              o,
            ),
          SIDE_REPORT_RETRY_MS,
        )
        .then(() => undefined)
        .catch((err) => this.log('warn', `could not report service ${e.service} ${e.state}: ${String(err)}`)),
    );
  }

  private async finish(id: string, job: WorkerJob, result: JobResult): Promise<void> {
    // Killed by a second signal: not a result the job earned; the server re-queues it when the lease lapses.
    if (this.aborting) return;
    await job.services;
    const report = result.test_report;
    if (report) {
      await this.connection
        .call(
          (o) =>
            this.connection.client.reportTests(
              {
                jobRunId: id,
                cases: report.cases.map((c) => ({
                  suite: c.suite,
                  classname: c.classname,
                  name: c.name,
                  status: c.status,
                  durationS: c.duration_s,
                  message: c.message ?? '',
                })),
                unreadableFiles: (report.unreadable ?? []).map((u) => `${u.file}: ${u.error}`),
              },
              o,
            ),
          SIDE_REPORT_RETRY_MS,
        )
        .catch((err) => this.log('warn', `could not report the tests of job run ${id}: ${String(err)}`));
    }
    // Every line is stored before the job is reported finished: the run's log is complete when it ends.
    await job.shipper.flush();
    await this.report(
      id,
      {
        case: 'finished',
        value: {
          status: result.status,
          hasExitCode: result.exit_code !== null,
          exitCode: result.exit_code ?? 0,
          error: result.error ?? '',
          lastSeq: BigInt(job.shipper.last),
          commit: result.commit ?? '',
          outputs: result.outputs ?? {},
        },
      },
      REPORT_RETRY_MS,
    );
    this.log('info', `job run ${id} finished: ${result.status}${result.error ? ` (${result.error})` : ''}`);
  }

  /** SIGTERM: take no new jobs, let the running ones finish and be reported. */
  async drain(): Promise<void> {
    this.draining = true;
    this.connection.drain();
    await this.executor.drain();
    await Promise.allSettled([...this.jobs.values()].map((j) => j.done));
  }

  /** A second signal: stop every job's processes now and give up on reporting (leases will lapse). */
  abort(): void {
    this.aborting = true;
    for (const [id, job] of this.jobs) {
      this.executor.cancel(id, 'the agent is stopping');
      job.shipper.abandon();
    }
  }
}
