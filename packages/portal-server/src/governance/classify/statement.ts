// Classifies one split statement: the parser's reading (analyse.ts) checked against the lexer's. Any doubt
// (the parser cannot read it, finds more than one statement, comments or other lexical rules change what
// it says, a write keyword it does not account for, an executable comment, non-ASCII code) makes it a
// write held by every guardrail a keyword reading finds, with its reach unplaceable.
import { engineDescriptor } from '../../providers/registry.js';
import { transactionControlKeyword } from '../../sql/transaction-control.js';
import { type AnalyseContext, analyse } from './analyse.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './dialects.js';
import { orderGuardrails } from './guardrails.js';
import {
  dangerousKeywords,
  headWords,
  hidesStatement,
  isTransactionHead,
  keywordGuardrails,
  typeFromHead,
} from './keywords.js';
import { type LexResult, lex, signature } from './lexer.js';
import { unplaceableEntry } from './objects.js';
import type { Analysis, GuardrailValue, ObjectRef, StatementClassification } from './types.js';

export interface ScriptState {
  /** Guardrails of statements prepared earlier in the script, by name (lower-case). */
  prepared: Map<string, GuardrailValue[]>;
  /** An earlier statement changed how unqualified names resolve (USE, SET search_path). */
  resolutionChanged: boolean;
  defaultSchema?: string;
}

const GUARDRAIL_HEADS = new Set(['DELETE', 'UPDATE', 'DROP', 'TRUNCATE', 'GRANT', 'REVOKE']);
const TX_WORDS = ['BEGIN', 'COMMIT', 'ROLLBACK', 'SAVEPOINT', 'SET', 'START', 'RELEASE'];

/** Doubts a lexical reading raises on its own. */
function lexicalDoubts(text: string, lx: LexResult, dialect: Dialect): string[] {
  const info = CLASSIFIER_DIALECT_INFO[dialect];
  const doubts: string[] = [];
  if (lx.unterminated) doubts.push('unterminated string, identifier or comment');
  if (lx.executableComment) doubts.push('executable comment /*! … */');
  if (lx.nonAsciiCode) doubts.push('non-ASCII characters outside strings (homoglyphs or odd whitespace)');
  if (lx.unicodeEscape) doubts.push('unicode escapes');
  if (lx.strayBackslash) doubts.push('a backslash outside strings (client command such as \\g)');
  if (lx.tokens.some((t) => t.kind === 'semi')) doubts.push('more than one statement in one piece');
  if (lx.comments.some(hidesStatement) || lx.dollarBodies.some(hidesStatement)) {
    doubts.push('a comment or quoted body hides a statement');
  }
  const sig = signature(lx);
  if (info.alternatives.some((alt) => signature(lex(text, { ...info.lex, ...alt })) !== sig)) {
    doubts.push('the text reads differently under other lexical rules (comment nesting, escapes, quoting)');
  }
  return doubts;
}

/** Whether the head keyword agrees with what the parser says the statement is. */
function headAgrees(head: string[], a: Analysis): boolean {
  const fromHead = typeFromHead(head);
  if (fromHead === a.statementType) return true;
  if (head[0] === 'WITH' && ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(a.statementType)) return true;
  if (a.statementType === 'SELECT' && ['DECLARE', 'SUMMARIZE'].includes(head[0])) return true;
  // MariaDB's `ANALYZE <statement>` is an EXPLAIN that runs it (analyse.ts explainTail checked its shape).
  if (a.statementType === 'EXPLAIN' && head[0] === 'ANALYZE') return true;
  return a.statementType === 'OTHER' && fromHead === 'OTHER';
}

/** Every guardrail any reading finds: code under each lexical rule, and the text inside strings and comments. */
function deepGuardrails(text: string, lx: LexResult, dialect: Dialect): Set<GuardrailValue> {
  const info = CLASSIFIER_DIALECT_INFO[dialect];
  const readings = [lx, ...info.alternatives.map((alt) => lex(text, { ...info.lex, ...alt }))];
  const out = new Set<GuardrailValue>();
  for (const r of readings) {
    for (const g of keywordGuardrails(r.tokens)) out.add(g);
    const bodies = [
      ...r.comments,
      ...r.tokens.filter((t) => t.kind === 'string' || t.kind === 'qident').map((t) => t.value),
    ];
    for (const body of bodies) for (const g of keywordGuardrails(lex(body, info.lex).tokens)) out.add(g);
  }
  return out;
}

/** Guardrails of SQL held in string literals (EXECUTE '…', DO $$…$$, sp_executesql N'…'). */
function literalGuardrails(lx: LexResult, dialect: Dialect): Set<GuardrailValue> {
  const out = new Set<GuardrailValue>();
  for (const t of lx.tokens) {
    if (t.kind !== 'string') continue;
    for (const g of keywordGuardrails(lex(t.value, CLASSIFIER_DIALECT_INFO[dialect].lex).tokens)) out.add(g);
  }
  return out;
}

/** The name after the head word (`EXECUTE name`), lower-case. */
function preparedName(lx: LexResult): string {
  const t = lx.tokens[1];
  return t && (t.kind === 'word' || t.kind === 'qident') ? t.value.toLowerCase() : '';
}

