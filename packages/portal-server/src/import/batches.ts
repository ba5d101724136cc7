// Runs an import's records into the table on one governed session: rows are gathered into batches, each
// batch is one multi-row INSERT with bound parameters in a transaction of its own (so a million rows never
// sit in one open transaction, and what was committed stays). A batch the engine refuses is rolled back and
// its rows are tried one by one, each in its own transaction, so only the rows the engine refuses fail, each
// with the engine's reason. Records that could not be read fail without reaching the engine. Only the batch
// being written is held in memory; the list of failed rows is capped, their count is not.
import { toHttpError } from '../providers/errors.js';
import type { ParamValue, ProviderSession } from '../providers/types.js';
import type { SourceRecord } from './records.js';
import { type ColumnTarget, paramOf } from './values.js';

export interface MappedColumn {
  /** The source field (header name, JSON key, or position `1`, `2`, … of a CSV without header). */
  source: string;
  /** The table column it is written to. */
  column: string;
  target: ColumnTarget;
}

export interface FailedRow {
  row: number;
  line: number;
  reason: string;
}

export interface ImportProgress {
  rowCount: number;
  failedCount: number;
}

export interface ImportOutcome extends ImportProgress {
  failed: FailedRow[];
  /** The import stopped at the first failed row (`onError: stop`) or was cancelled. */
  stopped: boolean;
  batches: number;
}

export interface BatchPlan {
  columns: readonly MappedColumn[];
  rowsPerStatement: number;
  /** The INSERT for `n` rows. */
  insertSql(n: number): string;
  onError: 'skip' | 'stop';
  /** Most failed rows listed in the answer (all are counted). */
  maxListed: number;
}

const NO_ROWS = { maxRows: 0 };

export async function runBatches(
  session: ProviderSession,
  groups: AsyncIterable<SourceRecord[]>,
  plan: BatchPlan,
  hooks: { progress(p: ImportProgress): void | Promise<void>; cancelled(): boolean },
): Promise<ImportOutcome> {
  const out: ImportOutcome = { rowCount: 0, failedCount: 0, failed: [], stopped: false, batches: 0 };
  const sqlFor = new Map<number, string>();
  const sql = (n: number) => {
    let s = sqlFor.get(n);
    if (!s) {
      s = plan.insertSql(n);
      if (sqlFor.size < 4) sqlFor.set(n, s);
    }
    return s;
  };
  const fail = (r: { row: number; line: number }, reason: string) => {
    out.failedCount++;
    if (out.failed.length < plan.maxListed) out.failed.push({ row: r.row, line: r.line, reason });
    if (plan.onError === 'stop') out.stopped = true;
  };
  let rows: SourceRecord[] = [];
  let params: ParamValue[] = [];

  const inTransaction = async (text: string, values: ParamValue[]) => {
    await session.begin();
    try {
      const r = await session.query(text, values, NO_ROWS);
      await session.commit();
      return r.rowCount;
    } catch (err) {
      await session.rollback().catch(() => undefined);
      throw err;
    }
  };

  const flush = async () => {
    if (rows.length === 0) return;
    out.batches++;
    try {
      await inTransaction(sql(rows.length), params);
      out.rowCount += rows.length;
    } catch (err) {
      if (hooks.cancelled()) throw err;
      // One by one: only the rows the engine refuses fail.
      const width = plan.columns.length;
      for (let i = 0; i < rows.length && !out.stopped; i++) {
        try {
          await inTransaction(sql(1), params.slice(i * width, (i + 1) * width));
          out.rowCount++;
        } catch (rowErr) {
          if (hooks.cancelled()) throw rowErr;
          fail(rows[i], toHttpError(rowErr).message);
        }
      }
    }
    rows = [];
    params = [];
    await hooks.progress({ rowCount: out.rowCount, failedCount: out.failedCount });
  };

  reading: for await (const group of groups) {
    if (hooks.cancelled()) {
      out.stopped = true;
      break;
    }
    for (const record of group) {
      if (record.error || !record.values) {
        // Stopping at this record: the rows read before it are still written.
        if (plan.onError === 'stop') await flush();
        if (!out.stopped) fail(record, record.error ?? 'the record could not be read');
        if (out.stopped) break reading;
        continue;
      }
      const values = record.values;
      for (const c of plan.columns) params.push(paramOf(values[c.source], c.target));
      rows.push(record);
      if (rows.length >= plan.rowsPerStatement) {
        await flush();
        if (out.stopped) break reading;
      }
    }
  }
  if (!out.stopped) await flush();
  return out;
}
