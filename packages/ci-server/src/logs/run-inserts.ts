// Writing log lines with their run-wide cursors (`run_seq`), group-committed per turn of the event loop on
// PostgreSQL. Every insert takes the cursors from its run's head row, whose lock is held to the commit. Each
// batch its own statement cost replica A a round trip, a commit and a publish per four lines at 20 jobs ×
// 100 lines/s, and the statements of one run queued on its head row. Instead the batches that arrive in one
// turn of the event loop — of any job and any run — are written together, in one statement and one commit,
// on the next turn (`setImmediate`, no timer: a sparse line waits for nothing but the turn it came in); the
// batches that arrive while that statement is in flight go together in the next one when it ends. One
// statement is in flight at a time, so a run's cursors follow commit order without waiting on its head row.
// After the commit each run's stored lines are published once, in cursor order (one hub wake and one
// notification per run per statement, not per batch). Each caller gets its own job's stored lines. A group
// that fails is retried one batch at a time, so one job's bad batch cannot fail the others'.
// SQLite has one writer at a time anyway: each insert is its own transaction there, published after it.
import { sql } from 'kysely';
import { logTrace, logTraceOn } from '../replicas/log-trace.js';
import type { StoreDb } from '../store/database.js';
import type { Row } from './rows.js';
import type { StoredLogLine } from './types.js';

/** Rows of one job run to insert. */
interface Entry {
  jobRunId: string;
  runId: string;
  rows: Row[];
}

interface Waiting extends Entry {
  resolve(lines: StoredLogLine[]): void;
  reject(err: unknown): void;
}

/** Receives each run's stored lines after their commit, in cursor order (the LogHub's publish). */
export type PublishStored = (runId: string, lines: StoredLogLine[]) => void;

/** Rows one grouped statement takes at most (an insert larger than this still goes, alone). */
const GROUP_ROWS = 5_000;

export class RunInserts {
  /** Inserts that arrived since the last statement was issued, in arrival order. */
  private waiting: Waiting[] = [];
  /** A statement is in flight or scheduled for the next turn. */
  private busy = false;
  /** Statements written, and inserts that rode along in another's statement. */
  readonly stats = { statements: 0, grouped: 0 };

  constructor(
    private readonly db: StoreDb,
    private readonly postgres: boolean,
    private readonly publish: PublishStored = () => {},
  ) {}

