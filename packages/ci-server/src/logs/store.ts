// The log store: batches of lines from agents go in, ordered replays come out. A line is addressable by
// (job_run_id, seq) and by its run-wide cursor (`run_seq`). Ingestion is idempotent (a resent batch stores
// nothing twice), accepts each job's lines strictly in seq order (a batch after a gap is refused up to the
// gap, and the ack tells the agent where to resume), writes the batches that arrive in one turn of the event
// loop, of any jobs and runs, in one multi-row statement (run-inserts.ts), caps a job's log with a final
// truncation line, and publishes what it stored to the LogHub after the commit, once per run and statement
// (run-inserts.ts). Replays are read by log-reads.ts.
import { sql } from 'kysely';
import type { StoreDb } from '../store/database.js';
import type { ArchivedLogs } from './archived-logs.js';
import type { LogHub } from './hub.js';
import { DEFAULT_MAX_CHARS_PER_JOB, DEFAULT_MAX_LINES_PER_JOB } from './limits.js';
import { readJobLogs, readRunLogs } from './log-reads.js';
import { cleanText, firstNew, normalize, type Row } from './rows.js';
import { RunInserts } from './run-inserts.js';
import type { LogLineInput, StoredLogLine } from './types.js';

export { DEFAULT_MAX_CHARS_PER_JOB, DEFAULT_MAX_LINES_PER_JOB, MAX_LINE_CHARS } from './limits.js';

/** Lines per INSERT statement. */
const INSERT_CHUNK = 1_000;
/** Job runs whose ingestion state is kept in memory; older ones are re-read from the store when needed. */
const MAX_CACHED_JOBS = 10_000;
export const TRUNCATION_MARKER = '[ci] log truncated:';

export class UnknownJobRunError extends Error {
  override name = 'UnknownJobRunError';
  constructor(readonly jobRunId: string) {
    super(`job run ${jobRunId} does not exist`);
  }
}

export interface LogStoreOptions {
  db: StoreDb;
  postgres: boolean;
  /** Receives every stored batch after its commit (live SSE followers). */
  hub?: LogHub;
  /** Archived job logs: read transparently, and an archived job accepts no more lines. */
  archives?: ArchivedLogs;
  maxLinesPerJob?: number;
  maxCharsPerJob?: number;
}

export interface AppendOptions {
  /** Applied to each line's text before it is stored or published (server-side secret masking). */
  mask?: (text: string) => string;
}

export interface AppendResult {
  /**
   * Highest seq of the job run that is stored (or deliberately dropped after truncation): the agent may
   * forget lines up to it and must resend the ones after it.
   */
  ackedSeq: number;
  /** Lines written by this call (resent duplicates and lines after a gap are not). */
  stored: number;
  /** The job's log reached its cap; later lines are acknowledged and dropped. */
  truncated: boolean;
}

interface JobLogState {
  runId: string;
  acked: number;
  lines: number;
  chars: number;
  truncated: boolean;
}

export class LogStore {
  private readonly db: StoreDb;
  private readonly postgres: boolean;
  private readonly hub: LogHub | undefined;
  private readonly archives: ArchivedLogs | undefined;
  private readonly maxLines: number;
  private readonly maxChars: number;
  private readonly states = new Map<string, JobLogState>();
  /** Per job run: the append in progress, so appends of one job never interleave in this process. */
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly tailWaiters = new Map<string, Set<() => void>>();
  /** Writes the rows: one statement per turn for the batches of every run, then publishes (run-inserts.ts). */
  readonly inserts: RunInserts;

  constructor(options: LogStoreOptions) {
    this.db = options.db;
    this.postgres = options.postgres;
    this.hub = options.hub;
    this.archives = options.archives;
    this.maxLines = options.maxLinesPerJob ?? DEFAULT_MAX_LINES_PER_JOB;
    this.maxChars = options.maxCharsPerJob ?? DEFAULT_MAX_CHARS_PER_JOB;
    const hub = this.hub;
    this.inserts = new RunInserts(
      this.db,
      this.postgres,
      hub ? (runId, lines) => hub.publish(runId, lines) : undefined,
    );
  }

