// Keyword scanning over lexer tokens: the statement's head, the write keywords it uses in code, the
// guardrails a keyword reading implies, and text hidden in comments that looks like a second statement.
// This is the cross-check against the parser and the only reading left for a statement no parser reads.
import type { Token } from './lexer.js';
import type { GuardrailValue, StatementType } from './types.js';

/** Keywords that, used as code, mean the statement is (or contains) something other than a plain read. */
export const DANGEROUS = new Set([
  'DELETE',
  'UPDATE',
  'INSERT',
  'UPSERT',
  'REPLACE',
  'MERGE',
  'DROP',
  'TRUNCATE',
  'GRANT',
  'REVOKE',
  'ALTER',
  'CREATE',
  'RENAME',
  'CALL',
  'EXEC',
  'EXECUTE',
  'COPY',
  'DO',
  'VACUUM',
  'ANALYZE',
  'OPTIMIZE',
  'REINDEX',
  'CLUSTER',
  'LOCK',
  'UNLOCK',
  'INTO',
  'SET',
  'PREPARE',
  'DEALLOCATE',
  'LOAD',
  'HANDLER',
  'ATTACH',
  'DETACH',
  'REFRESH',
  'KILL',
  'SHUTDOWN',
  'IMPORT',
  'DISCARD',
  'NOTIFY',
  'CHECKPOINT',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'INSTALL',
  'FLUSH',
  'PURGE',
  'DBCC',
  'BULK',
  'OPENROWSET',
  'OPENQUERY',
  'OPENDATASOURCE',
  'OUTFILE',
  'DUMPFILE',
]);

/** Keywords that are also ordinary function names (`replace(s, 'a', 'b')`, MySQL `truncate(1.5, 0)`). */
const FUNCTION_NAMED = new Set(['REPLACE', 'TRUNCATE', 'INSERT']);

/** Heads of statements that can be reads. */
export const READ_HEADS = new Set([
  'SELECT',
  'WITH',
  'VALUES',
  'TABLE',
  'FROM',
  'SHOW',
  'EXPLAIN',
  'DESCRIBE',
  'DESC',
  'PRAGMA',
  'SUMMARIZE',
  'FETCH',
  'CLOSE',
  'DECLARE',
]);

const TX_HEADS = new Set(['BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE', 'ABORT']);

const isOp = (t: Token | undefined, v: string) => t?.kind === 'op' && t.value === v;
const wordAt = (tokens: Token[], k: number) => (tokens[k]?.kind === 'word' ? tokens[k].value : '');

/** The first `count` words of the statement, skipping opening parentheses. */
export function headWords(tokens: Token[], count = 3): string[] {
  let k = 0;
  while (isOp(tokens[k], '(')) k++;
  if (tokens[k]?.kind !== 'word') return [];
  const words: string[] = [];
  for (; k < tokens.length && words.length < count; k++)
    if (tokens[k].kind === 'word') words.push(tokens[k].value);
  return words;
}

/** Indexes of word tokens that are code keywords (not part of a qualified name, not a function call). */
function keywordIndexes(tokens: Token[]): number[] {
  const out: number[] = [];
  tokens.forEach((t, k) => {
    if (t.kind !== 'word') return;
    if (isOp(tokens[k - 1], '.') || isOp(tokens[k + 1], '.')) return;
    if (FUNCTION_NAMED.has(t.value) && isOp(tokens[k + 1], '(')) return;
    out.push(k);
  });
  return out;
}

/** Write keywords used as code. */
export function dangerousKeywords(tokens: Token[]): Set<string> {
  const found = new Set<string>();
  for (const k of keywordIndexes(tokens)) {
    const v = tokens[k].value;
    if (!DANGEROUS.has(v)) continue;
    // CHARACTER SET / CHARSET in casts and conversions.
    if (v === 'SET' && ['CHARACTER', 'CHAR', 'CHARSET'].includes(wordAt(tokens, k - 1))) continue;
    found.add(v);
  }
  return found;
}

/** True when a WHERE follows `from` within the same statement and parenthesis level. */
function whereFollows(tokens: Token[], from: number): boolean {
  let depth = 0;
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'semi') return false;
    if (isOp(t, '(')) depth++;
    else if (isOp(t, ')') && --depth < 0) return false;
    else if (depth === 0 && t.kind === 'word' && t.value === 'WHERE') return true;
  }
  return false;
}

const ROLE_PROCS = new Set([
  'SP_ADDROLEMEMBER',
  'SP_DROPROLEMEMBER',
  'SP_ADDSRVROLEMEMBER',
  'SP_DROPSRVROLEMEMBER',
  'SP_GRANTDBACCESS',
  'SP_ADDLOGIN',
  'SP_ADDUSER',
  'SP_CHANGE_USERS_LOGIN',
]);

