// Reads one SQL++ (N1QL) statement the way the query service does, closely enough to judge it: a tokenizer
// with the language's lexical rules ('…' and "…" strings with backslash escapes, `…` identifiers, -- and
// /* */ comments), the keyspaces a statement reaches (`bucket`.`scope`.`collection`, a bare bucket, or
// `namespace:`…), whether a DELETE/UPDATE is bounded (WHERE or USE KEYS) and whether a SELECT already limits
// or orders its rows. The classifier (governance/classify/couchbase.ts) and the auto-limit both read
// statements through this file, so they cannot disagree. Anything the reader cannot place is reported, and
// the classifier counts it as a write.

export type TokenKind = 'word' | 'ident' | 'string' | 'number' | 'param' | 'op' | 'semi';

export interface Token {
  kind: TokenKind;
  /** Upper-cased text for words; the unquoted content for strings and `identifiers`; the text otherwise. */
  value: string;
  /** Bracket depth ((, [, {) where the token starts. */
  depth: number;
}

export interface Lexed {
  tokens: Token[];
  unterminated: boolean;
}

const WORD_START = /[A-Za-z_]/;
const WORD = /[A-Za-z0-9_]/;

/**
 * Tokens of SQL++ text (comments dropped). `backslashEscapes: false` is the alternative reading the
 * classifier compares against: a statement that means something else when `\'` does not escape is doubtful.
 */
export function lexN1ql(text: string, backslashEscapes = true): Lexed {
  const tokens: Token[] = [];
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return { tokens, unterminated: true };
      i = end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let value = '';
      let j = i + 1;
      let closed = false;
      while (j < n) {
        const d = text[j];
        if (d === '\\' && c !== '`' && backslashEscapes && j + 1 < n) {
          value += text[j + 1];
          j += 2;
        } else if (d === c && text[j + 1] === c) {
          value += c;
          j += 2;
        } else if (d === c) {
          closed = true;
          j++;
          break;
        } else {
          value += d;
          j++;
        }
      }
      if (!closed) return { tokens, unterminated: true };
      tokens.push({ kind: c === '`' ? 'ident' : 'string', value, depth });
      i = j;
    } else if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && WORD.test(text[j])) j++;
      tokens.push({ kind: 'word', value: text.slice(i, j).toUpperCase(), depth });
      i = j;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i));
      const len = m ? m[0].length : 1;
      tokens.push({ kind: 'number', value: text.slice(i, i + len), depth });
      i += len;
    } else if (c === '$' || c === '?') {
      let j = i + 1;
      if (c === '$') while (j < n && WORD.test(text[j])) j++;
      tokens.push({ kind: 'param', value: text.slice(i, j), depth });
      i = j;
    } else if (c === ';') {
      tokens.push({ kind: 'semi', value: ';', depth });
      i++;
    } else {
      if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
      tokens.push({ kind: 'op', value: c, depth });
      if (c === '(' || c === '[' || c === '{') depth++;
      i++;
    }
  }
  return { tokens, unterminated: false };
}

/** A keyspace as a statement names it: scope and collection (a bare bucket is its default collection). */
export interface KeyspaceRef {
  namespace?: string;
  bucket?: string;
  scope: string;
  collection: string;
}

export interface KeyspaceScan {
  keyspaces: KeyspaceRef[];
  /** Paths the reader cannot place (two-part paths, expressions it does not know). */
  unplaceable: string[];
}

const isName = (t: Token | undefined) => t !== undefined && (t.kind === 'word' || t.kind === 'ident');

/** Words that open a keyspace position (FROM, JOIN, INTO, …) in any statement. */
const KEYSPACE_AFTER = new Set(['FROM', 'JOIN', 'NEST', 'INTO', 'USING']);
/** Statements whose `ON` names a keyspace (index DDL) rather than a join condition. */
const INDEX_DDL = new Set(['CREATE', 'DROP', 'ALTER', 'BUILD']);

/** Reads a keyspace path starting at token `i`; answers it and the index after it, or undefined. */
function readPath(
  tokens: Token[],
  i: number,
): { parts: string[]; namespace?: string; next: number } | undefined {
  let j = i;
  let namespace: string | undefined;
  if (!isName(tokens[j])) return undefined;
  if (tokens[j + 1]?.value === ':' && isName(tokens[j + 2])) {
    namespace = tokens[j].kind === 'word' ? tokens[j].value.toLowerCase() : tokens[j].value;
    j += 2;
  }
  const parts: string[] = [];
  // Unquoted names keep their case as written: the tokenizer upper-cased words, so read them back from the
  // original only through identifiers; plain words are compared case-insensitively by the object rules.
  parts.push(tokens[j].value);
  j++;
  while (tokens[j]?.value === '.' && isName(tokens[j + 1])) {
    parts.push(tokens[j + 1].value);
    j += 2;
  }
  return { parts, namespace, next: j };
}

