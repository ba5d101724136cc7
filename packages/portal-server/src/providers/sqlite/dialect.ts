// SQLite's SQL dialect, which libSQL speaks too: the splitter keeps BEGIN … END trigger bodies whole,
// node-sql-parser's sqlite grammar, double-quoted identifiers, LIMIT/OFFSET, BEGIN/END/ABORT.
import { sqliteSplitterOptions } from 'dbgate-query-splitter';
import { beginEndAbort, limitClauses, quoteStyles, type SqlDialect } from '../../sql/dialect.js';

export const sqliteDialect: SqlDialect & { readonly name: 'sqlite' } = {
  name: 'sqlite',
  splitter: { ...sqliteSplitterOptions, skipSeparatorBeginEnd: true },
  parser: { kind: 'nsp', database: 'sqlite' },
  quote: quoteStyles.double,
  limitClause: limitClauses.limitOffset,
  transactionControl: beginEndAbort,
};
