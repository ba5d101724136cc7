// Auto-limit: a SELECT without its own limit gets one appended (one row more than asked, so `hasMore` is
// known without a count). The parser decides; the clause is appended rather than the statement rewritten,
// so the engine still reads exactly what the user wrote.
import { analyzeStatement, type StatementFacts } from './analyze.js';
import type { SqlDialect } from './dialect.js';

export const DEFAULT_AUTO_LIMIT = 500;

export interface LimitPlan {
  sql: string;
  /** True when the server appended a limit clause. */
  injected: boolean;
  facts: StatementFacts;
}

export async function planLimit(
  dialect: SqlDialect,
  statement: string,
  limit: number,
  offset: number,
): Promise<LimitPlan> {
  const facts = await analyzeStatement(dialect, statement);
  if (facts.kind !== 'select' || facts.hasLimit || !facts.readOnly)
    return { sql: statement, injected: false, facts };
  const rules = dialect;
  if (rules.applyLimit) return { sql: rules.applyLimit(statement, limit + 1, offset), injected: true, facts };
  const clause = rules.limitClause(limit + 1, offset, facts.hasOrderBy);
  return { sql: `${statement}\n${clause}`, injected: true, facts };
}
