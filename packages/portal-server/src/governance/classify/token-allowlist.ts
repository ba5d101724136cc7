// Fail closed by allowlist (issue 27): after the parser's reading, an engine whose descriptor carries an
// allowlist (providers/<engine>/allowlist.ts) has every call of the statement's code checked against what is
// positively known to read, plus the engine's own statement rules. A call the list does not know (an unknown
// or user-defined function, a quoted or qualified name, one taking SQL text, a file or a network address) makes
// the statement a doubtful write of the most dangerous class; known effects make it a write, a guarded write,
// unplaceable reach (refused under object rules) or opaque output (masked whole). The statement keeps the
// text it was split as; the allowlist reads that text, not a rewritten reading.
import type { AllowlistFinding, AllowlistToken, SqlAllowlist } from '../../providers/classifier-rules.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './dialects.js';
import { orderGuardrails } from './guardrails.js';
import { lex, type Token } from './lexer.js';
import { unplaceableEntry } from './objects.js';
import { GUARDRAIL_VALUES, type GuardrailValue, type StatementClassification } from './types.js';

/**
 * The most dangerous class: what the classifier cannot verify could drop, empty or rewrite every row. It is
 * the `unverifiable` guardrail every engine's allowlist uses: refused on read-only datasources (where every
 * write is), held for review elsewhere, run by administrators only where the policy allows it.
 */
export const CANNOT_VERIFY: readonly GuardrailValue[] = ['unverifiable'];

const isOp = (t: Token | undefined, v: string) => t?.kind === 'op' && t.value === v;
const isName = (t: Token | undefined) => t?.kind === 'word' || t?.kind === 'qident';

/** Words after which `name (` names a table, index or column list rather than a call (T-SQL's `INSERT t (a)` omits INTO). */
const NAME_INTRODUCERS = new Set([
  'INTO',
  'INSERT',
  'TABLE',
  'INDEX',
  'VIEW',
  'REFERENCES',
  'KEY',
  'CONSTRAINT',
  'UPDATE',
  'PROCEDURE',
  'FUNCTION',
  'TRIGGER',
  'DICTIONARY',
]);

const isWord = (t: Token | undefined, v: string) => t?.kind === 'word' && t.value === v;

/**
 * `CREATE [UNIQUE] INDEX ix ON t (…)`: the `ON` at `on` introduces the indexed table, whose column list
 * follows (an expression inside the list is still a call and is judged). `ON` elsewhere (a join condition,
 * `ON DUPLICATE KEY`) can stand before a call, so only this shape is let through.
 */
function onIndexedTable(tokens: readonly Token[], on: number): boolean {
  if (!isWord(tokens[on], 'ON') || !isName(tokens[on - 1])) return false;
  // The index name may be qualified (Oracle `CREATE INDEX "S"."ix" ON …`).
  let s = on - 1;
  while (isOp(tokens[s - 1], '.') && isName(tokens[s - 2])) s -= 2;
  return isWord(tokens[s - 1], 'INDEX');
}

/**
 * Where an unreserved type name before `(` is a type: after a cast's `AS` or a quoted column name (the table
 * designer quotes every column). Anywhere else (`SELECT timestamp(1)`, a view's query) it is judged as a call.
 */
const typePlace = (tokens: readonly Token[], k: number): boolean =>
  isWord(tokens[k - 1], 'AS') || tokens[k - 1]?.kind === 'qident';

/** Index of the `)` closing the `(` at `open`, or the last token. */
function closing(tokens: readonly Token[], open: number): number {
  let d = 0;
  for (let k = open; k < tokens.length; k++) {
    if (isOp(tokens[k], '(')) d++;
    else if (isOp(tokens[k], ')') && --d === 0) return k;
  }
  return tokens.length - 1;
}

/** The base name of a function once the engine's combinator suffixes are taken off (`sumIfState` → `sum`). */
function baseNames(name: string, combinators: readonly string[]): string[] {
  const out = [name];
  let cur = name;
  for (let guard = 0; guard < 4; guard++) {
    const c = combinators.find((x) => cur.length > x.length && cur.endsWith(x));
    if (!c) break;
    cur = cur.slice(0, -c.length);
    out.push(cur);
  }
  return out;
}

