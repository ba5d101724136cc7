// What the batched agent messages share (PushLogBatches: log-calls.ts; reports on the session stream:
// sessions.ts): each item is taken as its single call (PushLogs, ReportJob) would take it alone, and answers with its own outcome in
// request order. Items of one job run go one after another, in request order (a job's start before its end,
// its batches in seq order); different job runs' at once, so they reach the store in the same turn and are
// group-committed (logs/run-inserts.ts, dispatch/report-batches.ts). A refused item fails alone, with the code
// and message its single call would have failed with. Items that come in several messages of one stream (reports
// on the session stream) keep their job run's order across the messages too (`jobTurns`).
import { invalid, refusal } from './refusals.js';

/** Items of one batched call at most (an agent's turn: its running jobs, a few items each). */
export const MAX_ITEMS_PER_CALL = 1024;

/** An item's outcome: taken (code 0, with the single call's answer), or refused. */
export type ItemOutcome<R> = ({ code: 0 } & R) | { code: number; message: string };

/**
 * Each item through `take`, by job run as above; one outcome per item, in request order. A call of more than
 * MAX_ITEMS_PER_CALL items (`noun`, as its error names them) is refused whole.
 */
export async function settleByJobRun<T extends { jobRunId: string }, R>(
  items: readonly T[],
  noun: string,
  take: (item: T) => Promise<R>,
): Promise<ItemOutcome<R>[]> {
  if (items.length > MAX_ITEMS_PER_CALL) throw invalid(`at most ${MAX_ITEMS_PER_CALL} ${noun} per call`);
  const outcomes: ItemOutcome<R>[] = new Array(items.length);
  const byJob = new Map<string, number[]>();
  for (const [i, item] of items.entries()) {
    const list = byJob.get(item.jobRunId);
    if (list) list.push(i);
    else byJob.set(item.jobRunId, [i]);
  }
  await Promise.all(
    [...byJob.values()].map(async (indexes) => {
      for (const i of indexes) {
        try {
          outcomes[i] = { code: 0, ...(await take(items[i])) };
        } catch (err) {
          outcomes[i] = refusal(err);
        }
      }
    }),
  );
  return outcomes;
}

/** Runs `fn` once what was queued before it for the same job run has settled: arrival order per job run. */
export type JobTurns = <T>(jobRunId: string, fn: () => Promise<T>) => Promise<T>;

/** A fresh order keeper (one per session stream); it holds only job runs with work queued. */
export function jobTurns(): JobTurns {
  const tails = new Map<string, Promise<unknown>>();
  return (jobRunId, fn) => {
    const run = (tails.get(jobRunId) ?? Promise.resolve()).then(fn);
    const tail = run.catch(() => undefined);
    tails.set(jobRunId, tail);
    void tail.then(() => {
      if (tails.get(jobRunId) === tail) tails.delete(jobRunId);
    });
    return run;
  };
}
