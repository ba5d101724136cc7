// Decides whether an UPDATE's WHERE clause selects every row: literally true (`1=1`, `true`, `'a'='a'`,
// `NOT false`, `1 IN (1)`, `1+1=2`), a comparison of a column with itself, an OR with an always-true branch,
// `p OR NOT p`, `LIKE '%'`. A predicate that does not depend on the row at all (no column, no correlated
// subquery) is held unless it is provably false, since it can only select all rows or none.
// Both parsers' trees are converted to the small expression form below (pg-expr.ts, nsp-expr.ts).

export type Expr =
  | { k: 'const'; v: number | string | boolean | null }
  | { k: 'col'; table?: string; name: string }
  | { k: 'op'; op: string; args: Expr[] }
  | { k: 'and' | 'or'; args: Expr[] }
  | { k: 'not'; arg: Expr }
  | { k: 'in'; arg: Expr; list: Expr[]; negated: boolean }
  | { k: 'between'; arg: Expr; lo: Expr; hi: Expr; negated: boolean }
  | { k: 'isnull'; arg: Expr; negated: boolean }
  | { k: 'istrue'; arg: Expr; value: boolean; negated: boolean }
  | { k: 'distinct'; l: Expr; r: Expr; negated: boolean }
  | { k: 'like'; arg: Expr; pattern: Expr; negated: boolean }
  | { k: 'exists'; trivial: boolean }
  | { k: 'func'; name: string; args: Expr[] }
  | { k: 'unknown' };

type V = number | string | boolean | null;
const UNK = Symbol('unknown');
type R = V | typeof UNK;

export interface EvalOptions {
  /** MySQL: `||` is a logical OR. */
  pipesAreOr: boolean;
}

const VOLATILE = new Set(['RANDOM', 'RAND', 'NEWID', 'UUID', 'GEN_RANDOM_UUID', 'RANDOMBLOB', 'NEXTVAL']);

/** No column and no unmodelled subquery anywhere: the predicate has the same value for every row. */
function rowIndependent(e: Expr): boolean {
  switch (e.k) {
    case 'const':
      return true;
    case 'col':
    case 'unknown':
      return false;
    case 'exists':
      return e.trivial;
    case 'op':
    case 'and':
    case 'or':
      return e.args.every(rowIndependent);
    case 'func':
      return !VOLATILE.has(e.name) && e.args.every(rowIndependent);
    case 'not':
    case 'isnull':
    case 'istrue':
      return rowIndependent(e.arg);
    case 'in':
      return rowIndependent(e.arg) && e.list.every(rowIndependent);
    case 'between':
      return rowIndependent(e.arg) && rowIndependent(e.lo) && rowIndependent(e.hi);
    case 'distinct':
      return rowIndependent(e.l) && rowIndependent(e.r);
    case 'like':
      return rowIndependent(e.arg) && rowIndependent(e.pattern);
  }
}

function toNum(v: V): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function truth(v: R): boolean | null | typeof UNK {
  if (v === UNK || v === null || typeof v === 'boolean') return v;
  const n = toNum(v);
  return n === undefined ? UNK : n !== 0;
}

/** -1, 0, 1, or UNK when the engines disagree (case-only string differences). */
function compare(a: V, b: V): number | typeof UNK {
  const x = toNum(a);
  const y = toNum(b);
  if (x !== undefined && y !== undefined) return Math.sign(x - y);
  const s = String(a);
  const t = String(b);
  if (s !== t && s.toLowerCase() === t.toLowerCase()) return UNK;
  return s === t ? 0 : s < t ? -1 : 1;
}

function logic(kind: 'and' | 'or', values: Array<boolean | null | typeof UNK>): R {
  const decisive = kind !== 'and';
  if (values.includes(decisive)) return decisive;
  if (values.includes(UNK)) return UNK;
  if (values.includes(null)) return null;
  return !decisive;
}

function evaluate(e: Expr, o: EvalOptions): R {
  switch (e.k) {
    case 'const':
      return e.v;
    case 'col':
    case 'unknown':
      return UNK;
    case 'exists':
      return e.trivial ? true : UNK;
    case 'and':
    case 'or':
      return logic(
        e.k,
        e.args.map((a) => truth(evaluate(a, o))),
      );
    case 'not': {
      const t = truth(evaluate(e.arg, o));
      return t === UNK || t === null ? t : !t;
    }
    case 'isnull': {
      const v = evaluate(e.arg, o);
      return v === UNK ? UNK : (v === null) !== e.negated;
    }
    case 'istrue': {
      const t = truth(evaluate(e.arg, o));
      return t === UNK ? UNK : (t === e.value) !== e.negated;
    }
    case 'distinct': {
      const l = evaluate(e.l, o);
      const r = evaluate(e.r, o);
      if (l === UNK || r === UNK) return UNK;
      if (l === null || r === null) return (l === r) === e.negated;
      const c = compare(l, r);
      return c === UNK ? UNK : (c === 0) === e.negated;
    }
    case 'in': {
      const v = evaluate(e.arg, o);
      const list = e.list.map((x) => evaluate(x, o));
      if (v === UNK || list.includes(UNK)) return UNK;
      if (v === null) return null;
      const hits = list.map((x) => (x === null ? null : compare(v, x as V) === 0));
      const r = logic('or', hits);
      return r === UNK || r === null ? r : r !== e.negated;
    }
    case 'between': {
      const v = evaluate(e.arg, o);
      const lo = evaluate(e.lo, o);
      const hi = evaluate(e.hi, o);
      if (v === UNK || lo === UNK || hi === UNK) return UNK;
      if (v === null || lo === null || hi === null) return null;
      const a = compare(v, lo);
      const b = compare(v, hi);
      if (a === UNK || b === UNK) return UNK;
      return (a >= 0 && b <= 0) !== e.negated;
    }
    case 'like': {
      const v = evaluate(e.arg, o);
      const p = evaluate(e.pattern, o);
      if (v === UNK || p === UNK) return UNK;
      if (v === null || p === null) return null;
      const re = String(p)
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/%/g, '.*')
        .replace(/_/g, '.');
      const sensitive = new RegExp(`^${re}$`, 's').test(String(v));
      const insensitive = new RegExp(`^${re}$`, 'is').test(String(v));
      return sensitive !== insensitive ? UNK : sensitive !== e.negated;
    }
    case 'func':
      return evalFunc(e.name, e.args, o);
    case 'op':
      return evalOp(e.op, e.args, o);
  }
}

