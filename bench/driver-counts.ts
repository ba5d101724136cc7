// Counts what the server asks of its database, at the driver: every query a `pg` client sends (one client
// round trip each: the driver does not pipeline), every statement SQLite prepares, and the transactions they
// form (an explicit BEGIN … COMMIT, or a statement outside one, which commits on its own). The benchmarks
// divide these by the jobs they ran, so a change in the SQL shape of a hot path shows up as a number rather
// than only as a rate that also moves with the machine's load. Work the benchmark itself does (polling for
// completion) runs inside `uncounted`.
import { AsyncLocalStorage } from 'node:async_hooks';
import SQLite from 'better-sqlite3';
import pg from 'pg';

export interface DriverCounts {
  /** Queries sent to PostgreSQL (0 on SQLite, which is in process). */
  roundTrips: number;
  /** Statements other than BEGIN / COMMIT / ROLLBACK. */
  statements: number;
  /** Explicit transactions plus statements that committed on their own. */
  transactions: number;
}

const counts: DriverCounts = { roundTrips: 0, statements: 0, transactions: 0 };
/** Statements by their first words (`BENCH_SHAPES=1` prints them): where the count comes from. */
export const shapes = new Map<string, number>();
const quiet = new AsyncLocalStorage<true>();
/** Connections (pg clients, SQLite handles) inside an explicit transaction. */
const inTransaction = new WeakSet<object>();
let installed = false;

/** Runs `fn` without counting what it sends (the benchmark's own reads). */
export const uncounted = <T>(fn: () => Promise<T>): Promise<T> => quiet.run(true, fn);

function note(conn: object, text: unknown): void {
  if (quiet.getStore()) return;
  const head = typeof text === 'string' ? text.trimStart().slice(0, 9).toLowerCase() : '';
  if (head.startsWith('begin') || head.startsWith('start tra')) {
    counts.transactions++;
    inTransaction.add(conn);
  } else if (head.startsWith('commit') || head.startsWith('rollback')) {
    inTransaction.delete(conn);
  } else {
    counts.statements++;
    if (!inTransaction.has(conn)) counts.transactions++;
    const shape = `${inTransaction.has(conn) ? 'in tx: ' : ''}${String(text).replace(/\s+/g, ' ').slice(0, 70)}`;
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
}

/** Starts counting (idempotent): wraps `pg.Client#query` and better-sqlite3's `prepare`. */
export function installDriverCounts(): void {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query;
  // Replaced on the prototype, so the pool's own Client subclasses (kit's PreparingClient) count too.
  (pg.Client.prototype as any).query = function (this: pg.Client, ...args: any[]) {
    if (!quiet.getStore()) counts.roundTrips++;
    const first = args[0];
    note(this, typeof first === 'string' ? first : first?.text);
    return (query as any).apply(this, args);
  };
  const prepare = SQLite.prototype.prepare;
  (SQLite.prototype as any).prepare = function (this: SQLite.Database, source: string) {
    note(this, source);
    return prepare.call(this, source);
  };
}

export const snapshotCounts = (): DriverCounts => ({ ...counts });

export const countsSince = (before: DriverCounts): DriverCounts => ({
  roundTrips: counts.roundTrips - before.roundTrips,
  statements: counts.statements - before.statements,
  transactions: counts.transactions - before.transactions,
});