/** Guardrails a keyword reading implies. An UPDATE whose WHERE cannot be read is held as always-true. */
export function keywordGuardrails(tokens: Token[]): Set<GuardrailValue> {
  const g = new Set<GuardrailValue>();
  for (const k of keywordIndexes(tokens)) {
    const v = tokens[k].value;
    const prev = wordAt(tokens, k - 1);
    const next = wordAt(tokens, k + 1);
    switch (v) {
      case 'DELETE':
        if (prev === 'ON') break; // foreign-key action
        g.add('delete');
        if (!whereFollows(tokens, k + 1)) g.add('delete_without_where');
        break;
      case 'UPDATE':
        // FOR [NO KEY] UPDATE, ON UPDATE, ON DUPLICATE KEY UPDATE, ON CONFLICT DO UPDATE, MERGE … THEN UPDATE.
        if (['ON', 'FOR', 'KEY', 'DO', 'THEN'].includes(prev)) break;
        g.add(whereFollows(tokens, k + 1) ? 'update_always_true' : 'update_without_where');
        break;
      case 'DROP':
        g.add('drop');
        break;
      case 'TRUNCATE':
        g.add('truncate');
        break;
      case 'GRANT':
      case 'REVOKE':
        g.add('grant');
        break;
      case 'ROLE':
      case 'USER':
      case 'LOGIN':
        if (['CREATE', 'ALTER', 'DROP', 'RENAME', 'SET', 'DEFAULT'].includes(prev)) g.add('grant');
        break;
      case 'AUTHORIZATION':
        if (prev === 'SESSION') g.add('grant');
        break;
      case 'PASSWORD':
        if (prev === 'SET') g.add('grant');
        break;
      case 'PRIVILEGES':
        if (prev === 'DEFAULT' || prev === 'FLUSH') g.add('grant');
        break;
      case 'OWNER':
        if (next === 'TO') g.add('grant');
        break;
      case 'EXEC':
      case 'EXECUTE':
        if (next === 'AS') g.add('grant'); // T-SQL impersonation
        break;
      default:
        if (ROLE_PROCS.has(v)) g.add('grant');
    }
  }
  return g;
}

/** A `;` followed by a write keyword inside a comment or a dollar-quoted body: a statement hidden from some reader. */
const HIDDEN =
  /;\s*(?:DELETE|UPDATE|INSERT|DROP|TRUNCATE|GRANT|REVOKE|ALTER|CREATE|MERGE|REPLACE|CALL|EXEC|EXECUTE|COPY|DO|SET|LOCK|LOAD|RENAME|VACUUM|ATTACH|DETACH)\b/i;
export function hidesStatement(body: string): boolean {
  return HIDDEN.test(body);
}

export function isTransactionHead(words: string[]): boolean {
  const [w1 = '', w2 = ''] = words;
  if (w1 === 'START') return w2 === 'TRANSACTION';
  if (w1 === 'SET') return w2 === 'TRANSACTION';
  return TX_HEADS.has(w1);
}

const HEAD_TYPES: Record<string, StatementType> = {
  SELECT: 'SELECT',
  WITH: 'SELECT',
  VALUES: 'SELECT',
  TABLE: 'SELECT',
  FROM: 'SELECT',
  INSERT: 'INSERT',
  UPSERT: 'INSERT',
  REPLACE: 'INSERT',
  UPDATE: 'UPDATE',
  DELETE: 'DELETE',
  MERGE: 'MERGE',
  DROP: 'DROP',
  TRUNCATE: 'TRUNCATE',
  GRANT: 'GRANT',
  REVOKE: 'REVOKE',
  CREATE: 'CREATE',
  ALTER: 'ALTER',
  RENAME: 'ALTER',
  CALL: 'CALL',
  EXEC: 'CALL',
  EXECUTE: 'EXECUTE',
  PREPARE: 'PREPARE',
  DO: 'DO',
  COPY: 'COPY',
  SET: 'SET',
  USE: 'USE',
  SHOW: 'SHOW',
  DESCRIBE: 'DESCRIBE',
  DESC: 'DESCRIBE',
  PRAGMA: 'PRAGMA',
  EXPLAIN: 'EXPLAIN',
  VACUUM: 'VACUUM',
  ANALYZE: 'ANALYZE',
  LOCK: 'LOCK',
  UNLOCK: 'LOCK',
  SUMMARIZE: 'SELECT',
};

export function typeFromHead(words: string[]): StatementType {
  if (words.length === 0) return 'UNKNOWN';
  if (isTransactionHead(words)) return 'TRANSACTION';
  return HEAD_TYPES[words[0]] ?? 'OTHER';
}
