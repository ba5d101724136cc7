// Row types of the trigger tables (migration 0006_triggers). Timestamps are RFC 3339
// UTC strings with milliseconds, JSON is text and booleans are 0/1, as everywhere in the store.

export interface MaterialModificationsTable {
  id: string;
  /** The git material's fingerprint (normalised repository URL and branch). */
  fingerprint: string;
  url: string;
  branch: string;
  revision: string;
  author: string | null;
  message: string | null;
  committed_at: string | null;
  /** poll, webhook or baseline (the first revision a poll saw). */
  source: string;
  detected_at: string;
}

export interface MaterialPollStateTable {
  fingerprint: string;
  url: string;
  branch: string;
  last_revision: string | null;
  last_polled_at: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  scm: string;
  event: string;
  delivery_id: string | null;
  /** accepted, rejected or ignored. */
  status: string;
  status_code: number;
  reason: string;
  repository: string | null;
  ref: string | null;
  revision: string | null;
  /** JSON array of run ids. */
  run_ids: string;
  /** JSON object of the request headers, secrets replaced by `[redacted]`. */
  headers: string;
  payload: string;
  payload_bytes: number;
  payload_truncated: number;
  received_at: string;
}

export interface WebhookDeliveryClaimsTable {
  scm: string;
  delivery_key: string;
  claimed_at: string;
}

export interface ProjectCronsTable {
  id: string;
  project_id: string;
  name: string;
  expression: string;
  /** JSON array of pipeline ids; empty means every active pipeline of the project. */
  pipeline_ids: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export interface CronStateTable {
  schedule_key: string;
  expression: string;
  next_run_at: string;
  last_fired_at: string | null;
}

export interface CronFiringsTable {
  schedule_key: string;
  fire_at: string;
  run_ids: string;
  created_at: string;
}

export interface ProjectPollSettingsTable {
  project_id: string;
  /** 0 disables polling for the project. */
  poll_interval_ms: number;
  updated_at: string;
}

export interface ScmCredentialsTable {
  id: string;
  prefix: string;
  url: string;
  username: string;
  secret_sealed: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface TriggerClaimsTable {
  pipeline_id: string;
  /** sha256 of the reason: a material revision, a set of upstream runs. */
  trigger_key: string;
  /** webhook, poll or upstream. */
  source: string;
  /** What the key was made of (revision, upstream run ids), for people reading the table. */
  detail: string;
  run_id: string | null;
  created_at: string;
}

export interface LeaderLeasesTable {
  name: string;
  holder: string;
  acquired_at: string;
  expires_at: string;
}

/** 0012: a run built from a fork's pull request (one row per such run). */
export interface ForkRunsTable {
  run_id: string;
  /** The fork (`owner/repo`) the pull request's code comes from; null when the host did not say. */
  head_repository: string | null;
  /** Who opened the pull request (host account name). */
  author: string | null;
  /** Why the run is held or runs without secrets, in one sentence. */
  reason: string;
  /** 1 while the run waits for a maintainer to approve it. */
  awaiting_approval: number;
  /** 1 when the project's and global secrets are not given to its jobs. */
  secrets_withheld: number;
  approved_by: string | null;
  approved_at: string | null;
  comment: string | null;
  created_at: string;
}
