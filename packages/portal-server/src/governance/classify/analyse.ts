// Runs the dialect's parser over one statement and turns its tree into an Analysis: libpg-query for
// PostgreSQL and DuckDB, node-sql-parser (over the lexer's normalised text, which is what the engine's
// grammar sees) for the rest, then EXPLAIN tails, the table designer's DDL forms and the exact fallback
// grammars. Doubts found on the way (several statements, comments that change the parse) are pushed onto
// the context.
import { pgParse } from '../../sql/parsers.js';
import { designedDdlAnalysis, isTableDefinition } from './designed-ddl.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './dialects.js';
import { fallbackAnalysis, transactionFallback } from './fallback.js';
import { analyzeNsp, nspParse } from './generic.js';
import { dangerousKeywords, headWords } from './keywords.js';
import type { LexResult } from './lexer.js';
import { addObject } from './objects.js';
import { analyzePg } from './postgres.js';
import { systemRoutine } from './system-routines.js';
import { type Analysis, emptyAnalysis, type StatementClassification } from './types.js';

type Node = Record<string, any>;

export interface AnalyseContext {
  dialect: Dialect;
  lx: LexResult;
  doubts: string[];
  depth: number;
  /** Classifies the statement an EXPLAIN wraps. */
  classifyTail: (text: string) => Promise<StatementClassification>;
}

/** JSON of a tree without source positions, to compare two parses. */
const canon = (v: unknown) =>
  JSON.stringify(v, (k, x) => (/location|^stmt_len$|_list_start$|_list_end$/.test(k) ? undefined : x));

function merge(list: Analysis[]): Analysis {
  const [first, ...rest] = list;
  for (const a of rest) {
    if (a.kind === 'write') first.kind = 'write';
    for (const g of a.guardrails) first.guardrails.add(g);
    for (const k of a.explained) first.explained.add(k);
    for (const o of a.objects) addObject(first.objects, o);
    first.unplaceable.push(...a.unplaceable);
    first.doubts.push(...a.doubts);
    first.transactionControl ||= a.transactionControl;
    first.changesResolution ||= a.changesResolution;
    first.dynamic ||= a.dynamic;
  }
  return first;
}

async function pgTry(text: string): Promise<Node[] | undefined> {
  try {
    return ((await pgParse(text)).stmts ?? []).map((s) => s.stmt as Node);
  } catch {
    return undefined;
  }
}

async function viaPg(text: string, ctx: AnalyseContext): Promise<Analysis | undefined> {
  let stmts = await pgTry(text);
  if (!stmts && CLASSIFIER_DIALECT_INFO[ctx.dialect].fromFirst && headWords(ctx.lx.tokens, 1)[0] === 'FROM') {
    stmts = await pgTry(`SELECT * ${text}`); // DuckDB's FROM-first form
  }
  if (!stmts) return fallbackAnalysis(ctx.lx.tokens, ctx.dialect);
  if (ctx.lx.comments.length > 0) {
    const plain = await pgTry(ctx.lx.normalized);
    if (!plain || canon(plain) !== canon(stmts)) ctx.doubts.push('comments change how the statement parses');
  }
  if (stmts.length !== 1) ctx.doubts.push(`the parser found ${stmts.length} statements`);
  if (stmts.length === 0) return undefined;
  const allow = CLASSIFIER_DIALECT_INFO[ctx.dialect].allowlist;
  return merge(stmts.map((s) => analyzePg(s, allow)));
}

async function viaNsp(text: string, ctx: AnalyseContext): Promise<Analysis | undefined> {
  const info = CLASSIFIER_DIALECT_INFO[ctx.dialect];
  let code = ctx.lx.normalized;
  // CQL's ALLOW FILTERING only relaxes a read's restrictions; the SQL grammars do not know it.
  if (info.allowFiltering) code = code.replace(/\bALLOW\s+FILTERING\s*$/i, '');
  // The table designer's forms are read exactly; any other table or index definition is held (fail closed).
  if (info.designedDdl) {
    const designed = designedDdlAnalysis(ctx.lx, info.designedDdl);
    if (designed) return designed;
    if (isTableDefinition(ctx.lx.tokens))
      ctx.doubts.push(
        "a table or index definition outside the table designer's forms (a call, an expression, an option or a comment) cannot be verified",
      );
  }
  const routine = systemRoutine(ctx.lx.tokens, info.systemRoutinePrefixes);
  if (routine)
    ctx.doubts.push(
      `${routine}: a system routine or package (it can run SQL text or reach files and servers)`,
    );
  const parsed = nspParse(code, info.grammars);
  if (parsed) {
    if (ctx.lx.comments.length > 0 || ctx.lx.executableComment) {
      const raw = nspParse(text, [parsed.grammar]);
      if (raw && canon(raw.statements) !== canon(parsed.statements)) {
        ctx.doubts.push('comments change how the statement parses');
      }
    }
    if (parsed.statements.length !== 1)
      ctx.doubts.push(`the parser found ${parsed.statements.length} statements`);
    if (parsed.statements.length === 0) return undefined;
    const o = { pipesAreOr: info.pipesAreOr };
    return merge(parsed.statements.map((s) => analyzeNsp(s, parsed.tableList, o, info.allowlist)));
  }
  return (await explainTail(text, ctx)) ?? fallbackAnalysis(ctx.lx.tokens, ctx.dialect);
}

