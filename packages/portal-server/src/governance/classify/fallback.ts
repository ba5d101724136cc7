// Exact token grammars for the few read forms the parsers do not know (SQLite and DuckDB PRAGMA, SHOW and
// DESCRIBE variants, transaction control, USE). A statement matching none of them, and readable by no
// parser, stays a doubtful write.
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './dialects.js';
import { isTransactionHead } from './keywords.js';
import type { Token } from './lexer.js';
import { addObject } from './objects.js';
import { type Analysis, emptyAnalysis, type ObjectRef } from './types.js';

const isWord = (t: Token | undefined) => t?.kind === 'word' || t?.kind === 'qident';
const isOp = (t: Token | undefined, v: string) => t?.kind === 'op' && t.value === v;
const nameOf = (t: Token) => (t.kind === 'word' ? t.value.toLowerCase() : t.value);

/** Reads `a.b.c` at `k`: the parts and the index after them. */
function qualified(tokens: Token[], k: number): { parts: string[]; next: number } | undefined {
  if (!isWord(tokens[k]) && tokens[k]?.kind !== 'string') return undefined;
  const parts = [tokens[k].kind === 'word' ? tokens[k].value.toLowerCase() : tokens[k].value];
  let j = k + 1;
  while (isOp(tokens[j], '.') && (isWord(tokens[j + 1]) || tokens[j + 1]?.kind === 'string')) {
    parts.push(nameOf(tokens[j + 1]));
    j += 2;
  }
  return { parts, next: j };
}

const refOf = (parts: string[]): ObjectRef => {
  const ref: ObjectRef = { name: parts[parts.length - 1], access: 'read' };
  if (parts.length > 1) ref.schema = parts[parts.length - 2];
  return ref;
};

const TX_VOCAB = new Set([
  'BEGIN',
  'START',
  'TRANSACTION',
  'TRAN',
  'WORK',
  'COMMIT',
  'ROLLBACK',
  'END',
  'ABORT',
  'SAVEPOINT',
  'RELEASE',
  'TO',
  'SET',
  'ISOLATION',
  'LEVEL',
  'READ',
  'WRITE',
  'ONLY',
  'COMMITTED',
  'UNCOMMITTED',
  'REPEATABLE',
  'SERIALIZABLE',
  'SNAPSHOT',
  'CONSISTENT',
  'WITH',
  'AND',
  'NO',
  'CHAIN',
  'DEFERRABLE',
  'NOT',
  'DEFERRED',
  'IMMEDIATE',
  'EXCLUSIVE',
]);
const NAME_AFTER = new Set(['SAVEPOINT', 'TO', 'RELEASE', 'TRAN', 'TRANSACTION']);

export function transactionFallback(tokens: Token[]): Analysis | undefined {
  const words = tokens.filter((t) => t.kind === 'word').map((t) => t.value);
  if (!isTransactionHead(words)) return undefined;
  const ok = tokens.every(
    (t, k) =>
      (t.kind === 'word' && TX_VOCAB.has(t.value)) ||
      isOp(t, ',') ||
      ((isWord(t) || t.kind === 'param') && NAME_AFTER.has(tokens[k - 1]?.value ?? '')),
  );
  if (!ok) return undefined;
  const a = emptyAnalysis('TRANSACTION', 'read');
  a.transactionControl = true;
  return a;
}

/** PRAGMAs that only report; with an argument, those whose argument names a table or a check limit. */
const PRAGMA_READ = new Set([
  'table_list',
  'database_list',
  'collation_list',
  'function_list',
  'module_list',
  'pragma_list',
  'compile_options',
  'integrity_check',
  'quick_check',
  'foreign_key_check',
  'user_version',
  'schema_version',
  'application_id',
  'journal_mode',
  'page_size',
  'page_count',
  'freelist_count',
  'encoding',
  'foreign_keys',
  'cache_size',
  'synchronous',
  'busy_timeout',
  'auto_vacuum',
  'data_version',
  'max_page_count',
  'query_only',
  'recursive_triggers',
  'temp_store',
  'locking_mode',
  'secure_delete',
  'defer_foreign_keys',
  'show_tables',
  'show_tables_expanded',
  'version',
  'platform',
  'database_size',
]);
const PRAGMA_READ_ARG = new Set([
  'table_info',
  'table_xinfo',
  'index_list',
  'index_info',
  'index_xinfo',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
  'table_list',
  'storage_info',
  'show',
]);

