// What the batched agent calls share (PushLogBatches: log-calls.ts; ReportJobs: grpc-server.ts): each item is
// taken as its single call (PushLogs, ReportJob) would take it alone, and answers with its own outcome in
// request order. Items of one job run go one after another, in request order (a job's start before its end,
// its batches in seq order); different job runs' at once, so they reach the store in the same turn and are
// group-committed (logs/run-inserts.ts, dispatch/report-batches.ts). A refused item fails alone, with the code
// and message its single call would have failed with.
import { isDatabaseUnavailable } from '@app/kit';
import { Code, ConnectError } from '@connectrpc/connect';
import { DATABASE_UNAVAILABLE_AGENT, invalid } from './sessions.js';

/** Items of one batched call at most (an agent's turn: its running jobs, a few items each). */
export const MAX_ITEMS_PER_CALL = 1024;

/** An item's outcome: taken (code 0, with the single call's answer), or refused. */
export type ItemOutcome<R> = ({ code: 0 } & R) | { code: number; message: string };

/**
 * What a refused item answers: the code and message its single call would have failed with (a database
 * outage as UNAVAILABLE with the message agents key their back-off on; an error that is not a ConnectError as
 * Connect shows it, without its internals).
 */
function refusal(err: unknown): { code: number; message: string } {
  if (err instanceof ConnectError) return { code: err.code, message: err.rawMessage };
  if (isDatabaseUnavailable(err)) return { code: Code.Unavailable, message: DATABASE_UNAVAILABLE_AGENT };
  return { code: Code.Internal, message: 'internal error' };
}

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
