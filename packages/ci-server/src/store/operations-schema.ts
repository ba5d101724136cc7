// Row types of the operations tables (migration 0009_operations): archived job logs, blob prefixes waiting
// to be deleted, and the notification outbox. Same conventions as schema.ts.

/** One compressed blob per archived job run; its `log_lines` rows are gone. */
export interface LogArchivesTable {
  job_run_id: string;
  run_id: string;
  storage_key: string;
  lines: number;
  max_seq: number;
  first_cursor: number;
  last_cursor: number;
  /** bigint: PostgreSQL hands these back as digit strings. */
  raw_bytes: number | string;
  stored_bytes: number | string;
  archived_at: string;
}

/** A blob prefix to delete, recorded in the transaction that removed its rows (store/blob-deletions.ts). */
export interface BlobDeletionsTable {
  prefix: string;
  reason: string;
  created_at: string;
}

/** One row per event and channel (store/notification-outbox.ts), delivered after the commit. */
export interface NotificationOutboxTable {
  id: string;
  project_id: string;
  run_id: string | null;
  event: string;
  channel_kind: string;
  target: string;
  payload: string;
  idempotency_key: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  response_status: number | null;
  created_at: string;
  delivered_at: string | null;
}
