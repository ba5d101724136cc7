// Auto-limit and paging of one statement: a SELECT without its own limit gets `limit + 1` appended so
// `hasMore` is exact; any other statement keeps its text and its rows are capped at the datasource ceiling.
import type { ExecOptions, ExecResult, ParamValue } from '../providers/types.js';
import type { SqlDialect } from '../sql/dialect.js';
import { DEFAULT_AUTO_LIMIT, planLimit } from '../sql/limit.js';

export interface Pagination {
  limit: number;
  offset: number;
  hasMore: boolean;
  totalReturned: number;
  wasLimited: boolean;
}

export interface PageOptions {
  limit?: number;
  offset: number;
  unlimited: boolean;
}

export interface StatementOutcome {
  result: ExecResult;
  pagination: Pagination;
  executionTime: number;
}

export async function runWithPaging(
  run: (sql: string, params: ParamValue[], opts: ExecOptions) => Promise<ExecResult>,
  dialect: SqlDialect,
  statement: string,
  params: ParamValue[],
  page: PageOptions,
  ceiling: number,
  onStart?: ExecOptions['onStart'],
): Promise<StatementOutcome> {
  const limit = page.unlimited ? ceiling : Math.min(page.limit ?? DEFAULT_AUTO_LIMIT, ceiling);
  const plan = await planLimit(dialect, statement, limit, page.offset);
  const maxRows = plan.injected ? limit : ceiling;
  const started = performance.now();
  const result = await run(plan.sql, params, { maxRows, onStart });
  const executionTime = Math.round(performance.now() - started);
  return {
    result,
    executionTime,
    pagination: {
      limit: maxRows,
      offset: plan.injected ? page.offset : 0,
      hasMore: result.truncated,
      totalReturned: result.rows.length,
      wasLimited: plan.injected || result.truncated,
    },
  };
}
