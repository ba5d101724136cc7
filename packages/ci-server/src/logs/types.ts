// Shapes of log lines on their way in (from an agent batch) and on their way out (store, hub, SSE).

/** One line as an agent sends it (proto `LogLine`; int64 fields may arrive as bigint). */
export interface LogLineInput {
  /** Per job run attempt, from 1, without gaps. */
  seq: number | bigint;
  /** `stdout`, `stderr` or `system`; anything else is stored as `stdout`. */
  stream: string;
  /** Unix milliseconds when the agent read the line. */
  atMs: number | bigint;
  text: string;
}

export type LogStream = 'stdout' | 'stderr' | 'system';

/** A stored line: what replay, the hub and the SSE stream carry. */
export interface StoredLogLine {
  /** Position in the run's log (the SSE `id:`), increasing in commit order. */
  cursor: number;
  job_run_id: string;
  seq: number;
  stream: LogStream;
  /** RFC 3339 UTC with milliseconds. */
  at: string;
  text: string;
}

/** The JSON of one SSE `data:` line (spec's LogLine plus the `job_id` alias of the other description). */
export interface LogLineJson {
  job_run_id: string;
  job_id: string;
  seq: number;
  stream: LogStream;
  at: string;
  text: string;
}

export function toLogLineJson(line: StoredLogLine): LogLineJson {
  return {
    job_run_id: line.job_run_id,
    job_id: line.job_run_id,
    seq: line.seq,
    stream: line.stream,
    at: line.at,
    text: line.text,
  };
}
