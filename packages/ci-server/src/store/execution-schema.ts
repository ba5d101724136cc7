// Row types of the execution-data tables (migration 0005_execution_data): the run-wide log cursor, service
// runs, test reports and their cases, and cache entries (the two columns 0005 adds to `log_lines` are in
// schema.ts). Same conventions as schema.ts: RFC 3339 UTC text timestamps, JSON as text.

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
