// Recognises an error that means "the database cannot be reached right now" (PostgreSQL down, restarting or
// refusing connections; a connection dropped mid-query; a pool that timed out connecting), as opposed to a
// bug or a client mistake. Such errors answer 503 `{error}` with Retry-After over HTTP (app.ts) and
// `Unavailable` over the CI's gRPC, so clients and agents retry instead of seeing an internal error.

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);
/** PostgreSQL SQLSTATE classes 08 (connection exception) and 57P0x (shutdown, cannot connect now). */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-4]|53300)$/;
const MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|Cannot use a pool after calling end|connect ECONNREFUSED/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
    if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
    if (Array.isArray(e.errors) && e.errors.some((x: unknown) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}

export const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly';
