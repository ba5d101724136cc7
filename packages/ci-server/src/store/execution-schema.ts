// Row types of the execution-data tables (migration 0005_execution_data): the run-wide log cursor, service
// runs, test reports and their cases, and cache entries; plus the two columns 0005 adds to `log_lines`.
// Same conventions as schema.ts: RFC 3339 UTC text timestamps, JSON as text.
import type { Kysely } from 'kysely';
import type { CoreDB, LogLinesTable } from './schema.js';

/** `log_lines` with the run-wide position every line gets on ingestion (the SSE cursor). */
export interface LogLinesWithCursor extends LogLinesTable {
  /** The line's run (copied from its job run, so a run's log is one index range). */
  run_id: string | null;
  /** Position of the line in its run's log: strictly increasing in commit order, with gaps. */
  run_seq: number | null;
}

/** The last `run_seq` handed out per run; its row lock orders concurrent batches of one run. */
export interface RunLogHeadsTable {
  run_id: string;
  last_seq: number;
}

export type ServiceRunStatus = 'starting' | 'ready' | 'failed' | 'stopped';

export interface ServiceRunsTable {
  id: string;
  run_id: string;
  job_run_id: string;
  name: string;
  status: ServiceRunStatus;
  message: string | null;
  started_at: string;
  updated_at: string;
}

/** One row per job run that reported tests (also when every file was unreadable). */
export interface TestReportsTable {
  job_run_id: string;
  run_id: string;
  /** JSON array of `{file, error}` or file names the agent could not parse. */
  unreadable_files: string;
  received_at: string;
}

export type TestCaseStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestCasesTable {
  job_run_id: string;
  /** Order of the case in the job's report. */
  position: number;
  run_id: string;
  suite: string;
  classname: string;
  name: string;
  status: TestCaseStatus;
  duration_s: number;
  message: string | null;
}

export interface CacheEntriesTable {
  id: string;
  project_id: string;
  key: string;
  size_bytes: number;
  content_sha256: string;
  /** Path of the blob under the data directory; never shown to clients. */
  storage_key: string;
  created_at: string;
  last_used_at: string;
}

export interface ExecutionDB extends Omit<CoreDB, 'log_lines'> {
  log_lines: LogLinesWithCursor;
  run_log_heads: RunLogHeadsTable;
  service_runs: ServiceRunsTable;
  test_reports: TestReportsTable;
  test_cases: TestCasesTable;
  cache_entries: CacheEntriesTable;
}

export type ExecutionDb = Kysely<ExecutionDB>;
