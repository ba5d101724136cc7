// Enforces `queryTimeout` on every engine the same way: a timer that, when it fires, asks the engine to stop
// the statement (the provider's own cancel) and turns whatever the engine answers into a timeout error. If
// the engine does not stop within a grace period the caller gets the timeout anyway and the provider is told
// to discard the connection.
import { timeoutError } from './errors.js';

export const CANCEL_GRACE_MS = 2_000;

export interface DeadlineOptions {
  timeoutMs: number;
  /** Stops the running statement on the server (or kills the worker running it). */
  cancel: () => Promise<void> | void;
  /** Called when the engine ignored the cancel: the connection must not be reused. */
  abandon?: () => void;
}

export async function withDeadline<T>(run: Promise<T>, opts: DeadlineOptions): Promise<T> {
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  let grace: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      Promise.resolve()
        .then(opts.cancel)
        .catch(() => undefined);
      grace = setTimeout(() => {
        opts.abandon?.();
        reject(timeoutError(opts.timeoutMs));
      }, CANCEL_GRACE_MS);
    }, opts.timeoutMs);
  });
  expired.catch(() => undefined);
  try {
    const value = await Promise.race([run, expired]);
    // An engine may answer a cancelled statement normally (MySQL's SLEEP returns 1): past the deadline the
    // outcome is a timeout whatever came back.
    if (timedOut) throw timeoutError(opts.timeoutMs);
    return value;
  } catch (err) {
    if (timedOut) throw timeoutError(opts.timeoutMs);
    throw err;
  } finally {
    clearTimeout(timer);
    clearTimeout(grace);
  }
}
