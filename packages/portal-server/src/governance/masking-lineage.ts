// Column lineage for masking (DESIGN §5: masking leaks through aliases, expressions and subqueries): which
// output columns of a statement carry values of a masked column. Reads the same parser trees as the
// classifier (libpg-query for PostgreSQL/DuckDB, node-sql-parser for the rest). Taint is tracked by name and
// is scope-blind on purpose: a name derived anywhere from a masked column is masked everywhere in the
// statement, and an output the analysis cannot name while it derives from one masks every column. Over-masking
// is the price of never under-masking.
import { pgParse } from '../sql/parsers.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './classify/dialects.js';
import { nspParse } from './classify/generic.js';
import { lex } from './classify/lexer.js';

type Node = Record<string, any>;
export type MaskKind = 'full' | 'partial' | 'hash';

const STRENGTH: Record<MaskKind, number> = { partial: 1, hash: 2, full: 3 };
export function stronger(a: MaskKind | undefined, b: MaskKind | undefined): MaskKind | undefined {
  if (!a) return b;
  if (!b) return a;
  return STRENGTH[a] >= STRENGTH[b] ? a : b;
}

/** How to mask one statement's output columns. */
export interface FieldPlan {
  /** Output column names (lower case) that carry masked values, with the rule to apply. */
  byName: Map<string, MaskKind>;
  /** Per select-list position, when the list has no `*` (exact: fields arrive in this order). */
  byPosition?: (MaskKind | undefined)[];
  /** Every output column is masked with this rule (lineage could not be read). */
  all?: MaskKind;
}

interface Target {
  star: boolean;
  /** Output name as the engine names it, lower case; undefined when the analysis cannot tell. */
  name?: string;
  kind?: MaskKind;
}

const lower = (s: string) => s.toLowerCase();

/**
 * The masking plan of one statement. `masked` maps lower-case column names of the rules that apply to the
 * statement (its tables are reached, or `*.column`) to their rule.
 */
export async function planFields(
  text: string,
  dialect: Dialect,
  masked: Map<string, MaskKind>,
): Promise<FieldPlan> {
  const byName = new Map(masked);
  if (masked.size === 0) return { byName };
  const info = CLASSIFIER_DIALECT_INFO[dialect];
  let targets: Target[] | undefined;
  try {
    targets =
      info.family === 'pg'
        ? await pgTargets(text, byName)
        : nspTargets(lex(text, info.lex).normalized, info.grammars, byName);
  } catch {
    targets = undefined;
  }
  if (!targets) {
    // Unreadable: if the text mentions a masked column at all, mask every output column.
    const mentioned = mentionedKinds(text, dialect, masked);
    return mentioned ? { byName, all: mentioned } : { byName };
  }
  const plan: FieldPlan = { byName };
  const hasStar = targets.some((t) => t.star);
  if (!hasStar) plan.byPosition = targets.map((t) => t.kind);
  for (const t of targets) {
    if (!t.kind) continue;
    if (t.name) byName.set(t.name, stronger(byName.get(t.name), t.kind)!);
    else if (hasStar) plan.all = stronger(plan.all, t.kind);
  }
  return plan;
}

/** The strongest rule among masked column names the text mentions as identifiers, if any. */
function mentionedKinds(text: string, dialect: Dialect, masked: Map<string, MaskKind>): MaskKind | undefined {
  const lx = lex(text, CLASSIFIER_DIALECT_INFO[dialect].lex);
  let kind: MaskKind | undefined;
  for (const t of lx.tokens) {
    if (t.kind !== 'word' && t.kind !== 'qident') continue;
    kind = stronger(kind, masked.get(lower(t.value)));
  }
  return kind;
}

// ---------------------------------------------------------------- PostgreSQL (libpg-query)

/** Visits every node of a tree. */
function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) walk(x, visit);
  } else if (node && typeof node === 'object') {
    visit(node as Node);
    for (const v of Object.values(node)) walk(v, visit);
  }
}

const sval = (n: Node | undefined): string | undefined => n?.String?.sval;

/** Taint of one PostgreSQL statement: masked names, and table aliases whose whole-row value carries them. */
interface PgTaint {
  names: Map<string, MaskKind>;
  rows: Map<string, MaskKind>;
}