const TAIL_HEADS = new Set([
  'SELECT',
  'WITH',
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'MERGE',
  'TABLE',
  'VALUES',
]);
/** Statements MariaDB's ANALYZE runs and explains. */
const ANALYZE_HEADS = new Set(['SELECT', 'WITH', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE']);
/** Words an EXPLAIN may carry before its statement (MySQL, SQLite, Trino, ClickHouse options). */
const EXPLAIN_OPTIONS = new Set([
  'ANALYZE',
  'VERBOSE',
  'FORMAT',
  'JSON',
  'TREE',
  'TRADITIONAL',
  'EXTENDED',
  'PARTITIONS',
  'QUERY',
  'PLAN',
  'TYPE',
  'DISTRIBUTED',
  'LOGICAL',
  'IO',
  'VALIDATE',
  'GRAPHVIZ',
  'TEXT',
  'AST',
  'SYNTAX',
  'PIPELINE',
  'ESTIMATE',
  'COSTS',
  'BUFFERS',
  'TIMING',
  'SUMMARY',
  'ON',
  'OFF',
  'TRUE',
  'FALSE',
]);

/**
 * EXPLAIN [options] <statement> (and MariaDB's ANALYZE <statement>): the wrapped statement is classified on
 * its own. With ANALYZE it runs, so its effects are the EXPLAIN's; without, only its reach counts.
 */
async function explainTail(text: string, ctx: AnalyseContext): Promise<Analysis | undefined> {
  const tokens = ctx.lx.tokens;
  const head = tokens[0]?.kind === 'word' ? tokens[0].value : '';
  if ((head !== 'EXPLAIN' && head !== 'ANALYZE') || ctx.depth > 1) return undefined;
  let analyzing = head === 'ANALYZE';
  let k = 1;
  let depth = 0;
  for (; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'op' && t.value === '(') {
      if (depth === 0 && tokens[k + 1]?.kind === 'word' && TAIL_HEADS.has(tokens[k + 1].value)) break;
      depth++;
    } else if (t.kind === 'op' && t.value === ')') depth--;
    else if (depth === 0 && t.kind === 'word' && TAIL_HEADS.has(t.value)) break;
    else if (t.kind === 'word' && EXPLAIN_OPTIONS.has(t.value)) analyzing ||= t.value === 'ANALYZE';
    else if (!(t.kind === 'op' && (t.value === '=' || t.value === ','))) return undefined;
  }
  if (k >= tokens.length) return undefined;
  // MariaDB's `ANALYZE [FORMAT=JSON] <statement>` runs the statement and answers its plan: only DML and
  // SELECT follow it (`ANALYZE TABLE t` is the statistics write, never a wrapped `TABLE t`).
  if (head === 'ANALYZE') {
    const options = tokens.slice(1, k).map((t) => t.value);
    const plain = options.length === 0 || options.join(' ') === 'FORMAT = JSON';
    if (!plain || !ANALYZE_HEADS.has(tokens[k].value)) return undefined;
  }
  const tail = await ctx.classifyTail(text.slice(tokens[k].start));
  if (tail.doubtful) {
    ctx.doubts.push(`the explained statement is doubtful (${tail.reason})`);
    return undefined;
  }
  const a = emptyAnalysis('EXPLAIN', analyzing ? tail.kind : 'read');
  a.explained = new Set([...dangerousKeywords(tokens.slice(k)), 'ANALYZE']);
  a.objects = tail.objects.map((o) => ({ ...o, access: analyzing ? o.access : 'read' }));
  a.unplaceable = [...tail.unplaceable];
  if (analyzing) for (const g of tail.guardrails) a.guardrails.add(g);
  return a;
}

export async function analyse(text: string, ctx: AnalyseContext): Promise<Analysis | undefined> {
  // Transaction control has a closed vocabulary; the grammars disagree about it (T-SQL BEGIN TRAN).
  const tx = transactionFallback(ctx.lx.tokens);
  if (tx && ctx.lx.tokens.length > 0) return tx;
  return CLASSIFIER_DIALECT_INFO[ctx.dialect].family === 'pg' ? viaPg(text, ctx) : viaNsp(text, ctx);
}
