// What the agent's executor (execute-job.ts) takes and gives: its options, the callbacks a job reports
// through, the phases it goes through, and the result it ends with. Kept apart so the gRPC session and the
// tests read the contract without the execution behind it.
import type { ArtifactUploader, CollectedArtifact } from './artifacts.js';
import type { CacheStore } from './cache-store.js';
import type { EngineName, EngineSettings } from './engine.js';
import type { TestReport } from './junit.js';
import type { LogPressure, LogSink } from './log.js';
import type { ArtifactDownloader } from './needed-artifacts.js';
import type { ServiceEventSink } from './services.js';
export type JobStatus = 'success' | 'failed' | 'canceled';

export type JobPhase =
  | 'checkout'
  | 'cache_restore'
  | 'needed_artifacts'
  | 'services'
  | 'script'
  | 'artifacts'
  | 'test_reports'
  | 'cache_save'
  | 'cleanup';

export interface JobResult {
  status: JobStatus;
  /** The script's exit code; null when the script never ran. */
  exit_code: number | null;
  /** Why the job did not succeed (masked). */
  error?: string;
  test_report?: TestReport;
  /** Artifacts collected (and uploaded, when an uploader is configured). */
  artifacts: CollectedArtifact[];
  /** The commit checked out. */
  commit?: string;
  /** Declared outputs of a successful job, alias → value (gocdnext's `outputs`). */
  outputs?: Record<string, string>;
  /** The last log `seq` emitted. */
  log_lines: number;
  /** The engine that ran the job (absent when none could). */
  engine?: EngineName;
  started_at: string;
  finished_at: string;
}

export interface ExecutorOptions {
  /** CI_AGENT_WORKDIR: workspaces live in `<workdir>/jobs`, the local cache in `<workdir>/cache`. */
  workdir: string;
  cacheStore?: CacheStore;
  /** Default uploader; a job may bring its own. Without any, artifacts are collected but not uploaded. */
  artifactUploader?: ArtifactUploader;
  /** Keep the workspace of a failed job for inspection (it is still wiped when the same attempt reruns). */
  keepFailedWorkspaces?: boolean;
  /** SIGTERM → SIGKILL grace for the script's process group; default 10 s. */
  killGraceMs?: number;
  /** SIGTERM → SIGKILL grace for services; default 5 s. */
  serviceKillGraceMs?: number;
  /** The agent environment passed through to jobs; default the allow-list of hostEnv(). */
  baseEnv?: Record<string, string>;
  /** Longest log line before it is split; default 64 Ki characters. */
  maxLineChars?: number;
  /**
   * The engines (see engine.ts; the agent detects them at start). Default: the sandbox when bubblewrap
   * works here, no containers, no host jobs.
   */
  engines?: EngineSettings;
}

export interface JobCallbacks {
  onLog: LogSink;
  /** Back-pressure of the log's consumer: the job's output pauses while it answers a promise. */
  logPressure?: LogPressure;
  onServiceEvent?: ServiceEventSink;
  onPhase?: (phase: JobPhase) => void;
  artifactUploader?: ArtifactUploader;
  /** Fetches the artifacts of earlier jobs a job needs (gocdnext's needs_artifacts). */
  artifactDownloader?: ArtifactDownloader;
}

export interface RunningJob {
  jobRunId: string;
  attempt: number;
  result: Promise<JobResult>;
  /** Requests cancellation; the result settles with status `canceled` once everything is stopped. */
  cancel(reason?: string): void;
}

/** start() refuses a job while the agent drains (it finishes what it runs, then stops). */
export class ExecutorDrainingError extends Error {
  override name = 'ExecutorDrainingError';
  constructor() {
    super('the agent is draining and accepts no new jobs');
  }
}