export async function classifyStatement(
  text: string,
  index: number,
  dialect: Dialect,
  state: ScriptState,
  depth = 0,
  extraDoubt?: string,
): Promise<StatementClassification> {
  const lx = lex(text, CLASSIFIER_DIALECT_INFO[dialect].lex);
  const doubts = lexicalDoubts(text, lx, dialect);
  if (extraDoubt) doubts.push(extraDoubt);
  const head = headWords(lx.tokens, 3);
  const ctx: AnalyseContext = {
    dialect,
    lx,
    doubts,
    depth,
    classifyTail: (t) => classifyStatement(t, index, dialect, state, depth + 1),
  };
  let a: Analysis | undefined;
  try {
    a = await analyse(text, ctx);
  } catch (err) {
    // A parser or tree shape the analysers do not expect: fail closed.
    doubts.push(`the classifier could not read the parse tree (${(err as Error).message})`);
  }
  if (!a) doubts.push('no parser reads the statement');
  else {
    doubts.push(...a.doubts);
    if (a.kind === 'read' && !headAgrees(head, a) && !isTransactionHead(head)) {
      doubts.push(`the parser reads a ${head[0] ?? 'headless'} statement as ${a.statementType}`);
    }
    if (a.kind === 'write' && GUARDRAIL_HEADS.has(head[0] ?? '') && !headAgrees(head, a)) {
      doubts.push(`the parser reads a ${head[0]} statement as ${a.statementType}`);
    }
    if (a.kind === 'read') {
      const explained = new Set([...a.explained, ...(a.transactionControl ? TX_WORDS : [])]);
      const unexplained = [...dangerousKeywords(lx.tokens)].filter((k) => !explained.has(k));
      if (unexplained.length > 0)
        doubts.push(`write keywords the parser does not account for: ${unexplained.join(', ')}`);
    }
  }
  const doubtful = doubts.length > 0;

  const guardrails = new Set<GuardrailValue>(a?.guardrails ?? []);
  if (doubtful) for (const g of deepGuardrails(text, lx, dialect)) guardrails.add(g);
  // SQL held in string literals runs: EXECUTE '…', EXEC('…'), sp_executesql N'…', DO $$…$$, PREPARE … FROM '…'.
  const runsLiterals = a?.dynamic || ['EXEC', 'EXECUTE', 'DO', 'PREPARE', 'CALL'].includes(head[0] ?? '');
  if (runsLiterals) for (const g of literalGuardrails(lx, dialect)) guardrails.add(g);
  // What the classifier cannot read is not known to be safe (issue 27): a doubtful reading, dynamic SQL, a
  // procedure or code block, a prepared statement run by name are unverifiable writes.
  const preparedHere = head[0] === 'EXECUTE' && state.prepared.has(preparedName(lx));
  if (
    doubtful ||
    a?.dynamic ||
    (['EXEC', 'EXECUTE', 'DO', 'CALL'].includes(head[0] ?? '') && !preparedHere)
  ) {
    guardrails.add('unverifiable');
  }

  // PREPARE name … / EXECUTE name within one script: the EXECUTE runs what was prepared.
  const w1 = head[0] ?? '';
  const nameTok = lx.tokens[1];
  const named =
    nameTok && (nameTok.kind === 'word' || nameTok.kind === 'qident') ? nameTok.value.toLowerCase() : '';
  if (w1 === 'EXECUTE' && named) for (const g of state.prepared.get(named) ?? []) guardrails.add(g);

  const unplaceable = [...(a?.unplaceable ?? [])];
  if (w1 === 'EXECUTE' && !a?.executes && !unplaceable.length) {
    unplaceable.push(unplaceableEntry(`EXECUTE ${named}`.trim(), 'runs a prepared or dynamic statement'));
  }
  if (doubtful) unplaceable.push(unplaceableEntry('statement', 'its reach cannot be read reliably'));
  const objects: ObjectRef[] = [];
  for (const o of a?.objects ?? []) {
    if (o.schema) objects.push({ ...o });
    else if (state.resolutionChanged) {
      objects.push({ ...o });
      unplaceable.push(unplaceableEntry(o.name, 'name resolution was changed by an earlier statement'));
    } else if (state.defaultSchema) objects.push({ ...o, schema: state.defaultSchema, defaulted: true });
    else objects.push({ ...o });
  }

  // Engines the portal runs read transaction control with their own dialect's words (the same check the
  // execution routes make); other classifier dialects by their head words.
  const sqlDialect = engineDescriptor(dialect)?.sqlDialect;
  const sqlTx = sqlDialect ? transactionControlKeyword(sqlDialect, text) !== null : isTransactionHead(head);
  const transactionControl = Boolean(a?.transactionControl) || sqlTx;
  const ordered = orderGuardrails(guardrails);

  if (depth === 0) {
    if (a?.changesResolution || (doubtful && ['USE', 'SET'].includes(w1))) state.resolutionChanged = true;
    if (w1 === 'PREPARE' && named) state.prepared.set(named, ordered);
  }
  const result: StatementClassification = {
    index,
    text,
    kind: doubtful ? 'write' : (a?.kind ?? 'write'),
    statementType: a?.statementType ?? typeFromHead(head),
    guardrails: ordered,
    objects,
    unplaceable,
    transactionControl,
    doubtful,
  };
  if (doubtful) result.reason = [...new Set(doubts)].join('; ');
  return result;
}
