// Wire shapes of the control-plane API the UI reads (spec decisions.md and the server's OpenAPI document).
// Only the fields the UI uses are listed; the server may send more.

export type Role = 'viewer' | 'maintainer' | 'admin';

export interface User {
  id: string;
  username: string;
  email: string | null;
  role: Role;
  created_at: string;
}

export interface Provider {
  name: string;
  display: string;
}

export interface Project {
  slug: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export type RunStatus = 'queued' | 'running' | 'success' | 'failed' | 'canceled';
export const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'success', 'failed', 'canceled'];
export const TERMINAL: string[] = ['success', 'failed', 'canceled'];

export interface RunSummary {
  id: string;
  project_slug: string;
  pipeline_id: string;
  pipeline_name: string;
  counter: number;
  status: RunStatus;
  cause: string;
  git_ref: string | null;
  revision: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface Material {
  kind: string;
  fingerprint: string;
  git?: { url: string; branch?: string };
  upstream?: { pipeline: string; stage?: string; status?: string };
  cron?: { expression: string };
}

export interface PipelineEntry {
  id: string;
  name: string;
  stages: string[];
  materials: Material[];
  latest_run: RunSummary | null;
}

export interface ProjectDetail extends Project {
  pipelines: PipelineEntry[];
  recent_runs: RunSummary[];
}

export interface LogLine {
  job_run_id: string;
  seq: number;
  stream: string;
  at: string;
  text: string;
}

export interface JobRun {
  id: string;
  name: string;
  status: string;
  matrix: Record<string, string>;
  agent: string | null;
  attempt: number;
  exit_code: number | null;
  /** Why the attempt failed or was canceled; null otherwise. */
  failure_reason?: string | null;
  started_at: string | null;
  finished_at: string | null;
  /** Names of the jobs this one waits for. */
  needs: string[];
  /** A manual gate's description, approvals required/received and decisions (null for build jobs). */
  gate: GateInfo | null;
  logs: LogLine[];
}

export interface GateDecision {
  decision: 'approve' | 'reject';
  actor: string;
  comment: string | null;
  at: string;
}

export interface GateInfo {
  description: string | null;
  required: number;
  approvals: number;
  decisions: GateDecision[];
}

export interface Stage {
  name: string;
  status: string;
  jobs: JobRun[];
}

export interface RunDetail extends RunSummary {
  parameters: Record<string, string>;
  triggered_by: string;
  stages: Stage[];
}

export interface RunPage {
  runs: RunSummary[];
  total: number;
  limit: number;
  offset: number;
}

export interface VsmNode {
  id: string;
  kind: 'git' | 'pipeline' | string;
  url?: string;
  branch?: string;
  latest_modification?: { revision: string; author: string | null; message: string | null } | null;
  pipeline_id?: string;
  name?: string;
  stages?: string[];
  has_services?: boolean;
  crons?: string[];
  latest_run?: RunSummary | null;
}

export interface VsmEdge {
  from: string;
  to: string;
  kind: string;
  stage?: string;
  status?: string;
}

export interface Secret {
  name: string;
  created_at: string;
  updated_at: string;
}

export interface Artifact {
  id: string;
  job_run_id: string;
  job_name: string;
  path: string;
  size_bytes: number;
  status: string;
  content_sha256: string | null;
  download_url?: string;
  created_at: string;
}

export interface TestTotals {
  tests: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  duration_s: number;
}

export interface TestCase {
  job_run_id: string;
  job_name: string;
  suite: string;
  classname: string;
  name: string;
  status: 'passed' | 'failed' | 'error' | 'skipped';
  duration_s: number;
  message: string | null;
}

export interface RunTests extends TestTotals {
  jobs: (TestTotals & {
    job_run_id: string;
    job_name: string;
    attempt: number;
    unreadable_files: string[];
  })[];
  suites: (TestTotals & { name: string })[];
  cases: TestCase[];
  cases_truncated: boolean;
}

export interface Agent {
  id: string;
  name: string;
  tags: string[];
  capacity: number;
  status: 'online' | 'busy' | 'offline';
  version: string;
  hostname: string;
  running_jobs: { job_run_id: string; run_id: string; job_name: string; status: string }[];
  last_heartbeat_at: string | null;
  registered_at: string;
}

export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}
