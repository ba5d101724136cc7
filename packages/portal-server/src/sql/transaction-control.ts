// Detects transaction-control statements, which the portal refuses on /api/db/query, inside scripts and in
// the query action of /api/db/transaction: a pooled connection must never be left inside a transaction.
// The check reads each split statement's leading keywords, so a COMMIT inside a routine body or a string is
// not a match, and BEGIN opening a T-SQL or PL/SQL block is not one either.
import type { SqlDialect } from './dialect.js';
import { leadingWords, stripLeadingComments } from './split.js';

const COMMON = new Set(['COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/** The transaction-control keyword a statement starts with, or null. */
export function transactionControlKeyword(dialect: SqlDialect, statement: string): string | null {
  const [w1 = '', w2 = ''] = leadingWords(statement, dialect, 2);
  if (COMMON.has(w1)) return w1;
  if (w1 === 'START' && w2 === 'TRANSACTION') return 'START TRANSACTION';
  if (w1 === 'SET' && w2 === 'TRANSACTION') return 'SET TRANSACTION';
  return dialect.transactionControl(w1, w2, stripLeadingComments(statement, dialect));
}