/** The keyspaces `tokens` reach; `cte` names (WITH x AS …) and aliases are not keyspaces. */
export function scanKeyspaces(tokens: Token[]): KeyspaceScan {
  const out: KeyspaceScan = { keyspaces: [], unplaceable: [] };
  const first = tokens.find((t) => t.kind === 'word')?.value ?? '';
  const ctes = new Set<string>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (isName(tokens[i]) && tokens[i + 1].value === 'AS' && tokens[i + 2].value === '(')
      ctes.add(tokens[i].value.toUpperCase());
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'word') continue;
    let opens = KEYSPACE_AFTER.has(t.value) && (t.value !== 'USING' || first === 'MERGE');
    if (t.value === 'ON' && INDEX_DDL.has(first)) opens = true;
    // UPDATE ks SET …, UPDATE STATISTICS FOR ks, DELETE FROM ks (FROM handles it), INFER ks.
    if ((t.value === 'UPDATE' || t.value === 'INFER') && i === 0) opens = true;
    if (t.value === 'FOR' && tokens[i - 1]?.value === 'STATISTICS') opens = true;
    if (t.value === 'INDEX' && first === 'DROP' && tokens[i + 2]?.value === '.') opens = true;
    if (!opens) continue;
    const next = tokens[i + 1];
    if (!next) continue;
    // INSERT INTO … VALUES, FROM (subquery), FROM [array], FROM $param: expressions, not keyspaces.
    if (!isName(next)) continue;
    if (next.kind === 'word' && ['SELECT', 'KEYSPACE', 'STATISTICS', 'INDEX', 'PRIMARY'].includes(next.value))
      continue;
    const path = readPath(tokens, i + 1);
    if (!path) continue;
    // DROP INDEX ks.ix (the old form): the last part is the index.
    if (t.value === 'INDEX') path.parts.pop();
    const parts = path.parts;
    if (path.namespace === 'system') {
      out.keyspaces.push({ namespace: 'system', scope: 'system', collection: parts.join('.') });
    } else if (parts.length === 1) {
      if (ctes.has(parts[0].toUpperCase())) continue;
      out.keyspaces.push({
        namespace: path.namespace,
        bucket: parts[0],
        scope: '_default',
        collection: '_default',
      });
    } else if (parts.length === 3) {
      out.keyspaces.push({
        namespace: path.namespace,
        bucket: parts[0],
        scope: parts[1],
        collection: parts[2],
      });
    } else {
      out.unplaceable.push(`${parts.join('.')}: not a bucket or a bucket.scope.collection keyspace`);
    }
  }
  return out;
}

/** True when the statement's own clauses (depth 0) hold one of `words`. */
export function hasTopLevel(tokens: Token[], ...words: string[]): boolean {
  const base = tokens[0]?.depth ?? 0;
  return tokens.some((t) => t.kind === 'word' && t.depth === base && words.includes(t.value));
}

/** Words that may stand in a WHERE clause without naming anything a row holds. */
const CONSTANT_WORDS = new Set([
  'TRUE',
  'FALSE',
  'NULL',
  'MISSING',
  'AND',
  'OR',
  'NOT',
  'IS',
  'VALUED',
  'LIKE',
  'IN',
  'BETWEEN',
]);

/**
 * How a DELETE or UPDATE is bounded: USE KEYS (`keys`), a WHERE that mentions something of the row (`where`),
 * a WHERE made of constants only (`constant`: `WHERE 1 = 1`, `WHERE true`), or nothing (`none`).
 */
export function filterOf(tokens: Token[]): 'keys' | 'where' | 'constant' | 'none' {
  const base = tokens[0]?.depth ?? 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.depth !== base || t.kind !== 'word') continue;
    if (t.value === 'USE' && tokens[i + 1]?.value === 'KEYS') return 'keys';
    if (t.value === 'WHERE') {
      for (let j = i + 1; j < tokens.length; j++) {
        const u = tokens[j];
        if (u.depth === base && u.kind === 'word' && ['RETURNING', 'LIMIT', 'OFFSET'].includes(u.value))
          break;
        if (u.kind === 'ident' || u.kind === 'param') return 'where';
        if (u.kind === 'word' && !CONSTANT_WORDS.has(u.value)) return 'where';
      }
      return 'constant';
    }
  }
  return 'none';
}

/** The first word of a statement (skipping opening parentheses). */
export function leadingWord(tokens: Token[]): string {
  for (const t of tokens) {
    if (t.value === '(') continue;
    return t.kind === 'word' ? t.value : '';
  }
  return '';
}

/** Facts the auto-limit needs (sql/analyze.ts StatementFacts): is it a plain SELECT, does it limit or order. */
export function selectFacts(text: string): {
  kind: 'select' | 'other' | 'unknown';
  readOnly: boolean;
  hasLimit: boolean;
  hasOrderBy: boolean;
} {
  const lx = lexN1ql(text);
  const other = { kind: 'other' as const, readOnly: false, hasLimit: false, hasOrderBy: false };
  if (lx.unterminated || lx.tokens.some((t) => t.kind === 'semi')) return { ...other, kind: 'unknown' };
  const tokens = lx.tokens;
  const first = tokens[0];
  if (first?.kind !== 'word' || (first.value !== 'SELECT' && first.value !== 'WITH')) return other;
  const writes = tokens.some(
    (t) => t.kind === 'word' && ['INSERT', 'UPSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(t.value),
  );
  return {
    kind: 'select',
    readOnly: !writes,
    hasLimit: hasTopLevel(tokens, 'LIMIT', 'OFFSET'),
    hasOrderBy: hasTopLevel(tokens, 'ORDER'),
  };
}