  /**
   * Stores a batch of one job run's lines. Idempotent on (job_run_id, seq); lines at or below the acked
   * seq are ignored, lines after a gap are not stored (the ack says where to resume). Throws
   * `UnknownJobRunError` for a job run that does not exist.
   */
  appendLogBatch(
    jobRunId: string,
    lines: readonly LogLineInput[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    // Usually nothing of the job is in progress (its agent waits for each answer): start at once, without
    // the promise hops of a chain; otherwise after the append in progress, whatever its outcome.
    const previous = this.chains.get(jobRunId);
    const run = () => this.append(jobRunId, lines, options);
    const next = previous ? previous.then(run, run) : run();
    this.chains.set(jobRunId, next);
    const done = () => {
      if (this.chains.get(jobRunId) === next) this.chains.delete(jobRunId);
    };
    next.then(done, done);
    return next;
  }

  /**
   * Stores a line the control plane itself writes into a job's log ("agent lost", "could not start"). Such
   * notices have their own sequence space, counting down from -1, so they never take a seq the agent will
   * use (an agent line with the same seq would be discarded as a duplicate); they sit at their place in the
   * run's cursor order, which is what readers sort by. They do not count towards the job's cap.
   */
  appendNotice(jobRunId: string, text: string): Promise<void> {
    const previous = this.chains.get(jobRunId) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(async () => {
        const { runId } = await this.state(jobRunId);
        const low = await this.db
          .selectFrom('log_lines')
          .select((eb) => eb.fn.min('seq').as('low'))
          .where('job_run_id', '=', jobRunId)
          .where('seq', '<', 0)
          .executeTakeFirst();
        const seq = Math.min(0, Number(low?.low ?? 0)) - 1;
        const row: Row = { seq, stream: 'system', at: new Date().toISOString(), text: cleanText(text) };
        await this.insert(jobRunId, runId, [row]);
      });
    this.chains.set(jobRunId, next);
    void next
      .catch(() => {})
      .finally(() => {
        if (this.chains.get(jobRunId) === next) this.chains.delete(jobRunId);
      });
    return next;
  }

  /** Highest contiguous seq stored for the job run (0 when none). */
  async ackedSeq(jobRunId: string): Promise<number> {
    return (await this.state(jobRunId)).acked;
  }

  /**
   * Resolves true once the job run's lines up to `lastSeq` are stored (or its log was truncated), false
   * after `timeoutMs`. The agent session's finish report (agents/sessions.ts) awaits it before finishing a job, so a finished run's log is complete.
   */
  async waitForTail(jobRunId: string, lastSeq: number, timeoutMs: number): Promise<boolean> {
    const done = async () => {
      const s = await this.state(jobRunId).catch(() => undefined);
      return !s || s.truncated || s.acked >= lastSeq;
    };
    if (await done()) return true;
    return new Promise<boolean>((resolve) => {
      let set = this.tailWaiters.get(jobRunId);
      if (!set) {
        set = new Set();
        this.tailWaiters.set(jobRunId, set);
      }
      const waiters = set;
      const finish = (value: boolean) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (waiters.size === 0) this.tailWaiters.delete(jobRunId);
        resolve(value);
      };
      const check = () => {
        const s = this.states.get(jobRunId);
        if (!s || s.truncated || s.acked >= lastSeq) finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      waiters.add(check);
    });
  }

  /** Drops the in-memory state of a finished job run (it is re-read from the store if lines still come). */
  forget(jobRunId: string): void {
    this.states.delete(jobRunId);
  }

  /** A run's lines after `afterCursor`, in cursor order, archived jobs' included (log-reads.ts). */
  readRunLogs(runId: string, afterCursor: number, limit: number): Promise<StoredLogLine[]> {
    return readRunLogs(this.db, this.archives, runId, afterCursor, limit);
  }

  /** One job run's lines after `afterSeq`, in seq order (log-reads.ts). */
  readJobLogs(jobRunId: string, afterSeq: number, limit: number): Promise<StoredLogLine[]> {
    return readJobLogs(this.db, this.archives, jobRunId, afterSeq, limit);
  }

  private async append(
    jobRunId: string,
    input: readonly LogLineInput[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    // The cached state without an await (the common case: every batch after a job's first).
    let state = this.states.get(jobRunId) ?? (await this.state(jobRunId));
    const sorted = normalize(input);
    if (state.truncated) return this.acknowledgeDropped(jobRunId, state, sorted);
    // A first line beyond acked+1 may mean another replica stored the lines in between: look once.
    if (sorted.length > 0 && firstNew(sorted, state.acked) > state.acked + 1) {
      state = await this.state(jobRunId, true);
      if (state.truncated) return this.acknowledgeDropped(jobRunId, state, sorted);
    }
    const rows: Row[] = [];
    let acked = state.acked;
    let lines = state.lines;
    let chars = state.chars;
    let truncated = false;
    for (const line of sorted) {
      if (line.seq <= acked) continue;
      if (line.seq !== acked + 1) break;
      const text = cleanText(options.mask ? options.mask(line.text) : line.text);
      if (lines + 1 > this.maxLines || chars + text.length > this.maxChars) {
        const marker = `${TRUNCATION_MARKER} this job's log reached its limit of ${this.maxLines} lines or ${this.maxChars} characters; later lines were dropped`;
        rows.push({ seq: line.seq, stream: 'system', at: new Date().toISOString(), text: marker });
        truncated = true;
        acked = sorted[sorted.length - 1].seq;
        break;
      }
      rows.push({ seq: line.seq, stream: line.stream, at: line.at, text });
      acked = line.seq;
      lines++;
      chars += text.length;
    }
    let stored: StoredLogLine[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const inserted = await this.insert(jobRunId, state.runId, chunk);
      stored = stored.concat(inserted);
    }
    state.acked = acked;
    state.lines = lines + (truncated ? 1 : 0);
    state.chars = chars;
    state.truncated = truncated;
    this.notifyTail(jobRunId);
    return { ackedSeq: acked, stored: stored.length, truncated };
  }

  private acknowledgeDropped(jobRunId: string, state: JobLogState, sorted: Row[]): AppendResult {
    if (sorted.length > 0) state.acked = Math.max(state.acked, sorted[sorted.length - 1].seq);
    this.notifyTail(jobRunId);
    return { ackedSeq: state.acked, stored: 0, truncated: true };
  }

  private notifyTail(jobRunId: string): void {
    const set = this.tailWaiters.get(jobRunId);
    if (set) for (const check of [...set]) check();
  }

  /**
   * Inserts rows of one job run with consecutive cursors from the run's head, and publishes them after the
   * commit (group commit: run-inserts.ts).
   */
  private insert(jobRunId: string, runId: string, rows: Row[]): Promise<StoredLogLine[]> {
    return this.inserts.insert(jobRunId, runId, rows);
  }

  private async state(jobRunId: string, refresh = false): Promise<JobLogState> {
    const cached = this.states.get(jobRunId);
    if (cached && !refresh) return cached;
    const job = await this.db
      .selectFrom('job_runs')
      .select('run_id')
      .where('id', '=', jobRunId)
      .executeTakeFirst();
    if (!job) throw new UnknownJobRunError(jobRunId);
    // An archived log is closed: later lines (a late resend) are acknowledged and dropped.
    const archive = this.archives ? await this.archives.ofJob(jobRunId) : undefined;
    if (archive) {
      const closed: JobLogState = {
        runId: job.run_id,
        acked: Math.max(Number(archive.max_seq), cached?.acked ?? 0),
        lines: Number(archive.lines),
        chars: Number(archive.raw_bytes),
        truncated: true,
      };
      this.states.set(jobRunId, closed);
      return closed;
    }
    const agg = await this.db
      .selectFrom('log_lines')
      .select((eb) => [
        eb.fn.max('seq').as('max_seq'),
        eb.fn.countAll().as('n'),
        eb.fn.sum(sql<number>`length(text)`).as('chars'),
      ])
      .where('job_run_id', '=', jobRunId)
      .executeTakeFirst();
    const maxSeq = Number(agg?.max_seq ?? 0);
    let truncated = false;
    if (maxSeq > 0) {
      const last = await this.db
        .selectFrom('log_lines')
        .select(['stream', 'text'])
        .where('job_run_id', '=', jobRunId)
        .where('seq', '=', maxSeq)
        .executeTakeFirst();
      truncated = last?.stream === 'system' && last.text.startsWith(TRUNCATION_MARKER);
    }
    const state: JobLogState = {
      runId: job.run_id,
      // A refresh never moves the ack backwards (lines dropped after truncation are above max(seq)).
      acked: Math.max(maxSeq, cached?.acked ?? 0),
      lines: Number(agg?.n ?? 0),
      chars: Number(agg?.chars ?? 0),
      truncated,
    };
    this.states.delete(jobRunId);
    this.states.set(jobRunId, state);
    if (this.states.size > MAX_CACHED_JOBS) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
    return state;
  }
}
