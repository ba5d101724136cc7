// Reads check constraints into rules the generator can honour (pure). Both engines' printed forms are
// understood: PostgreSQL's `CHECK ((price > (0)::numeric))`, `(status)::text = ANY (ARRAY['a'::text, …])`,
// `char_length((code)::text) >= 3`, `(ends_at > starts_at)`; MariaDB's `` `qty` between 1 and 100 ``,
// `` `status` in ('a','b') ``, `` json_valid(`doc`) ``. Conjunctions are split on AND; a disjunction or any
// other form is not understood and left to the database (a batch it refuses is regenerated, then reported).

export type CompareOp = '>' | '>=' | '<' | '<=';

export interface ColumnRule {
  min?: number;
  minInclusive?: boolean;
  max?: number;
  maxInclusive?: boolean;
  /** Allowed values (IN list, `= 'x'`). */
  values?: Array<string | number>;
  minLength?: number;
  maxLength?: number;
  /** Must not equal these (`<> ''`). */
  not?: Array<string | number>;
  json?: boolean;
}

/** `left op right` between two columns of one row (`ends_at > starts_at`). */
export interface CrossRule {
  left: string;
  op: CompareOp;
  right: string;
}

export interface CheckRules {
  columns: Map<string, ColumnRule>;
  cross: CrossRule[];
  /** Checks (or parts) not understood. */
  unknown: string[];
}

const CASTS =
  /::(?:"[^"]+"|character varying|double precision|timestamp(?:\(\d+\))? with(?:out)? time zone|time with(?:out)? time zone|[a-z_][a-z0-9_]*)(?:\(\d+(?:,\s*\d+)?\))?(?:\[\])?/gi;

function flip(op: string): string {
  return op === '>' ? '<' : op === '<' ? '>' : op === '>=' ? '<=' : op === '<=' ? '>=' : op;
}

/** Splits on top-level AND (outside quotes and parentheses). */
function splitAnd(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "'") quote = !quote;
    if (quote) continue;
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && /^\s+and\s+/i.test(s.slice(i, i + 6)) && /\s/.test(ch)) {
      out.push(s.slice(start, i));
      const m = /^\s+and\s+/i.exec(s.slice(i)) as RegExpExecArray;
      i += m[0].length - 1;
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out.map((x) => x.trim()).filter(Boolean);
}

/** Removes parentheses that wrap the whole expression. */
function unwrap(s: string): string {
  let t = s.trim();
  for (;;) {
    if (!t.startsWith('(') || !t.endsWith(')')) return t;
    let depth = 0;
    let wraps = true;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '(') depth++;
      else if (t[i] === ')') depth--;
      if (depth === 0 && i < t.length - 1) {
        wraps = false;
        break;
      }
    }
    if (!wraps) return t;
    t = t.slice(1, -1).trim();
  }
}

function literal(s: string): string | number | undefined {
  const t = unwrap(s).trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  const q = /^'((?:[^']|'')*)'$/.exec(t);
  return q ? q[1].replaceAll("''", "'") : undefined;
}

function listOf(s: string): Array<string | number> | undefined {
  const out: Array<string | number> = [];
  const re = /\s*('(?:[^']|'')*'|-?\d+(?:\.\d+)?)\s*(,|$)/gy;
  let m = re.exec(s);
  while (m) {
    const v = literal(m[1]);
    if (v === undefined) return undefined;
    out.push(v);
    if (m[2] === '') break;
    m = re.exec(s);
  }
  return out.length ? out : undefined;
}