/** Strongest taint among the column names (and whole-row values such as `row_to_json(u)`) an expression uses. */
function pgKind(expr: unknown, taint: PgTaint): MaskKind | undefined {
  let kind: MaskKind | undefined;
  walk(expr, (n) => {
    const ref = n.ColumnRef as Node | undefined;
    if (!ref) return;
    const fields = ref.fields as Node[];
    const last = sval(fields[fields.length - 1]);
    if (last) kind = stronger(kind, taint.names.get(lower(last)));
    // `u` or `u.*` inside an expression is the whole row of `u`.
    const head = sval(fields[0]);
    if (head && (fields.length === 1 || fields[fields.length - 1].A_Star)) {
      kind = stronger(kind, taint.rows.get(lower(head)));
    }
  });
  return kind;
}

/** PostgreSQL's FigureColname for the common expression forms; undefined when unsure. */
function pgName(val: Node): string | undefined {
  if (val.ColumnRef) {
    const f = val.ColumnRef.fields as Node[];
    return sval(f[f.length - 1]) ? lower(sval(f[f.length - 1])!) : undefined;
  }
  if (val.FuncCall) {
    const f = val.FuncCall.funcname as Node[];
    return sval(f[f.length - 1]) ? lower(sval(f[f.length - 1])!) : undefined;
  }
  if (val.TypeCast) {
    const inner = pgName(val.TypeCast.arg);
    if (inner && inner !== '?column?') return inner;
    const names = val.TypeCast.typeName?.names as Node[] | undefined;
    return names ? sval(names[names.length - 1]) : undefined;
  }
  if (val.CoalesceExpr) return 'coalesce';
  if (val.CaseExpr) return 'case';
  if (val.SubLink?.subLinkType === 'EXPR_SUBLINK') {
    const t = val.SubLink.subselect?.SelectStmt?.targetList?.[0]?.ResTarget;
    return t ? (t.name ? lower(t.name) : pgName(t.val)) : undefined;
  }
  return undefined;
}

function pgSelectTargets(sel: Node, taint: PgTaint): Target[] | undefined {
  if (sel.op && sel.op !== 'SETOP_NONE') {
    const l = pgSelectTargets(sel.larg, taint);
    const r = pgSelectTargets(sel.rarg, taint);
    if (!l || !r) return undefined;
    return l.map((t, i) => ({ ...t, kind: stronger(t.kind, r[i]?.kind) }));
  }
  if (sel.valuesLists) return (sel.valuesLists[0]?.List?.items ?? []).map(() => ({ star: false }));
  return listTargets(sel.targetList ?? [], taint);
}

function listTargets(list: Node[], taint: PgTaint): Target[] {
  return list.map((item) => {
    const rt = item.ResTarget as Node;
    const val = rt.val as Node;
    const fields = val?.ColumnRef?.fields as Node[] | undefined;
    if (fields?.some((f) => f.A_Star)) return { star: true };
    const kind = pgKind(val, taint);
    return { star: false, name: rt.name ? lower(rt.name) : pgName(val), kind };
  });
}

/** Spreads taint through aliases, subquery and CTE column names until nothing changes. */
function pgPropagate(tree: Node, taint: PgTaint): void {
  for (let round = 0; round < 8; round++) {
    let changed = false;
    const add = (name: string | undefined, kind: MaskKind | undefined) => {
      if (!name || !kind) return;
      const key = lower(name);
      const next = stronger(taint.names.get(key), kind)!;
      if (taint.names.get(key) !== next) {
        taint.names.set(key, next);
        changed = true;
      }
    };
    walk(tree, (n) => {
      if (n.ResTarget?.name && n.ResTarget.val) add(n.ResTarget.name, pgKind(n.ResTarget.val, taint));
      // `(SELECT …) AS x(a, b)` and `WITH c(a, b) AS (…)`: column names given by position.
      const sub = n.RangeSubselect?.subquery?.SelectStmt;
      const subNames = n.RangeSubselect?.alias?.colnames as Node[] | undefined;
      const cte = n.CommonTableExpr;
      const pairs: [Node | undefined, Node[] | undefined, string | undefined][] = [
        [sub, subNames, n.RangeSubselect?.alias?.aliasname],
        [cte?.ctequery?.SelectStmt, cte?.aliascolnames, cte?.ctename],
      ];
      for (const [sel, names, alias] of pairs) {
        if (!sel) continue;
        const ts = pgSelectTargets(sel, taint);
        if (!ts) continue;
        ts.forEach((t, i) => {
          add(sval(names?.[i]) ?? t.name, t.kind);
        });
        // The alias used as a whole-row value carries every tainted column of the subquery.
        const rowKind = ts.reduce<MaskKind | undefined>((k, t) => stronger(k, t.kind), undefined);
        if (alias && rowKind) taint.rows.set(lower(alias), stronger(taint.rows.get(lower(alias)), rowKind)!);
      }
    });
    if (!changed) break;
  }
}