function evalFunc(name: string, args: Expr[], o: EvalOptions): R {
  const values = args.map((a) => evaluate(a, o));
  if (values.includes(UNK)) return UNK;
  const vs = values as V[];
  switch (name) {
    case 'CAST':
      return vs[0] ?? null;
    case 'COALESCE':
    case 'IFNULL':
    case 'NVL':
    case 'ISNULL':
      return vs.find((v) => v !== null) ?? null;
    case 'ABS': {
      const n = toNum(vs[0] ?? null);
      return n === undefined ? UNK : Math.abs(n);
    }
    case 'LOWER':
    case 'LCASE':
      return vs[0] === null ? null : String(vs[0]).toLowerCase();
    case 'UPPER':
    case 'UCASE':
      return vs[0] === null ? null : String(vs[0]).toUpperCase();
    default:
      return UNK;
  }
}

function evalOp(op: string, args: Expr[], o: EvalOptions): R {
  const values = args.map((a) => evaluate(a, o));
  if (values.includes(UNK)) return UNK;
  const [a, b] = values as V[];
  if (op === '||' && o.pipesAreOr) return logic('or', [truth(a), truth(b)]);
  if (op === '<=>') return a === null || b === null ? a === b : compare(a, b) === 0;
  if (a === null || (args.length > 1 && b === null)) return null;
  if (op === 'NEG' || (op === '-' && args.length === 1)) {
    const n = toNum(a);
    return n === undefined ? UNK : -n;
  }
  if (op === '||') return `${a}${b}`;
  if (['+', '-', '*', '/', '%'].includes(op)) {
    const x = toNum(a);
    const y = toNum(b);
    if (x === undefined || y === undefined) return UNK;
    if ((op === '/' || op === '%') && y === 0) return null;
    return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
  }
  const c = compare(a, b);
  if (c === UNK) return UNK;
  switch (op) {
    case '=':
    case '==':
      return c === 0;
    case '<>':
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '>=':
      return c >= 0;
    default:
      return UNK;
  }
}

function same(a: Expr, b: Expr): boolean {
  if (a.k === 'unknown' || b.k === 'unknown') return false;
  if (a.k === 'col' && b.k === 'col') {
    if (a.name.toLowerCase() !== b.name.toLowerCase()) return false;
    // `id = t.id` with a single target is the same column; a qualifier mismatch is not.
    return !a.table || !b.table || a.table.toLowerCase() === b.table.toLowerCase();
  }
  if (a.k === 'func' && VOLATILE.has(a.name)) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const SELF_TRUE = new Set(['=', '==', '>=', '<=', '<=>']);
const SELF_FALSE = new Set(['<>', '!=', '<', '>']);

function isNegationOf(a: Expr, b: Expr): boolean {
  if (b.k === 'not' && same(a, b.arg)) return true;
  if (a.k === 'isnull' && b.k === 'isnull' && a.negated !== b.negated && same(a.arg, b.arg)) return true;
  return false;
}

export function alwaysTrue(e: Expr, o: EvalOptions): boolean {
  if (rowIndependent(e)) {
    const t = truth(evaluate(e, o));
    return t === true || t === UNK;
  }
  switch (e.k) {
    case 'or':
      return (
        e.args.some((a) => alwaysTrue(a, o)) ||
        e.args.some((a, i) => e.args.some((b, j) => i !== j && isNegationOf(a, b)))
      );
    case 'and':
      return e.args.every((a) => alwaysTrue(a, o));
    case 'not':
      return alwaysFalse(e.arg, o);
    case 'op':
      return SELF_TRUE.has(e.op) && e.args.length === 2 && same(e.args[0], e.args[1]);
    case 'distinct':
      return e.negated && same(e.l, e.r);
    case 'in':
      return !e.negated && e.list.some((x) => same(e.arg, x));
    case 'between':
      return !e.negated && same(e.arg, e.lo) && same(e.arg, e.hi);
    case 'like':
      return (
        !e.negated && e.pattern.k === 'const' && typeof e.pattern.v === 'string' && /^%+$/.test(e.pattern.v)
      );
    case 'istrue':
      return e.value !== e.negated ? alwaysTrue(e.arg, o) : alwaysFalse(e.arg, o);
    default:
      return false;
  }
}

function alwaysFalse(e: Expr, o: EvalOptions): boolean {
  if (rowIndependent(e)) {
    const t = truth(evaluate(e, o));
    return t === false || t === null;
  }
  switch (e.k) {
    case 'and':
      return e.args.some((a) => alwaysFalse(a, o));
    case 'or':
      return e.args.every((a) => alwaysFalse(a, o));
    case 'not':
      return alwaysTrue(e.arg, o);
    case 'op':
      return SELF_FALSE.has(e.op) && e.args.length === 2 && same(e.args[0], e.args[1]);
    default:
      return false;
  }
}
