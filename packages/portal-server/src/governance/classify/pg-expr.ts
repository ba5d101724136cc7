// Converts a libpg-query expression tree (a WHERE clause) to the evaluator's expression form. A construct
// the converter does not model becomes an opaque function when it mentions no column (so a constant stays
// constant) and `unknown` when it does.
import type { Expr } from './always-true.js';

type Node = Record<string, any>;

function mentionsColumn(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(mentionsColumn);
  const n = node as Node;
  if ('ColumnRef' in n || 'CurrentOfExpr' in n) return true;
  return Object.values(n).some(mentionsColumn);
}

const opaque = (node: unknown): Expr =>
  mentionsColumn(node) ? { k: 'unknown' } : { k: 'func', name: 'OPAQUE', args: [] };

const opName = (name: Node[] | undefined) => String(name?.[name.length - 1]?.String?.sval ?? '');
const list = (n: Node | undefined): Node[] => (n?.List?.items as Node[] | undefined) ?? [];

function constant(c: Node): Expr {
  if (c.isnull) return { k: 'const', v: null };
  if (c.ival) return { k: 'const', v: Number(c.ival.ival ?? 0) };
  if (c.fval) return { k: 'const', v: Number(c.fval.fval ?? 0) };
  if (c.boolval) return { k: 'const', v: Boolean(c.boolval.boolval) };
  if (c.sval) return { k: 'const', v: String(c.sval.sval ?? '') };
  return { k: 'func', name: 'OPAQUE', args: [] };
}

/** A sub-SELECT with no FROM and no WHERE (`SELECT 1`): its EXISTS is always true, its value a constant. */
function trivialSelect(sub: Node | undefined): Node | undefined {
  const s = sub?.SelectStmt as Node | undefined;
  if (!s || s.fromClause || s.whereClause || s.larg || s.valuesLists || s.havingClause) return undefined;
  return s;
}

export function pgExpr(node: Node | undefined): Expr {
  if (!node) return { k: 'unknown' };
  const [type, v] = Object.entries(node)[0] ?? [];
  const n = v as Node;
  switch (type) {
    case 'A_Const':
      return constant(n);
    case 'ColumnRef': {
      const fields = (n.fields as Node[]).map((f) => (f.String ? String(f.String.sval) : '*'));
      return {
        k: 'col',
        name: fields[fields.length - 1],
        table: fields.length > 1 ? fields[fields.length - 2] : undefined,
      };
    }
    case 'BoolExpr': {
      const args = (n.args as Node[]).map(pgExpr);
      if (n.boolop === 'NOT_EXPR') return { k: 'not', arg: args[0] };
      return { k: n.boolop === 'AND_EXPR' ? 'and' : 'or', args };
    }
    case 'NullTest':
      return { k: 'isnull', arg: pgExpr(n.arg), negated: n.nulltesttype === 'IS_NOT_NULL' };
    case 'BooleanTest': {
      const t = String(n.booltesttype);
      if (t.includes('UNKNOWN')) return { k: 'isnull', arg: pgExpr(n.arg), negated: t === 'IS_NOT_UNKNOWN' };
      return { k: 'istrue', arg: pgExpr(n.arg), value: t.includes('TRUE'), negated: t.includes('NOT') };
    }
    case 'TypeCast':
      return { k: 'func', name: 'CAST', args: [pgExpr(n.arg)] };
    case 'FuncCall': {
      const name = opName(n.funcname).toUpperCase();
      return { k: 'func', name, args: ((n.args as Node[] | undefined) ?? []).map(pgExpr) };
    }
    case 'CoalesceExpr':
      return { k: 'func', name: 'COALESCE', args: (n.args as Node[]).map(pgExpr) };
    case 'A_Expr':
      return aExpr(n, node);
    case 'SubLink': {
      if (n.subLinkType === 'EXISTS_SUBLINK')
        return { k: 'exists', trivial: Boolean(trivialSelect(n.subselect)) };
      const s = trivialSelect(n.subselect);
      if (n.subLinkType === 'EXPR_SUBLINK' && s) {
        return {
          k: 'func',
          name: 'SUBQ',
          args: ((s.targetList as Node[]) ?? []).map((t) => pgExpr(t.ResTarget?.val)),
        };
      }
      return { k: 'unknown' };
    }
    case 'ParamRef':
      return { k: 'func', name: 'PARAM', args: [] };
    default:
      return opaque(node);
  }
}

function aExpr(n: Node, whole: Node): Expr {
  const op = opName(n.name);
  const l = pgExpr(n.lexpr);
  switch (n.kind) {
    case 'AEXPR_OP':
      if (!n.lexpr) return { k: 'op', op: op === '-' ? 'NEG' : op, args: [pgExpr(n.rexpr)] };
      return { k: 'op', op, args: [l, pgExpr(n.rexpr)] };
    case 'AEXPR_IN': {
      const items = n.rexpr?.List ? list(n.rexpr) : [n.rexpr];
      return { k: 'in', arg: l, list: items.map(pgExpr), negated: op === '<>' };
    }
    case 'AEXPR_BETWEEN':
    case 'AEXPR_NOT_BETWEEN':
    case 'AEXPR_BETWEEN_SYM':
    case 'AEXPR_NOT_BETWEEN_SYM': {
      const [lo, hi] = list(n.rexpr).map(pgExpr);
      return { k: 'between', arg: l, lo, hi, negated: String(n.kind).includes('NOT') };
    }
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE':
      return { k: 'like', arg: l, pattern: pgExpr(n.rexpr), negated: op.startsWith('!') };
    case 'AEXPR_DISTINCT':
      return { k: 'distinct', l, r: pgExpr(n.rexpr), negated: false };
    case 'AEXPR_NOT_DISTINCT':
      return { k: 'distinct', l, r: pgExpr(n.rexpr), negated: true };
    default:
      return opaque(whole);
  }
}
