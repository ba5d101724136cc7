// The SQL parsers, loaded on first use: libpg-query (PostgreSQL's own grammar, a WASM module) and
// node-sql-parser (every other grammar, a large bundle). A portal whose users run no SQL, or only one
// family, never holds the other in memory. Auto-limit (analyze.ts), the classifier and masking lineage all
// parse through here, and each statement is parsed once: the outcome (tree or error) of a text under one
// grammar is kept in a small bounded memo and shared, so the classifier's reading, the auto-limit facts and
// the masking lineage of a statement come from one parse. Trees are deep-frozen: a reader that tried to
// change a shared tree would throw (and the classifier fails closed) instead of misleading the next reader.
import { createRequire } from 'node:module';
import type NodeSqlParser from 'node-sql-parser';

const load = createRequire(import.meta.url);

type NspParser = InstanceType<typeof NodeSqlParser.Parser>;
let nsp: NspParser | undefined;

/** The node-sql-parser instance (loaded synchronously on the first call; the module is CommonJS). */
function nspParser(): NspParser {
  nsp ??= new (load('node-sql-parser') as typeof NodeSqlParser).Parser();
  return nsp;
}

type PgModule = typeof import('libpg-query');
type PgResult = Awaited<ReturnType<PgModule['parse']>>;
let pg: Promise<PgModule> | undefined;

/** How many times each parser really ran (memo misses): diagnostics, and the proof a statement is parsed once. */
export const parserRuns = { pg: 0, nsp: 0 };

/**
 * What the memo keeps: at most this many outcomes, of texts of at most this many characters in all (a tree
 * is some tens of times its text, so a large script's trees are parsed and dropped, not held while idle).
 */
const MEMO_ENTRIES = 256;
const MEMO_TEXT_BUDGET = 128 * 1024;

type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };
const memo = new Map<string, Outcome<unknown> | Promise<Outcome<unknown>>>();
let memoText = 0;

function remember(key: string, outcome: Outcome<unknown> | Promise<Outcome<unknown>>): void {
  if (key.length > MEMO_TEXT_BUDGET) return;
  // The oldest outcomes go first (a script's statements are read in order by each reader in turn).
  while (memo.size >= MEMO_ENTRIES || (memo.size > 0 && memoText + key.length > MEMO_TEXT_BUDGET)) {
    const oldest = memo.keys().next().value as string;
    memo.delete(oldest);
    memoText -= oldest.length;
  }
  memo.set(key, outcome);
  memoText += key.length;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function settle<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw outcome.error;
}

/** Parses with libpg-query (PostgreSQL's grammar; DuckDB's derives from it). */
export async function pgParse(text: string): Promise<PgResult> {
  const key = `pg\u0000${text}`;
  const known = memo.get(key) as Promise<Outcome<PgResult>> | undefined;
  if (known) return settle(await known);
  const outcome = (async (): Promise<Outcome<PgResult>> => {
    pg ??= import('libpg-query');
    const parser = await pg;
    parserRuns.pg++;
    try {
      return { ok: true, value: deepFreeze(await parser.parse(text)) };
    } catch (error) {
      return { ok: false, error };
    }
  })();
  remember(key, outcome);
  return settle(await outcome);
}

/** What node-sql-parser reads in a text under one grammar (its `database` option). */
export interface NspResult {
  ast: unknown;
  tableList: string[];
}

/** Parses with node-sql-parser under `database`; throws the parser's error when the grammar cannot read it. */
export function nspParse(text: string, database: string): NspResult {
  const key = `nsp\u0000${database}\u0000${text}`;
  const known = memo.get(key) as Outcome<NspResult> | undefined;
  if (known) return settle(known);
  let outcome: Outcome<NspResult>;
  parserRuns.nsp++;
  try {
    const r = nspParser().parse(text, { database });
    outcome = { ok: true, value: deepFreeze({ ast: r.ast, tableList: r.tableList ?? [] }) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  remember(key, outcome);
  return settle(outcome);
}
