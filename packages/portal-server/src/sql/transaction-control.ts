// Detects transaction-control statements, which the portal refuses on /api/db/query, inside scripts and in
// the query action of /api/db/transaction: a pooled connection must never be left inside a transaction.
// The check reads each split statement's leading keywords, so a COMMIT inside a routine body or a string is
// not a match, and BEGIN opening a T-SQL or PL/SQL block is not one either.
import type { Dialect } from './dialects.js';
import { leadingWords, stripLeadingComments } from './split.js';

const COMMON = new Set(['COMMIT', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

/** The transaction-control keyword a statement starts with, or null. */
export function transactionControlKeyword(dialect: Dialect, statement: string): string | null {
  const [w1 = '', w2 = ''] = leadingWords(statement, dialect, 2);
  if (COMMON.has(w1)) return w1;
  if (w1 === 'START' && w2 === 'TRANSACTION') return 'START TRANSACTION';
  if (w1 === 'SET' && w2 === 'TRANSACTION') return 'SET TRANSACTION';
  switch (dialect) {
    case 'postgres':
    case 'duckdb':
    case 'sqlite':
      if (w1 === 'BEGIN' || w1 === 'END' || w1 === 'ABORT') return w1;
      if (w1 === 'PREPARE' && w2 === 'TRANSACTION') return 'PREPARE TRANSACTION';
      return null;
    case 'mysql': {
      // BEGIN [WORK] starts a transaction; MariaDB's `BEGIN NOT ATOMIC` opens a compound statement.
      if (w1 === 'BEGIN' && (w2 === '' || w2 === 'WORK' || w2 === ';')) return 'BEGIN';
      if (w1 === 'XA') return 'XA';
      const body = stripLeadingComments(statement, dialect);
      if (
        /^SET\s+(?:(?:SESSION|GLOBAL|LOCAL)\s+|@@(?:SESSION\.|GLOBAL\.|LOCAL\.)?)?autocommit\b/i.test(body)
      ) {
        return 'SET autocommit';
      }
      return null;
    }
    case 'mssql':
      if ((w1 === 'BEGIN' || w1 === 'SAVE') && /^(TRAN|TRANSACTION|DISTRIBUTED)$/.test(w2))
        return `${w1} ${w2}`;
      if (w1 === 'SET' && w2 === 'IMPLICIT_TRANSACTIONS') return 'SET IMPLICIT_TRANSACTIONS';
      return null;
    case 'oracle':
      return null;
  }
}
