// How the agent port refuses, as agents see it: the code and message of a refusal, which agents key their
// retrying on (connection.ts's `isTransient` there), for a call and for one item of a batched call alike.
import { isDatabaseUnavailable } from '@app/kit';
import { Code, ConnectError } from '@connectrpc/connect';

/** What an agent is told while the control plane's database is down (the agent keys its back-off on it). */
export const DATABASE_UNAVAILABLE_AGENT = "the control plane's database is unavailable; retry shortly";

export const invalid = (message: string) => new ConnectError(message, Code.InvalidArgument);

/**
 * The code and message an error reaches an agent as: a database outage as UNAVAILABLE with the message
 * agents key their back-off on; an error that is not a ConnectError as Connect shows it, without its
 * internals.
 */
export function refusal(err: unknown): { code: number; message: string } {
  if (err instanceof ConnectError) return { code: err.code, message: err.rawMessage };
  if (isDatabaseUnavailable(err)) return { code: Code.Unavailable, message: DATABASE_UNAVAILABLE_AGENT };
  return { code: Code.Internal, message: 'internal error' };
}
