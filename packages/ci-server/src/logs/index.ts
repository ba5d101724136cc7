// Job logs: the store (ingestion and replay), the in-process hub of live lines, the SSE encoding every
// follower shares, and the run follower the SSE route uses.
export { type FollowOptions, followRunLogs } from './follow.js';
export { DEFAULT_SUBSCRIBER_CAPACITY, LogHub, type LogHubOptions, LogSubscription } from './hub.js';
export { SseEncoder, sseLogEvent } from './sse-encoding.js';
export {
  type AppendOptions,
  type AppendResult,
  DEFAULT_MAX_CHARS_PER_JOB,
  DEFAULT_MAX_LINES_PER_JOB,
  LogStore,
  type LogStoreOptions,
  MAX_LINE_CHARS,
  TRUNCATION_MARKER,
  UnknownJobRunError,
} from './store.js';
export {
  type LogLineInput,
  type LogLineJson,
  type LogStream,
  type StoredLogLine,
  toLogLineJson,
} from './types.js';