  /** Inserts rows of one job run (idempotent on job run and seq); the stored lines in cursor order. */
  insert(jobRunId: string, runId: string, rows: Row[]): Promise<StoredLogLine[]> {
    if (!this.postgres) return this.insertSqlite(jobRunId, runId, rows);
    return new Promise((resolve, reject) => {
      if (this.waiting.length > 0 || this.busy) this.stats.grouped++;
      this.waiting.push({ jobRunId, runId, rows, resolve, reject });
      if (this.busy) return;
      this.busy = true;
      // The next turn, not a timer: whatever else this turn of the event loop brings (the other calls read
      // from the same socket) joins the statement.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      let rows = 0;
      let take = 0;
      while (
        take < this.waiting.length &&
        (take === 0 || rows + this.waiting[take].rows.length <= GROUP_ROWS)
      )
        rows += this.waiting[take++].rows.length;
      const group = this.waiting.slice(0, take);
      this.waiting = this.waiting.slice(take);
      await this.write(group);
    }
    this.busy = false;
  }

  private async write(group: Waiting[]): Promise<void> {
    try {
      const stored = await this.insertPostgres(group);
      this.published(group, stored);
      for (const [i, w] of group.entries()) w.resolve(stored[i]);
    } catch (err) {
      if (group.length === 1) {
        group[0].reject(err);
        return;
      }
      for (const w of group)
        await this.insertPostgres([w]).then(
          (stored) => {
            this.published([w], stored);
            w.resolve(stored[0]);
          },
          (e) => w.reject(e),
        );
    }
  }

  /** Publishes each run's lines of one statement once, in cursor order. */
  private published(group: Entry[], stored: StoredLogLine[][]): void {
    if (logTraceOn)
      for (const e of group) logTrace('commit', e.jobRunId, e.rows[0].seq, e.rows[e.rows.length - 1].seq);
    const byRun = new Map<string, StoredLogLine[][]>();
    for (const [i, e] of group.entries()) {
      if (stored[i].length === 0) continue;
      const lists = byRun.get(e.runId);
      if (lists) lists.push(stored[i]);
      else byRun.set(e.runId, [stored[i]]);
    }
    for (const [runId, lists] of byRun)
      this.publish(runId, lists.length === 1 ? lists[0] : lists.flat().sort((a, b) => a.cursor - b.cursor));
  }

  /**
   * One statement for the batches of any runs: each run's head row is advanced by its line count (in run id
   * order, so two replicas' statements lock the head rows they share in the same order and cannot
   * deadlock), and the lines take consecutive cursors below it, in arrival order within the run.
   */
  private async insertPostgres(entries: Entry[]): Promise<StoredLogLine[][]> {
    this.stats.statements++;
    const counts = new Map<string, number>();
    const runs: string[] = [];
    const jobs: string[] = [];
    const ords: number[] = [];
    const seqs: number[] = [];
    const streams: string[] = [];
    const ats: string[] = [];
    const texts: string[] = [];
    for (const e of entries) {
      let n = counts.get(e.runId) ?? 0;
      for (const r of e.rows) {
        runs.push(e.runId);
        jobs.push(e.jobRunId);
        ords.push(++n);
        seqs.push(r.seq);
        streams.push(r.stream);
        ats.push(r.at);
        texts.push(r.text);
      }
      counts.set(e.runId, n);
    }
    if (logTraceOn) for (const [runId, n] of counts) logTrace('insert', runId, entries.length, n);
    const headRuns = [...counts.keys()].sort();
    const result = await sql<{ job_run_id: string; seq: number; run_seq: number }>`
      WITH head AS (
        INSERT INTO run_log_heads (run_id, last_seq)
        SELECT h.run_id, h.n FROM unnest(${headRuns}::text[], ${headRuns.map((r) => counts.get(r) ?? 0)}::integer[])
          AS h(run_id, n)
        ORDER BY h.run_id
        ON CONFLICT (run_id) DO UPDATE SET last_seq = run_log_heads.last_seq + EXCLUDED.last_seq
        RETURNING run_id, last_seq
      ),
      counted AS (
        SELECT c.run_id, c.n FROM unnest(${headRuns}::text[], ${headRuns.map((r) => counts.get(r) ?? 0)}::integer[])
          AS c(run_id, n)
      )
      INSERT INTO log_lines (job_run_id, seq, stream, at, text, run_id, run_seq)
      SELECT v.job, v.seq, v.stream, v.at, v.text, v.run,
             head.last_seq - counted.n + v.ord
      FROM unnest(${runs}::text[], ${jobs}::text[], ${ords}::integer[], ${seqs}::integer[],
                  ${streams}::text[], ${ats}::text[], ${texts}::text[])
           AS v(run, job, ord, seq, stream, at, text)
      JOIN head ON head.run_id = v.run
      JOIN counted ON counted.run_id = v.run
      ON CONFLICT (job_run_id, seq) DO NOTHING
      RETURNING job_run_id, seq, run_seq`.execute(this.db);
    const cursors = new Map(result.rows.map((r) => [`${r.job_run_id}#${r.seq}`, Number(r.run_seq)]));
    return entries.map((e) => storedOf(e.jobRunId, e.rows, (seq) => cursors.get(`${e.jobRunId}#${seq}`)));
  }

  /** SQLite has one writer at a time: the transaction alone keeps cursor order equal to commit order. */
  private async insertSqlite(jobRunId: string, runId: string, rows: Row[]): Promise<StoredLogLine[]> {
    this.stats.statements++;
    const n = rows.length;
    const returned = await this.db.transaction().execute(async (trx) => {
      const head = await sql<{ last_seq: number }>`
        INSERT INTO run_log_heads (run_id, last_seq) VALUES (${runId}, ${n})
        ON CONFLICT (run_id) DO UPDATE SET last_seq = last_seq + excluded.last_seq
        RETURNING last_seq`.execute(trx);
      const base = Number(head.rows[0].last_seq) - n;
      return trx
        .insertInto('log_lines')
        .values(
          rows.map((r, i) => ({
            job_run_id: jobRunId,
            seq: r.seq,
            stream: r.stream,
            at: r.at,
            text: r.text,
            run_id: runId,
            run_seq: base + i + 1,
          })),
        )
        .onConflict((oc) => oc.columns(['job_run_id', 'seq']).doNothing())
        .returning(['seq', 'run_seq'])
        .execute();
    });
    const cursors = new Map(returned.map((r) => [Number(r.seq), Number(r.run_seq)]));
    const stored = storedOf(jobRunId, rows, (seq) => cursors.get(seq));
    if (logTraceOn) logTrace('commit', jobRunId, rows[0].seq, rows[rows.length - 1].seq);
    if (stored.length > 0) this.publish(runId, stored);
    return stored;
  }
}

/** The rows that were stored (a cursor came back for them: resent duplicates did not), in cursor order. */
function storedOf(
  jobRunId: string,
  rows: Row[],
  cursorOf: (seq: number) => number | undefined,
): StoredLogLine[] {
  const out: StoredLogLine[] = [];
  for (const row of rows) {
    const cursor = cursorOf(row.seq);
    if (cursor === undefined) continue;
    out.push({ cursor, job_run_id: jobRunId, seq: row.seq, stream: row.stream, at: row.at, text: row.text });
  }
  return out.sort((a, b) => a.cursor - b.cursor);
}
