// Row types of the control plane's core tables (migration 0002_core, with the columns later migrations add):
// projects, pipelines and their versions, materials, runs, stage runs, job runs, gate decisions, log lines,
// artifacts, project secrets, the run counts kept by triggers, and the server and project settings. The one
// schema type over every table is `StoreSchema` (database.ts). Timestamps are RFC 3339 UTC strings with milliseconds (they sort as text
// the same way on SQLite and PostgreSQL); JSON columns are text; booleans are integers 0/1.
import type { RunStatus } from '../domain/index.js';

export interface ProjectsTable {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface PipelinesTable {
  id: string;
  project_id: string;
  name: string;
  /** Order of the pipeline in the last applied bundle. */
  position: number;
  /** The current version (pipeline_versions.id). */
  version_id: string;
  /** JSON of the current PipelineDocument (domain/bundle-types.ts). */
  definition: string;
  /** The pipeline's text as applied; null when only the parsed form exists. */
  raw_yaml: string | null;
  raw_reconstructed: number;
  /** sha256 of definition and raw text: equal digests mean re-applying changes nothing. */
  digest: string;
  archived: number;
  /** Counter of the pipeline's last run; incremented in the transaction that creates a run. */
  counter: number;
  created_at: string;
  updated_at: string;
}

/** Immutable definitions a pipeline had: what a run executes (runs point at one). */
export interface PipelineVersionsTable {
  id: string;
  pipeline_id: string;
  digest: string;
  definition: string;
  raw_yaml: string | null;
  created_at: string;
}

export interface MaterialsTable {
  id: string;
  pipeline_id: string;
  position: number;
  kind: 'git' | 'upstream' | 'cron';
  /** sha256 hex of the material's identity (domain/fingerprint.ts). */
  fingerprint: string;
  /** JSON of the material as parsed. */
  config: string;
}

export interface RunsTable {
  id: string;
  project_id: string;
  pipeline_id: string;
  version_id: string;
  counter: number;
  status: RunStatus;
  cause: string;
  triggered_by: string;
  git_ref: string | null;
  revision: string | null;
  /** JSON object string → string. */
  parameters: string;
  rerun_of: string | null;
  /** push | pull_request | tag from a trigger (migration 0016); null: the event follows from `cause`. */
  trigger_event: string | null;
  /** JSON array of the labels of the pull request the run builds (migration 0017); null otherwise. */
  pr_labels?: string | null;
  cancel_requested: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  /** Concurrency (0016): the run's group key, its place in the group, the run it waits for, who superseded it. */
  concurrency_group: string | null;
  concurrency_seq: number | null;
  waiting_for: string | null;
  superseded_by: string | null;
  /**
   * Pipelines as code (0017): why the repository's definition at this run's revision did not apply, when it
   * did not (the run follows the last good definition); null otherwise.
   */
  definition_error: string | null;
}

export interface ConcurrencyGroupsTable {
  project_id: string;
  name: string;
  seq: number;
}

export interface StageRunsTable {
  id: string;
  run_id: string;
  position: number;
  name: string;
  status: string;
  started_at: string | null;
  finished_at: string | null;
  /** Counts of the stage's current job rows (domain/stage-counts.ts); null: not known (older rows). */
  active_jobs: number | null;
  created_jobs: number | null;
  failed_jobs: number | null;
  canceled_jobs: number | null;
}

export interface JobRunsTable {
  id: string;
  run_id: string;
  stage_run_id: string;
  /** Order of the job run (job and matrix combination) in its stage; attempts share it. */
  position: number;
  name: string;
  /** JSON object of the matrix combination, `{}` without a matrix. */
  matrix: string;
  attempt: number;
  status: string;
  is_gate: number;
  /** JSON array of job names. */
  needs: string;
  retry: number;
  retry_left: number;
  required_approvals: number | null;
  /** JSON array of approvers (gates). */
  approved_by: string | null;
  rejected_by: string | null;
  exit_code: number | null;
  agent: string | null;
  /** The engine that ran the attempt (podman | sandbox | host; migration 0013); null until it started. */
  engine: string | null;
  /** JSON object alias → value: the declared outputs of a successful attempt (migration 0014); else null. */
  outputs: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
  // Lease columns (migration 0004_agents).
  /** The agent holding the job run; null when nobody does. */
  lease_agent_id: string | null;
  /** The lease lapses at this time unless a heartbeat of the agent renews it. */
  lease_expires_at: string | null;
  /** When the dispatcher claimed the job run for the agent. */
  assigned_at: string | null;
  /** Why the job run failed, in one line (agent lost, unknown reference, the agent's message). */
  error: string | null;
  /** A notification job run: the outcomes that fire it (migration 0017); null for every other job. */
  notify_on: string | null;
}

/** Approvals and rejections of gates, with the optional comment. */
export interface JobRunDecisionsTable {
  id: string;
  job_run_id: string;
  decision: 'approve' | 'reject';
  actor: string;
  comment: string | null;
  at: string;
}

export interface LogLinesTable {
  job_run_id: string;
  seq: number;
  stream: string;
  at: string;
  text: string;
  // The run-wide cursor (migration 0005_execution_data); lines written before it keep nulls.
  /** The line's run (copied from its job run, so a run's log is one index range). */
  run_id: string | null;
  /** Position of the line in its run's log: strictly increasing in commit order, with gaps. */
  run_seq: number | null;
}

export interface ArtifactsTable {
  id: string;
  run_id: string;
  job_run_id: string;
  job_name: string;
  path: string;
  size_bytes: number;
  status: string;
  content_sha256: string | null;
  /** Where the blob lives in the artifact store; never shown to clients. */
  storage_key: string | null;
  created_at: string;
  expires_at: string | null;
}

export interface ProjectSecretsTable {
  project_id: string;
  name: string;
  /** Value sealed with the server's secret box; associated data binds it to its project and name. */
  value_sealed: string;
  created_at: string;
  updated_at: string;
}

/** Run counts per pipeline and status, kept by triggers on `runs`, so list totals never count rows. */
export interface RunStatsTable {
  pipeline_id: string;
  project_id: string;
  status: string;
  n: number;
}

/** Settings the server keeps about itself (migration 0001): runtime configuration changed through the API. */
export interface ServerSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** Per-project settings as JSON documents by key (`log_archive`, `notifications`; migration 0007). */
export interface ProjectSettingsTable {
  project_id: string;
  key: string;
  value: string;
  updated_at: string;
}
