// A ProviderSession for engines whose transactions are plain SQL statements on one held connection
// (PostgreSQL, MySQL/MariaDB, DuckDB): the begin/commit/rollback bookkeeping lives here once.
import type { ProviderSession } from './types.js';

export interface SqlSessionParts {
  query: ProviderSession['query'];
  /** The engine's statement that opens a transaction. */
  beginSql: string;
  /** Runs a transaction-control statement on the held connection; errors propagate. */
  control: (sql: string) => Promise<unknown>;
  /** Gives the connection back; `inTransaction` says one was left open and must be rolled back first. */
  release: (inTransaction: boolean) => Promise<void>;
}

export function sqlSession(parts: SqlSessionParts): ProviderSession {
  let inTx = false;
  let closed = false;
  return {
    query: parts.query,
    begin: async () => {
      await parts.control(parts.beginSql);
      inTx = true;
    },
    commit: async () => {
      await parts.control('COMMIT');
      inTx = false;
    },
    rollback: async () => {
      await parts.control('ROLLBACK');
      inTx = false;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await parts.release(inTx);
    },
  };
}
