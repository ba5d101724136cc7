// Row types of the portal's server-side store (Kysely's view of the tables the migrations create).
// Timestamps are ISO-8601 UTC strings (`toISOString()`), which sort correctly as text on both dialects;
// booleans are 0/1 integers and structured values JSON text, so one schema serves SQLite and PostgreSQL.
import type { Generated } from 'kysely';

export interface StorageMetaTable {
  key: string;
  value: string;
}

export interface SavedConnectionTable {
  owner: string;
  id: string;
  name: string;
  type: string;
  /** The descriptor without its credential fields, as JSON. */
  descriptor: string;
  /** The credential fields, sealed with the storage key (bound to owner and id); null when there are none. */
  sealed: string | null;
  created_at: string;
  updated_at: string;
}

export interface SavedQueryTable {
  id: string;
  owner: string;
  name: string;
  sql: string;
  connection_id: string | null;
  description: string | null;
  /** JSON array of strings. */
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface QueryHistoryTable {
  id: Generated<number>;
  owner: string;
  connection_id: string | null;
  connection_name: string | null;
  sql: string;
  status: string;
  row_count: number | null;
  duration_ms: number | null;
  error: string | null;
  executed_at: string;
}

export interface ApprovalTable {
  id: string;
  datasource_id: string;
  datasource_name: string;
  requester: string;
  statement: string;
  /** SHA-256 of the statement text: the window lookup matches the exact text without scanning it. */
  statement_hash: string;
  route: string;
  status: string;
  requested_at: string;
  reviewer: string | null;
  reviewed_at: string | null;
  window_until: string | null;
  guardrail: string | null;
  /** JSON DryRunCount[] of the held write's dry run (0006). */
  dry_run: string | null;
  /** JSON array of `{reviewer, at}`. */
  approvals: string;
  /** JSON array of `{reviewer, at}` declared by a trusted bot, or null. */
  approved_by: string | null;
  ticket: string | null;
  note: string | null;
  /** Optimistic-concurrency counter: every update must name the version it read. */
  version: number;
}

export interface ServiceTokenTable {
  id: string;
  name: string;
  /** SHA-256 hex of the secret; the secret itself is never stored. */
  token_hash: string;
  /** First characters of the secret, to recognise a token in listings. */
  prefix: string;
  role: string;
  groups: string;
  datasources: string | null;
  require_approval: number;
  trusted_approvals: number;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditEventTable {
  id: Generated<number>;
  type: string;
  actor: string | null;
  connection: string | null;
  result: string | null;
  at: string;
  /** The whole event as JSON (already free of secrets). */
  event: string;
}

export interface JobTable {
  id: string;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  max_attempts: number;
  run_after: string;
  locked_by: string | null;
  lease_until: string | null;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface AuthUsedCodeTable {
  /** `<account>:<time step>` of an accepted second-factor code. */
  key: string;
  expires_at: string;
}

export interface AuthRevokedSessionTable {
  jti: string;
  expires_at: string;
}

/** A seed run (src/seed/store.ts reads and writes it; migration 0005). */
export interface SeedRunTableRow {
  id: string;
  datasource_id: string;
  active_key: string | null;
  job_id: string;
  status: string;
  mode: string;
  schema_name: string;
  source_id: string | null;
  source_name: string | null;
  request: string;
  tables: string;
  actor: string;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface PortalDatabase {
  storage_meta: StorageMetaTable;
  saved_connections: SavedConnectionTable;
  saved_queries: SavedQueryTable;
  query_history: QueryHistoryTable;
  approvals: ApprovalTable;
  service_tokens: ServiceTokenTable;
  audit_events: AuditEventTable;
  jobs: JobTable;
  auth_used_codes: AuthUsedCodeTable;
  auth_revoked_sessions: AuthRevokedSessionTable;
  seed_runs: SeedRunTableRow;
}