async function pgTargets(text: string, names: Map<string, MaskKind>): Promise<Target[] | undefined> {
  let stmts: Node[];
  try {
    stmts = ((await pgParse(text)).stmts ?? []).map((s) => s.stmt as Node);
  } catch {
    return undefined;
  }
  if (stmts.length !== 1) return undefined;
  const stmt = stmts[0];
  // A table reached as a whole row (`SELECT u FROM users u`, `row_to_json(u)`) carries its masked columns;
  // which table holds which column is not known here, so every reached table's row counts.
  const strongest = [...names.values()].reduce<MaskKind | undefined>((k, v) => stronger(k, v), undefined);
  const taint: PgTaint = { names, rows: new Map() };
  if (strongest) {
    walk(stmt, (n) => {
      const rv = n.RangeVar;
      if (rv?.relname) taint.rows.set(lower(rv.alias?.aliasname ?? rv.relname), strongest);
    });
  }
  pgPropagate(stmt, taint);
  const [type, node] = Object.entries(stmt)[0] as [string, Node];
  if (type === 'SelectStmt') return pgSelectTargets(node, taint);
  if (node?.returningList) return listTargets(node.returningList, taint);
  // EXPLAIN, SHOW and the rest answer no table data (plans carry only the statement's own literals).
  return [];
}

// ---------------------------------------------------------------- other engines (node-sql-parser)

function nspColumnName(col: unknown): string | undefined {
  if (typeof col === 'string') return col;
  const v = (col as Node | undefined)?.expr?.value;
  return typeof v === 'string' ? v : undefined;
}

function nspKind(expr: unknown, taint: Map<string, MaskKind>): MaskKind | undefined {
  let kind: MaskKind | undefined;
  walk(expr, (n) => {
    if (n.type !== 'column_ref') return;
    const name = nspColumnName(n.column);
    if (name) kind = stronger(kind, taint.get(lower(name)));
  });
  return kind;
}

function nspSelectTargets(sel: Node, taint: Map<string, MaskKind>): Target[] | undefined {
  const cols = sel.columns;
  if (!Array.isArray(cols)) return cols === '*' ? [{ star: true }] : undefined;
  let targets: Target[] = cols.map((c: Node) => {
    const e = c.expr as Node;
    if (e?.type === 'column_ref' && nspColumnName(e.column) === '*') return { star: true };
    const kind = nspKind(e, taint);
    const name =
      typeof c.as === 'string'
        ? lower(c.as)
        : e?.type === 'column_ref'
          ? lower(nspColumnName(e.column) ?? '')
          : undefined;
    return { star: false, name: name || undefined, kind };
  });
  if (sel._next) {
    const next = nspSelectTargets(sel._next, taint);
    if (!next) return undefined;
    targets = targets.map((t, i) => ({ ...t, kind: stronger(t.kind, next[i]?.kind) }));
  }
  return targets;
}

function nspTargets(code: string, grammars: string[], taint: Map<string, MaskKind>): Target[] | undefined {
  const parsed = nspParse(code, grammars);
  if (parsed?.statements.length !== 1) return undefined;
  const stmt = parsed.statements[0];
  for (let round = 0; round < 8; round++) {
    let changed = false;
    walk(stmt, (n) => {
      if (!Array.isArray(n.columns)) return;
      for (const c of n.columns as Node[]) {
        if (!c || typeof c !== 'object' || typeof c.as !== 'string') continue;
        const kind = nspKind(c.expr, taint);
        const key = lower(c.as);
        const next = stronger(taint.get(key), kind);
        if (next && taint.get(key) !== next) {
          taint.set(key, next);
          changed = true;
        }
      }
    });
    if (!changed) break;
  }
  if (stmt.type === 'select') return nspSelectTargets(stmt, taint);
  if (stmt.returning?.columns) return nspSelectTargets({ columns: stmt.returning.columns }, taint);
  if (['insert', 'replace', 'update', 'delete'].includes(stmt.type)) return [];
  // SHOW, DESCRIBE, EXPLAIN and the rest: read by name only.
  return undefined;
}
