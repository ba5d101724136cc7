// Parser-based facts about one statement: is it a SELECT, does it only read, does it already limit its rows,
// does it order them. PostgreSQL and DuckDB go through libpg-query (PostgreSQL's own grammar); the other
// dialects through node-sql-parser. A failed or doubtful parse is `unknown`, which never counts as a read.
import type { SqlDialect } from './dialect.js';
import { nspParse, pgParse } from './parsers.js';

export interface StatementFacts {
  kind: 'select' | 'other' | 'unknown';
  /** A SELECT with no locking clause, no INTO and no data-modifying CTE. */
  readOnly: boolean;
  hasLimit: boolean;
  hasOrderBy: boolean;
}

const UNKNOWN: StatementFacts = { kind: 'unknown', readOnly: false, hasLimit: false, hasOrderBy: false };
const OTHER: StatementFacts = { kind: 'other', readOnly: false, hasLimit: false, hasOrderBy: false };

export async function analyzeStatement(rules: SqlDialect, statement: string): Promise<StatementFacts> {
  const info = rules.parser;
  try {
    if (rules.analyze) return rules.analyze(statement);
    if (info.kind === 'libpg') return analyzePg(await pgParse(statement));
    return analyzeNsp(nspParse(statement, info.database).ast as Node | Node[]);
  } catch {
    return UNKNOWN;
  }
}

type Node = Record<string, any>;

/** True when a SelectStmt tree (set operations, CTEs, sublinks excluded) writes or locks. */
function pgSelectWrites(sel: Node | undefined): boolean {
  if (!sel) return false;
  if (sel.intoClause || (sel.lockingClause?.length ?? 0) > 0) return true;
  for (const cte of sel.withClause?.ctes ?? []) {
    const q = cte.CommonTableExpr?.ctequery ?? {};
    if (!q.SelectStmt) return true;
    if (pgSelectWrites(q.SelectStmt)) return true;
  }
  return pgSelectWrites(sel.larg) || pgSelectWrites(sel.rarg);
}

function analyzePg(result: { stmts?: ReadonlyArray<{ stmt?: object }> }): StatementFacts {
  if (result.stmts?.length !== 1) return UNKNOWN;
  const sel = (result.stmts[0].stmt as Node | undefined)?.SelectStmt as Node | undefined;
  if (!sel) return OTHER;
  const hasLimit =
    sel.limitCount !== undefined ||
    sel.limitOffset !== undefined ||
    (sel.limitOption !== undefined && sel.limitOption !== 'LIMIT_OPTION_DEFAULT');
  return {
    kind: 'select',
    readOnly: !pgSelectWrites(sel),
    hasLimit,
    hasOrderBy: (sel.sortClause?.length ?? 0) > 0,
  };
}

function nspHasLimit(node: Node): boolean {
  const limit = node.limit;
  if (limit && ((limit.value?.length ?? 0) > 0 || limit.fetch)) return true;
  return Boolean(node._limit || node.top || node.fetch);
}

function analyzeNsp(ast: Node | Node[]): StatementFacts {
  const list = Array.isArray(ast) ? ast : [ast];
  if (list.length !== 1) return UNKNOWN;
  const root = list[0];
  if (root.type !== 'select') return OTHER;
  let hasLimit = false;
  let hasOrderBy = false;
  let writes = false;
  for (let node: Node | undefined = root; node; node = node._next) {
    if (nspHasLimit(node)) hasLimit = true;
    if ((node.orderby?.length ?? 0) > 0 || (node._orderby?.length ?? 0) > 0) hasOrderBy = true;
    if (node.into?.position || node.into?.expr || node.locking_read || node.for_update) writes = true;
    for (const cte of node.with ?? []) {
      if (cte.stmt?.ast?.type && cte.stmt.ast.type !== 'select') writes = true;
    }
  }
  return { kind: 'select', readOnly: !writes, hasLimit, hasOrderBy };
}
