// The control plane's own metrics (spec, Events §3), registered on the registry that /metrics serves. The
// dispatcher, the agent endpoint and the job transitions call the small methods below; label values are the
// project slug and pipeline name, whose number is bounded by what was applied.
import type { Registry } from '@app/kit';
import { Counter, Gauge, Histogram } from 'prom-client';

/** Job durations from seconds to hours. */
const DURATION_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600];

export interface JobLabels {
  /** Project slug. */
  project: string;
  /** Pipeline name. */
  pipeline: string;
}

export class CiMetrics {
  readonly jobsScheduled: Counter<'pipeline' | 'project'>;
  readonly jobsRunning: Gauge;
  readonly jobDuration: Histogram<'pipeline' | 'project' | 'status'>;
  readonly queueDepth: Gauge<'stage'>;
  readonly grpcHandled: Counter<'grpc_method' | 'code'>;
  readonly logArchiveJobs: Counter<'result'>;
  readonly retentionDroppedLogPartitions: Counter;

  constructor(readonly registry: Registry) {
    const registers = [registry];
    this.jobsScheduled = new Counter({
      name: 'service_jobs_scheduled_total',
      help: 'Jobs handed to an agent',
      labelNames: ['pipeline', 'project'],
      registers,
    });
    this.jobsRunning = new Gauge({
      name: 'service_jobs_running',
      help: 'Jobs running on agents now',
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'service_job_duration_seconds',
      help: 'Time from a job starting on an agent to its result',
      labelNames: ['pipeline', 'project', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.queueDepth = new Gauge({
      name: 'service_queue_depth',
      help: 'Jobs queued and waiting for an agent, by stage name',
      labelNames: ['stage'],
      registers,
    });
    this.grpcHandled = new Counter({
      name: 'service_grpc_server_handled_total',
      help: 'Agent protocol calls completed, by method and gRPC status code',
      labelNames: ['grpc_method', 'code'],
      registers,
    });
    this.logArchiveJobs = new Counter({
      name: 'service_log_archive_jobs_total',
      help: 'Log archive jobs, by result',
      labelNames: ['result'],
      registers,
    });
    this.retentionDroppedLogPartitions = new Counter({
      name: 'service_retention_dropped_log_partitions_total',
      help: 'Log partitions dropped by retention',
      registers,
    });
  }

  /** A job was claimed by an agent. */
  jobScheduled(labels: JobLabels): void {
    this.jobsScheduled.inc({ pipeline: labels.pipeline, project: labels.project });
  }

  /** A job started running on an agent (pair with `jobFinished`). */
  jobStarted(): void {
    this.jobsRunning.inc();
  }

  /**
   * A job that was running ended (`status`: success, failed or canceled; agent lost counts as failed).
   * `durationSeconds` is null when its start time is unknown (the duration is then not observed).
   */
  jobFinished(labels: JobLabels & { status: string; durationSeconds: number | null }): void {
    this.jobsRunning.dec();
    if (labels.durationSeconds !== null && Number.isFinite(labels.durationSeconds))
      this.jobDuration.observe(
        { pipeline: labels.pipeline, project: labels.project, status: labels.status },
        Math.max(0, labels.durationSeconds),
      );
  }

  /** Sets the running gauge outright (after a restart, from the store). */
  setJobsRunning(n: number): void {
    this.jobsRunning.set(n);
  }

  /**
   * Replaces the queue depths with `depths` (stage name → queued jobs); stages missing from it read 0 on
   * the next scrape rather than keeping a stale value.
   */
  setQueueDepth(depths: Record<string, number> | Map<string, number>): void {
    this.queueDepth.reset();
    const entries = depths instanceof Map ? [...depths.entries()] : Object.entries(depths);
    for (const [stage, n] of entries) this.queueDepth.set({ stage }, n);
  }

  /**
   * An agent protocol call ended. `method` is the RPC name (`PushLogs`); `code` the gRPC status name as
   * go-grpc-prometheus writes it (`OK`, `Unauthenticated`, `InvalidArgument`, …).
   */
  grpcCall(method: string, code: string): void {
    this.grpcHandled.inc({ grpc_method: method, code });
  }
}

/** Creates the control plane's metrics on `registry` (once per registry). */
export function createCiMetrics(registry: Registry): CiMetrics {
  return new CiMetrics(registry);
}
