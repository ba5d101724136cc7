// Replays from the log store: a run's lines by their run-wide cursor, or one job run's by seq, read from the
// table or, once a job is archived, from its archive blob (which keeps each line's cursor), so a reader
// cannot tell the two apart. LogStore (store.ts) answers with these.
import type { StoreDb } from '../store/database.js';
import type { ArchivedLogs } from './archived-logs.js';
import { toStored } from './rows.js';
import type { StoredLogLine } from './types.js';

/**
 * A run's lines after `afterCursor`, in cursor order: rows of jobs still in the table merged with the lines
 * of archived jobs (their blobs keep each line's cursor), so a reader cannot tell the two apart.
 * The rows and the run's archives are asked for at once (two statements in flight, not one after the
 * other: this read is what a follower on another replica waits for after each notification). Rows of an
 * archived job — what an interrupted archive left behind — are ignored; in the rare case the page held some,
 * it is read again with them excluded in the statement, so a page is never short of `limit` while more
 * lines follow.
 */
export async function readRunLogs(
  db: StoreDb,
  archives: ArchivedLogs | undefined,
  runId: string,
  afterCursor: number,
  limit: number,
): Promise<StoredLogLine[]> {
  const [archived, page] = await Promise.all([
    archives ? archives.ofRun(runId) : [],
    rowsAfter(db, runId, afterCursor, limit, []),
  ]);
  let rows = page;
  if (archived.length > 0) {
    const ids = new Set(archived.map((a) => a.job_run_id));
    if (rows.some((r) => ids.has(r.job_run_id)))
      rows = await rowsAfter(db, runId, afterCursor, limit, [...ids]);
  }
  const fromArchives: StoredLogLine[] = [];
  for (const a of archived) {
    if (!archives || Number(a.last_cursor) <= afterCursor) continue;
    const lines = await archives.lines(a);
    let taken = 0;
    for (const l of lines) {
      if (l.cursor <= afterCursor) continue;
      fromArchives.push(l);
      if (++taken >= limit) break;
    }
  }
  if (fromArchives.length === 0) return rows;
  return rows
    .concat(fromArchives)
    .sort((x, y) => x.cursor - y.cursor)
    .slice(0, limit);
}

/** A page of the run's rows after the cursor, without the rows of the given (archived) job runs. */
async function rowsAfter(
  db: StoreDb,
  runId: string,
  afterCursor: number,
  limit: number,
  excluded: string[],
): Promise<StoredLogLine[]> {
  let query = db
    .selectFrom('log_lines')
    .select(['job_run_id', 'seq', 'stream', 'at', 'text', 'run_seq'])
    .where('run_id', '=', runId)
    .where('run_seq', '>', afterCursor);
  if (excluded.length > 0) query = query.where('job_run_id', 'not in', excluded);
  return (await query.orderBy('run_seq').limit(limit).execute()).map(toStored);
}

/** One job run's lines after `afterSeq`, in seq order (from its archive once it is archived). */
export async function readJobLogs(
  db: StoreDb,
  archives: ArchivedLogs | undefined,
  jobRunId: string,
  afterSeq: number,
  limit: number,
): Promise<StoredLogLine[]> {
  const archive = archives ? await archives.ofJob(jobRunId) : undefined;
  if (archives && archive) {
    const lines = await archives.lines(archive);
    return lines.filter((l) => l.seq > afterSeq).slice(0, limit);
  }
  const rows = await db
    .selectFrom('log_lines')
    .select(['job_run_id', 'seq', 'stream', 'at', 'text', 'run_seq'])
    .where('job_run_id', '=', jobRunId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(toStored);
}
