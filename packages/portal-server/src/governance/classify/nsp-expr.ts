// Converts a node-sql-parser expression (a WHERE clause) to the evaluator's expression form. Constructs the
// converter does not model become an opaque function when they mention no column and `unknown` otherwise.
import type { Expr } from './always-true.js';

type Node = Record<string, any>;

function mentionsColumn(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(mentionsColumn);
  const n = node as Node;
  if (n.type === 'column_ref') return true;
  return Object.values(n).some(mentionsColumn);
}

const opaque = (node: unknown): Expr =>
  mentionsColumn(node) ? { k: 'unknown' } : { k: 'func', name: 'OPAQUE', args: [] };

const STRING_TYPES = new Set([
  'single_quote_string',
  'string',
  'double_quote_string',
  'natural_string',
  'var_string',
  'regex_string',
]);

const fnName = (n: Node): string => {
  const parts = (n.name?.name as Node[] | undefined) ?? [];
  return String(parts[parts.length - 1]?.value ?? n.name ?? '').toUpperCase();
};

/** A sub-SELECT with neither FROM nor WHERE. */
function trivialSelect(sub: Node | undefined): Node | undefined {
  const s = sub?.ast as Node | undefined;
  if (s?.type !== 'select' || s.from || s.where || s._next || s.having) return undefined;
  return s;
}

const listOf = (n: Node | undefined): Node[] =>
  n?.type === 'expr_list' ? ((n.value as Node[]) ?? []) : n ? [n] : [];

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '<=>', 'LIKE', 'IS', 'IS NOT']);
const isPipes = (n: Node | undefined) => n?.type === 'binary_expr' && n.operator === '||' && !n.parentheses;

/**
 * MySQL's `||` is a logical OR binding looser than comparisons, but the grammar binds it like concatenation:
 * `id = 5 || 1` arrives as `id = (5 || 1)`. Re-associate so the evaluator sees `(id = 5) OR 1`.
 */
function reassociatePipes(node: Node): Node {
  if (node.type !== 'binary_expr' || !COMPARISONS.has(String(node.operator).toUpperCase())) return node;
  if (isPipes(node.right)) {
    const cmp = { ...node, right: node.right.left };
    return { type: 'binary_expr', operator: 'OR', left: reassociatePipes(cmp), right: node.right.right };
  }
  if (isPipes(node.left)) {
    const cmp = { ...node, left: node.left.right };
    return { type: 'binary_expr', operator: 'OR', left: node.left.left, right: reassociatePipes(cmp) };
  }
  return node;
}

let pipesAreOr = false;

/** Converts a WHERE clause; `pipes` makes `||` a logical OR (MySQL). */
export function nspWhere(node: Node | undefined | null, pipes: boolean): Expr {
  pipesAreOr = pipes;
  try {
    return nspExpr(node);
  } finally {
    pipesAreOr = false;
  }
}

function nspExpr(node: Node | undefined | null): Expr {
  if (!node) return { k: 'unknown' };
  if (node.ast) {
    const s = trivialSelect(node);
    if (!s) return { k: 'unknown' };
    return { k: 'func', name: 'SUBQ', args: ((s.columns as Node[]) ?? []).map((c) => nspExpr(c.expr)) };
  }
  const type = String(node.type ?? '');
  if (type === 'number') return { k: 'const', v: Number(node.value) };
  if (type === 'bool' || type === 'boolean') return { k: 'const', v: Boolean(node.value) };
  if (type === 'null') return { k: 'const', v: null };
  if (STRING_TYPES.has(type)) return { k: 'const', v: String(node.value) };
  switch (type) {
    case 'column_ref': {
      const col = typeof node.column === 'string' ? node.column : String(node.column?.expr?.value ?? '');
      return { k: 'col', name: col, table: node.table ? String(node.table) : undefined };
    }
    case 'binary_expr':
      return binary(node);
    case 'unary_expr': {
      const op = String(node.operator).toUpperCase();
      if (op === 'NOT' || op === '!') return { k: 'not', arg: nspExpr(node.expr) };
      if (op === '-') return { k: 'op', op: 'NEG', args: [nspExpr(node.expr)] };
      if (op === 'EXISTS') return { k: 'exists', trivial: Boolean(trivialSelect(node.expr)) };
      if (op === 'NOT EXISTS')
        return { k: 'not', arg: { k: 'exists', trivial: Boolean(trivialSelect(node.expr)) } };
      return opaque(node);
    }
    case 'function': {
      const name = fnName(node);
      const args = listOf(node.args);
      if (name === 'EXISTS') return { k: 'exists', trivial: Boolean(trivialSelect(args[0])) };
      if (name === 'NOT' && args.length === 1) return { k: 'not', arg: nspExpr(args[0]) }; // NOT (…)
      return { k: 'func', name, args: args.map(nspExpr) };
    }
    case 'cast':
      return { k: 'func', name: 'CAST', args: [nspExpr(node.expr)] };
    case 'expr_list': {
      const items = listOf(node);
      return items.length === 1 ? nspExpr(items[0]) : { k: 'func', name: 'LIST', args: items.map(nspExpr) };
    }
    case 'var':
    case 'param':
    case 'origin':
      return node.value === '?' || type !== 'origin' ? { k: 'func', name: 'PARAM', args: [] } : opaque(node);
    default:
      return opaque(node);
  }
}

function binary(original: Node): Expr {
  const node = pipesAreOr ? reassociatePipes(original) : original;
  if (pipesAreOr && node.operator === '||')
    return { k: 'or', args: [nspExpr(node.left), nspExpr(node.right)] };
  const op = String(node.operator).toUpperCase();
  const l = nspExpr(node.left);
  switch (op) {
    case 'AND':
    case '&&':
      return { k: 'and', args: [l, nspExpr(node.right)] };
    case 'OR':
      return { k: 'or', args: [l, nspExpr(node.right)] };
    case 'XOR':
      return { k: 'func', name: 'XOR', args: [l, nspExpr(node.right)] };
    case 'IN':
    case 'NOT IN':
      return { k: 'in', arg: l, list: listOf(node.right).map(nspExpr), negated: op === 'NOT IN' };
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const [lo, hi] = listOf(node.right).map(nspExpr);
      return { k: 'between', arg: l, lo, hi, negated: op === 'NOT BETWEEN' };
    }
    case 'LIKE':
    case 'NOT LIKE':
    case 'ILIKE':
    case 'NOT ILIKE':
      return { k: 'like', arg: l, pattern: nspExpr(node.right), negated: op.startsWith('NOT') };
    case 'IS':
    case 'IS NOT': {
      const r = node.right as Node | undefined;
      const negated = op === 'IS NOT';
      if (r?.type === 'null') return { k: 'isnull', arg: l, negated };
      if (r?.type === 'bool' || r?.type === 'boolean')
        return { k: 'istrue', arg: l, value: Boolean(r.value), negated };
      return { k: 'distinct', l, r: nspExpr(r), negated: !negated };
    }
    case 'IS DISTINCT FROM':
    case 'IS NOT DISTINCT FROM':
      return { k: 'distinct', l, r: nspExpr(node.right), negated: op.includes('NOT') };
    default:
      return { k: 'op', op, args: [l, nspExpr(node.right)] };
  }
}
