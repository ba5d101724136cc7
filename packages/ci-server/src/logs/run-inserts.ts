// Writing a run's log lines with their run-wide cursors (`run_seq`), with group commit across the run's jobs
// on PostgreSQL. Every insert of a run takes the cursors from the run's one head row, whose lock is held to
// the commit, so the inserts of a run's jobs queue on that row one after the other; at 20 jobs × 100 lines/s
// that queue, not the work, was most of a line's wait between the agent and the store. Instead an insert
// goes at once when none of its run is in flight (a sparse line waits for no timer and no other job), and
// the inserts that arrive while one is in flight are written together, in one statement and one commit,
// when it ends: immediate when idle, batched under volume. Each caller gets its own job's stored lines. A
// group that fails is retried one insert at a time, so one job's bad batch cannot fail the others'.
// SQLite has one writer at a time anyway: each insert is its own transaction there.
import { sql } from 'kysely';
import { logTrace, logTraceOn } from '../replicas/log-trace.js';
import type { StoreDb } from '../store/database.js';
import type { Row } from './rows.js';
import type { StoredLogLine } from './types.js';

/** Rows of one job run to insert. */
interface Entry {
  jobRunId: string;
  rows: Row[];
}

interface Waiting extends Entry {
  resolve(lines: StoredLogLine[]): void;
  reject(err: unknown): void;
}

/** Rows one grouped statement takes at most (an insert larger than this still goes, alone). */
const GROUP_ROWS = 5_000;

export class RunInserts {
  /** Per run with an insert in flight: the inserts waiting for it. */
  private readonly waiting = new Map<string, Waiting[]>();
  /** Statements written, and inserts that rode along in another's statement. */
  readonly stats = { statements: 0, grouped: 0 };

  constructor(
    private readonly db: StoreDb,
    private readonly postgres: boolean,
  ) {}

  /** Inserts rows of one job run (idempotent on job run and seq); the stored lines in cursor order. */
  insert(jobRunId: string, runId: string, rows: Row[]): Promise<StoredLogLine[]> {
    if (!this.postgres) return this.insertSqlite(jobRunId, runId, rows);
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(runId);
      const entry = { jobRunId, rows, resolve, reject };
      if (queue) {
        this.stats.grouped++;
        queue.push(entry);
        return;
      }
      this.waiting.set(runId, []);
      void this.drain(runId, [entry]);
    });
  }

  private async drain(runId: string, first: Waiting[]): Promise<void> {
    let group = first;
    while (group.length > 0) {
      await this.write(runId, group);
      const queue = this.waiting.get(runId) ?? [];
      let rows = 0;
      let take = 0;
      while (take < queue.length && (take === 0 || rows + queue[take].rows.length <= GROUP_ROWS))
        rows += queue[take++].rows.length;
      group = queue.splice(0, take);
    }
    this.waiting.delete(runId);
  }

  private async write(runId: string, group: Waiting[]): Promise<void> {
    try {
      const stored = await this.insertPostgres(runId, group);
      for (const [i, w] of group.entries()) w.resolve(stored[i]);
    } catch (err) {
      if (group.length === 1) {
        group[0].reject(err);
        return;
      }
      for (const w of group)
        await this.insertPostgres(runId, [w]).then(
          (stored) => w.resolve(stored[0]),
          (e) => w.reject(e),
        );
    }
  }

  /** One statement: the head row's lock is held until commit, so a run's cursors follow commit order. */
  private async insertPostgres(runId: string, entries: Entry[]): Promise<StoredLogLine[][]> {
    this.stats.statements++;
    const jobs: string[] = [];
    const all: Row[] = [];
    for (const e of entries)
      for (const r of e.rows) {
        jobs.push(e.jobRunId);
        all.push(r);
      }
    const n = all.length;
    if (logTraceOn) logTrace('insert', runId, entries.length, n);
    const result = await sql<{ job_run_id: string; seq: number; run_seq: number }>`
      WITH head AS (
        INSERT INTO run_log_heads (run_id, last_seq) VALUES (${runId}, ${n})
        ON CONFLICT (run_id) DO UPDATE SET last_seq = run_log_heads.last_seq + EXCLUDED.last_seq
        RETURNING last_seq
      )
      INSERT INTO log_lines (job_run_id, seq, stream, at, text, run_id, run_seq)
      SELECT v.job, v.seq, v.stream, v.at, v.text, ${runId}, head.last_seq - ${n}::integer + v.ord::integer
      FROM head, unnest(${jobs}::text[], ${all.map((r) => r.seq)}::integer[],
                        ${all.map((r) => r.stream)}::text[], ${all.map((r) => r.at)}::text[],
                        ${all.map((r) => r.text)}::text[])
           WITH ORDINALITY AS v(job, seq, stream, at, text, ord)
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
    return storedOf(jobRunId, rows, (seq) => cursors.get(seq));
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