function pragma(tokens: Token[]): Analysis | undefined {
  const q = qualified(tokens, 1);
  if (!q) return undefined;
  const name = q.parts[q.parts.length - 1];
  const rest = tokens.slice(q.next);
  if (rest.length === 0) return emptyAnalysis('PRAGMA', PRAGMA_READ.has(name) ? 'read' : 'write');
  if (isOp(rest[0], '=')) return emptyAnalysis('PRAGMA', 'write');
  if (isOp(rest[0], '(') && isOp(rest[rest.length - 1], ')')) {
    const inner = rest.slice(1, -1);
    const arg =
      qualified(inner, 0) ??
      (inner.length === 1 && inner[0].kind === 'number' ? { parts: [], next: 1 } : undefined);
    if (!arg || arg.next !== inner.length || !PRAGMA_READ_ARG.has(name))
      return emptyAnalysis('PRAGMA', 'write');
    const a = emptyAnalysis('PRAGMA', 'read');
    if (arg.parts.length > 0 && inner[0].kind !== 'number') addObject(a.objects, refOf(arg.parts));
    return a;
  }
  return undefined;
}

const SCHEMA_LISTS = new Set(['TABLES', 'SCHEMAS', 'DATABASES', 'VIEWS', 'CATALOGS', 'FUNCTIONS']);
const SHOW_WORDS_BEFORE_TABLE = new Set(['FROM', 'IN', 'TABLE', 'VIEW']);

function show(tokens: Token[]): Analysis | undefined {
  const plain = tokens.every(
    (t) => t.kind !== 'param' && !isOp(t, '(') && !(t.kind === 'word' && t.value === 'WHERE'),
  );
  if (!plain) return undefined;
  const a = emptyAnalysis('SHOW', 'read');
  const listsSchemas = tokens.some((t) => t.kind === 'word' && SCHEMA_LISTS.has(t.value));
  for (let k = 1; k < tokens.length; k++) {
    const before = tokens[k - 1];
    if (before.kind !== 'word' || !SHOW_WORDS_BEFORE_TABLE.has(before.value)) continue;
    const q = qualified(tokens, k);
    if (!q || tokens[k].kind === 'string') continue;
    if (listsSchemas)
      addObject(a.objects, { schema: q.parts[q.parts.length - 1], name: '*', access: 'read' });
    else addObject(a.objects, refOf(q.parts));
  }
  if (tokens.some((t) => t.kind === 'word' && t.value === 'CREATE')) a.explained.add('CREATE');
  return a;
}

function describe(tokens: Token[], type: 'DESCRIBE' | 'SELECT'): Analysis | undefined {
  let k = 1;
  while (tokens[k]?.kind === 'word' && ['TABLE', 'EXTENDED', 'FORMATTED'].includes(tokens[k].value)) k++;
  const q = qualified(tokens, k);
  if (!q || q.next !== tokens.length) return undefined;
  const a = emptyAnalysis(type, 'read');
  addObject(a.objects, refOf(q.parts));
  return a;
}

export function fallbackAnalysis(tokens: Token[], dialect: Dialect): Analysis | undefined {
  const head = tokens[0]?.kind === 'word' ? tokens[0].value : '';
  switch (head) {
    case 'PRAGMA':
      return CLASSIFIER_DIALECT_INFO[dialect].pragmas ? pragma(tokens) : undefined;
    case 'SHOW':
      return show(tokens);
    case 'DESCRIBE':
    case 'DESC':
      return describe(tokens, 'DESCRIBE');
    case 'SUMMARIZE':
      return describe(tokens, 'SELECT');
    case 'USE': {
      if (!qualified(tokens, 1) || qualified(tokens, 1)?.next !== tokens.length) return undefined;
      const a = emptyAnalysis('USE', 'write');
      a.changesResolution = true;
      return a;
    }
    default:
      return transactionFallback(tokens);
  }
}