/** Every call of the statement's code, judged by the allowlist. */
export function callFindings(tokens: readonly Token[], list: SqlAllowlist): AllowlistFinding[] {
  const out: AllowlistFinding[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (!isName(t) || !isOp(tokens[k + 1], '(')) continue;
    // Start of the dotted name and the word before it (`INSERT INTO db.t (a)`).
    let s = k;
    while (isOp(tokens[s - 1], '.') && isName(tokens[s - 2])) s -= 2;
    const before = tokens[s - 1];
    if (before?.kind === 'word' && NAME_INTRODUCERS.has(before.value)) continue;
    if (onIndexedTable(tokens, s - 1)) continue;
    // `WITH cte (a, b) AS (…)`: a CTE's column list.
    const close = closing(tokens, k + 1);
    if (
      tokens[close + 1]?.kind === 'word' &&
      tokens[close + 1].value === 'AS' &&
      isOp(tokens[close + 2], '(')
    )
      continue;
    if (
      s === k &&
      t.kind === 'word' &&
      list.syntax.has(t.value) &&
      (list.syntaxPlace?.(tokens as readonly AllowlistToken[], k) ?? true)
    )
      continue;
    if (s === k && t.kind === 'word' && list.typeWords?.has(t.value) && typePlace(tokens, k)) continue;
    const name = t.value.toLowerCase();
    if (s !== k || t.kind === 'qident') {
      out.push({
        effect: 'unverifiable',
        subject: `${t.value}()`,
        reason: 'a quoted or qualified routine name (a user-defined routine) cannot be verified',
      });
      continue;
    }
    const names = baseNames(name, list.combinators ?? []);
    const known = names.map((n) => list.knownCalls?.get(n)).find(Boolean);
    if (known) {
      out.push({ ...known, subject: `${name}()` });
      continue;
    }
    if (names.some((n) => list.readFunctions.has(n))) continue;
    out.push({
      effect: 'unverifiable',
      subject: `${name}()`,
      reason: 'not on the engine allowlist of functions known to read',
    });
  }
  return out;
}

/** The allowlist's findings for one statement text of `dialect` (none when the engine has no allowlist). */
export function allowlistFindings(text: string, dialect: Dialect): AllowlistFinding[] {
  const list = CLASSIFIER_DIALECT_INFO[dialect]?.tokenAllowlist;
  if (!list) return [];
  const tokens = lex(text, CLASSIFIER_DIALECT_INFO[dialect].lex).tokens;
  return [
    ...callFindings(tokens, list),
    ...(list.statementRules?.(tokens as readonly AllowlistToken[], text) ?? []),
  ];
}

const isGuardrail = (g: string): g is GuardrailValue => (GUARDRAIL_VALUES as readonly string[]).includes(g);

/** The statement as its engine's allowlist judges it. */
export function judgedByAllowlist(c: StatementClassification, dialect: Dialect): StatementClassification {
  const findings = allowlistFindings(c.text, dialect);
  if (findings.length === 0) return c;
  const out: StatementClassification = {
    ...c,
    guardrails: [...c.guardrails],
    unplaceable: [...c.unplaceable],
  };
  const guardrails = new Set<GuardrailValue>(c.guardrails);
  const reasons: string[] = [];
  for (const f of findings) {
    const entry = unplaceableEntry(f.subject, f.reason);
    switch (f.effect) {
      case 'unverifiable':
        out.kind = 'write';
        out.doubtful = true;
        reasons.push(`${f.subject}: ${f.reason}`);
        for (const g of CANNOT_VERIFY) guardrails.add(g);
        // Reach already unplaceable (CALL, dynamic SQL) keeps its own first reason.
        if (c.unplaceable.length === 0 && !out.unplaceable.includes(entry)) out.unplaceable.push(entry);
        break;
      case 'write':
        out.kind = 'write';
        break;
      case 'guarded':
        out.kind = 'write';
        for (const g of f.guardrails ?? []) if (isGuardrail(g)) guardrails.add(g);
        break;
      case 'reach':
        if (!out.unplaceable.includes(entry)) out.unplaceable.push(entry);
        break;
      case 'opaque':
        out.opaqueOutput = true;
        break;
    }
  }
  out.guardrails = orderGuardrails(guardrails);
  if (reasons.length > 0) out.reason = [c.reason, ...new Set(reasons)].filter(Boolean).join('; ');
  return out;
}
