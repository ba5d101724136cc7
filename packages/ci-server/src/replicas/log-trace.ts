// A benchmark's view into where a log line's time goes between the agent and a follower on another replica
// (bench/replicas.bench.ts): when `CI_LOG_TRACE_FILE` names a file, the stages of each log batch and of each
// notification are appended to it, one line per event: `<stage> <epoch ms> <fields…>`. Off (the default) it
// costs one boolean test per batch. Stages, in the order a line passes them:
//   call   <batches> <first job run>          a PushLogs (1) or PushLogBatches call reached the handler
//   recv   <job run> <first seq> <last seq>   a batch of it passed the checks (agents/sessions.ts)
//   insert <run> <batches> <lines>            one INSERT statement of log lines is sent (logs/run-inserts.ts)
//   commit <job run> <first seq> <last seq>   the batch's lines are committed (logs/run-inserts.ts), before publish
//   notify <run>                              this replica sends the run's NOTIFY (replica-signals.ts)
//   heard  <run>                              this replica heard another replica's NOTIFY for the run
//   read   <run> <after cursor>               a store read of the run's lines for followers starts (logs/hub.ts)
//   page   <run> <after cursor> <last cursor>  it answered lines up to <last cursor>
// Events are written at most every 50 ms (and at exit): one write per turn of the event loop still cost the
// traced replica about a write per batch, CPU its own figures then counted as the pipeline's.
import { openSync, write, writeSync } from 'node:fs';

const file = process.env.CI_LOG_TRACE_FILE;
/** How long events gather before they are written (the benchmark reads the file after a longer pause). */
export const TRACE_FLUSH_MS = 50;
let pending: string[] = [];
let scheduled = false;

/** True when the trace is on (the callers skip building the event otherwise). */
export const logTraceOn = file !== undefined && file !== '';
/** Opened once: opening the file per write cost the traced process more than the stages it measures. */
const fd = logTraceOn ? openSync(file as string, 'a') : -1;
if (logTraceOn)
  process.once('exit', () => {
    if (pending.length > 0) writeSync(fd, pending.join(''));
  });

/**
 * The wall clock's offset from `performance.now()`, measured here rather than taken from
 * `performance.timeOrigin`: that is read once at the process's start, and on a loaded machine a process
 * descheduled while reading it is off by milliseconds to tens of them, which moved every stage that spans
 * two processes. The largest of a few back-to-back samples is the closest (Date.now() rounds down, and a
 * pause between the two reads only makes a sample smaller).
 */
const OFFSET = (() => {
  let best = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < 20; i++) best = Math.max(best, Date.now() - performance.now());
  return best;
})();

/** Epoch milliseconds, sub-millisecond, comparable between the processes of a benchmark. */
export const traceNow = () => OFFSET + performance.now();

/** Records one event (see the stages above) with the current time. */
export function logTrace(stage: string, ...fields: (string | number)[]): void {
  if (!logTraceOn) return;
  pending.push(`${stage} ${traceNow().toFixed(2)} ${fields.join(' ')}\n`);
  if (scheduled) return;
  scheduled = true;
  setTimeout(() => {
    scheduled = false;
    const text = pending.join('');
    pending = [];
    write(fd, text, () => undefined);
  }, TRACE_FLUSH_MS).unref();
}