function normalise(def: string): string {
  let s = def.trim().replace(/^check\s*/i, '');
  s = s.replace(CASTS, '');
  // PostgreSQL prints IN lists as `= ANY (ARRAY[…])`.
  s = s.replace(/=\s*ANY\s*\(\s*\(?\s*ARRAY\[(.*?)\]\s*\)?\s*\)/gi, 'IN ($1)');
  // Identifiers: drop quoting, and parentheses around a bare identifier (`(price)`).
  s = s.replace(/[`"]/g, '');
  // (Not a function call's own parentheses: `char_length(code)` keeps them.)
  s = s.replace(/(^|[^A-Za-z0-9_$])\(\s*([A-Za-z_][A-Za-z0-9_$]*)\s*\)/g, '$1$2');
  s = s.replace(/(^|[^A-Za-z0-9_$])\(\s*(-?\d+(?:\.\d+)?)\s*\)/g, '$1$2');
  // BETWEEN a AND b → >= a AND <= b (before the AND split).
  s = s.replace(
    /([A-Za-z_][A-Za-z0-9_$]*)\s+between\s+(-?\d+(?:\.\d+)?|'[^']*')\s+and\s+(-?\d+(?:\.\d+)?|'[^']*')/gi,
    '$1 >= $2 AND $1 <= $3',
  );
  return unwrap(s);
}

const IDENT = '([A-Za-z_][A-Za-z0-9_$]*)';
const OP = '(>=|<=|<>|!=|>|<|=)';
const LIT = "(-?\\d+(?:\\.\\d+)?|'(?:[^']|'')*')";

function ruleFor(rules: CheckRules, column: string): ColumnRule {
  let r = rules.columns.get(column);
  if (!r) {
    r = {};
    rules.columns.set(column, r);
  }
  return r;
}

function applyCompare(r: ColumnRule, op: string, v: string | number, length = false): boolean {
  if (typeof v !== 'number') {
    if (op === '=' && !length) r.values = [v];
    else if ((op === '<>' || op === '!=') && !length) r.not = [...(r.not ?? []), v];
    else return false;
    return true;
  }
  if (length) {
    if (op === '>') r.minLength = Math.max(r.minLength ?? 0, v + 1);
    else if (op === '>=') r.minLength = Math.max(r.minLength ?? 0, v);
    else if (op === '<') r.maxLength = Math.min(r.maxLength ?? Number.POSITIVE_INFINITY, v - 1);
    else if (op === '<=') r.maxLength = Math.min(r.maxLength ?? Number.POSITIVE_INFINITY, v);
    else if (op === '<>' || op === '!=') r.minLength = Math.max(r.minLength ?? 0, v === 0 ? 1 : 0);
    else return false;
    return true;
  }
  if (op === '>' || op === '>=') {
    if (r.min === undefined || v >= r.min) {
      r.min = v;
      r.minInclusive = op === '>=';
    }
  } else if (op === '<' || op === '<=') {
    if (r.max === undefined || v <= r.max) {
      r.max = v;
      r.maxInclusive = op === '<=';
    }
  } else if (op === '=') r.values = [v];
  else r.not = [...(r.not ?? []), v];
  return true;
}

function readPart(rules: CheckRules, part: string): boolean {
  const p = unwrap(part);
  let m = new RegExp(`^${IDENT}\\s*${OP}\\s*${LIT}$`, 'i').exec(p);
  if (m) return applyCompare(ruleFor(rules, m[1]), m[2], literal(m[3]) as string | number);
  m = new RegExp(`^${LIT}\\s*${OP}\\s*${IDENT}$`, 'i').exec(p);
  if (m) return applyCompare(ruleFor(rules, m[3]), flip(m[2]), literal(m[1]) as string | number);
  m = new RegExp(
    `^(?:char_length|length|character_length|octet_length)\\s*\\(\\s*${IDENT}\\s*\\)\\s*${OP}\\s*${LIT}$`,
    'i',
  ).exec(p);
  if (m) return applyCompare(ruleFor(rules, m[1]), m[2], literal(m[3]) as number, true);
  m = new RegExp(`^${IDENT}\\s+in\\s*\\((.*)\\)$`, 'i').exec(p);
  if (m) {
    const values = listOf(m[2]);
    if (!values) return false;
    ruleFor(rules, m[1]).values = values;
    return true;
  }
  m = new RegExp(`^json_valid\\s*\\(\\s*${IDENT}\\s*\\)$`, 'i').exec(p);
  if (m) {
    ruleFor(rules, m[1]).json = true;
    return true;
  }
  m = new RegExp(`^${IDENT}\\s*(>=|<=|>|<)\\s*${IDENT}$`, 'i').exec(p);
  if (m) {
    rules.cross.push({ left: m[1], op: m[2] as CompareOp, right: m[3] });
    return true;
  }
  // `x IS NOT NULL` is what NOT NULL already says.
  if (new RegExp(`^${IDENT}\\s+is\\s+not\\s+null$`, 'i').test(p)) return true;
  return false;
}

export function readChecks(checks: string[]): CheckRules {
  const rules: CheckRules = { columns: new Map(), cross: [], unknown: [] };
  for (const def of checks) {
    for (const part of splitAnd(normalise(def))) {
      if (!readPart(rules, part)) rules.unknown.push(part);
    }
  }
  return rules;
}
