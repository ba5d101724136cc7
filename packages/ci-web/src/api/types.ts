// Wire shapes of the control-plane API the UI reads (spec decisions.md and the server's OpenAPI document).
// Shapes the generated types cover (@app/web-kit/api/ci) are aliases of them; the rest list only the fields
// the UI uses (the server may send more).
import type { ResponseOf } from '@app/web-kit';
import type { paths } from '@app/web-kit/api/ci';

export type Role = 'viewer' | 'maintainer' | 'admin';

/** A user as the admin pages read it (the generated type says `role: string`; the UI narrows it). */
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

export type RunStatus = 'queued' | 'running' | 'success' | 'failed' | 'canceled';
export const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'success', 'failed', 'canceled'];
export const TERMINAL: string[] = ['success', 'failed', 'canceled'];

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
  /** Declared parameters with their defaults (older servers send none). */
  parameters?: Record<string, string>;
  materials: Material[];
  latest_run: RunSummary | null;
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

export interface TestTotals {
  tests: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  duration_s: number;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
}

// ---------- generated from the control plane's OpenAPI description ----------
export type Project = ResponseOf<paths, '/api/v1/projects'>['projects'][number];
export type RunPage = ResponseOf<paths, '/api/v1/runs'>;
export type RunDetail = ResponseOf<paths, '/api/v1/runs/{id}'>;
export type Agent = ResponseOf<paths, '/api/v1/agents'>['agents'][number];
export type RunTests = ResponseOf<paths, '/api/v1/runs/{id}/tests'>;
export type RunSummary = RunPage['runs'][number];
export type ProjectDetail = ResponseOf<paths, '/api/v1/projects/{slug}'>;
export type Stage = RunDetail['stages'][number];
export type JobRun = Stage['jobs'][number];
export type GateInfo = NonNullable<JobRun['gate']>;
export type GateDecision = GateInfo['decisions'][number];
export type LogLine = JobRun['logs'][number];
export type TestCase = RunTests['cases'][number];
export type Artifact = ResponseOf<paths, '/api/v1/runs/{id}/artifacts'>['artifacts'][number];
export type ApiToken = ResponseOf<paths, '/api/v1/account/api-tokens'>['tokens'][number];
export type Secret = ResponseOf<paths, '/api/v1/projects/{slug}/secrets'>['secrets'][number];
