// Guardrails judged by effect (issue 27; docs/portal-governance.md "Dry runs"): which statements of a
// classified script are dry-run (guarded UPDATE, DELETE, MERGE and upserts), and what the counts mean. A
// guarded statement touching every row of a table (of more than one row; its own, or one its triggers or
// cascades changed where the engine counts those), or more rows in all tables together than the policy's
// `maxAffectedRows`, gets the guardrail that holds it; one that cannot be dry-run safely (the engine
// has no dry run, the script commits implicitly or calls functions acting outside the transaction, the
// statement writes several tables, the dry run timed out on a lock) is `unverifiable`. Statements the
// allowlist already holds as unverifiable are never run, not even in a dry run.
import type { DryRunStep } from '../execution/dry-run.js';
import { ProviderError } from '../providers/errors.js';
import { engineDescriptor } from '../providers/registry.js';
import type { DryRunCount } from '../storage/approvals.js';
import { CLASSIFIER_DIALECT_INFO, isClassifierDialect } from './classify/dialects.js';
import { functionEffect } from './classify/functions.js';
import { orderGuardrails } from './classify/guardrails.js';
import { lex } from './classify/lexer.js';
import type { GuardrailValue, ScriptClassification, StatementClassification } from './classify/types.js';

const DML = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/** The code words of a statement (strings and comments aside), upper-case, with what follows each. */
function codeTokens(text: string, dialect: string) {
  const rules = isClassifierDialect(dialect) ? CLASSIFIER_DIALECT_INFO[dialect].lex : undefined;
  return rules ? lex(text, rules).tokens : [];
}

/** INSERT … ON CONFLICT DO UPDATE, ON DUPLICATE KEY UPDATE, INSERT OR REPLACE, REPLACE INTO. */
export function isUpsert(st: StatementClassification, dialect: string): boolean {
  if (st.statementType !== 'INSERT') return false;
  const words = new Set(codeTokens(st.text, dialect).flatMap((t) => (t.kind === 'word' ? [t.value] : [])));
  return words.has('REPLACE') || words.has('DUPLICATE') || (words.has('CONFLICT') && words.has('UPDATE'));
}

/** Calls a function known to act outside the transaction (sequences, advisory locks, notifications). */
function actsOutside(st: StatementClassification, dialect: string): boolean {
  const tokens = codeTokens(st.text, dialect);
  return tokens.some(
    (t, i) =>
      t.kind === 'word' &&
      tokens[i + 1]?.kind === 'op' &&
      tokens[i + 1].value === '(' &&
      functionEffect(t.value) !== undefined,
  );
}

/** A write that updates or deletes rows: by its type, or anywhere inside it (a data-modifying CTE). */
function guarded(st: StatementClassification, dialect: string): boolean {
  if (st.kind !== 'write') return false;
  if (countable(st, dialect)) return true;
  const words = codeTokens(st.text, dialect).flatMap((t) => (t.kind === 'word' ? [t.value] : []));
  return (
    ['SELECT', 'INSERT'].includes(st.statementType) &&
    words.some((w) => ['UPDATE', 'DELETE', 'MERGE'].includes(w))
  );
}

/** The engine's affected-row count is the statement's own only when the statement is the DML itself. */
function countable(st: StatementClassification, dialect: string): boolean {
  return ['UPDATE', 'DELETE', 'MERGE'].includes(st.statementType) || isUpsert(st, dialect);
}

export interface EffectPlan {
  /** The script's writes in order (guarded ones with their table), or undefined when nothing runs. */
  steps?: DryRunStep[];
  /** Guarded statements that cannot be dry-run: held as unverifiable. */
  unverifiable: number[];
}

/** What to dry-run of `c` on `engine` (statements of the script that write, in order). */
export function planEffect(c: ScriptClassification, engine: string, dialect: string): EffectPlan {
  const targets = c.statements.filter((s) => guarded(s, dialect)).map((s) => s.index);
  if (targets.length === 0) return { unverifiable: [] };
  const rules = engineDescriptor(engine)?.dryRun;
  const writes = c.statements.filter((s) => s.kind === 'write');
  // Already held as unverifiable: nothing of the script runs, not even rolled back.
  if (writes.some((s) => s.guardrails.includes('unverifiable'))) return { unverifiable: [] };
  const impossible =
    !rules ||
    c.statements.some((s) => s.transactionControl) ||
    (rules.implicitCommit && writes.some((s) => !DML.has(s.statementType))) ||
    writes.some((s) => actsOutside(s, dialect));
  if (impossible) return { unverifiable: targets };
  const steps: DryRunStep[] = [];
  const unverifiable: number[] = [];
  for (const s of writes) {
    const upsert = isUpsert(s, dialect);
    if (!targets.includes(s.index)) {
      steps.push({ index: s.index, text: s.text, upsert });
      continue;
    }
    const written = s.objects.filter((o) => o.access === 'write' && o.name !== '*');
    if (written.length !== 1 || !countable(s, dialect)) {
      unverifiable.push(s.index);
      continue;
    }
    const o = written[0];
    const table = o.schema && !o.defaulted ? { schema: o.schema, name: o.name } : { name: o.name };
    steps.push({ index: s.index, text: s.text, upsert, table });
  }
  if (unverifiable.length > 0) return { unverifiable: targets };
  return { steps, unverifiable: [] };
}

/** A dry-run failure that says the statement could not be judged (a lock or a timeout), not that it is wrong. */
export function dryRunInconclusive(err: unknown): boolean {
  if (!(err instanceof ProviderError)) return true;
  if (err.kind !== 'query') return true;
  return /lock|timeout|timed out|cancel|busy|deadlock|savepoint/i.test(err.message);
}

/** The classification with the guardrails the counts (or their absence) call for. */
export function judgeEffect(
  c: ScriptClassification,
  counts: DryRunCount[],
  unverifiable: number[],
  maxAffectedRows: number | undefined,
): ScriptClassification {
  const extra = new Map<number, GuardrailValue[]>();
  const add = (i: number, g: GuardrailValue) => extra.set(i, [...(extra.get(i) ?? []), g]);
  for (const i of unverifiable) add(i, 'unverifiable');
  const affected = new Map<number, number>();
  for (const n of counts) {
    const st = c.statements[n.statement];
    // Every row of a table, named or reached through a trigger or a cascade (an ON DELETE CASCADE that
    // empties a child table is an every-row delete whatever the statement's own WHERE).
    if (n.total > 1 && n.touched >= n.total) {
      add(n.statement, st?.statementType === 'DELETE' ? 'delete_without_where' : 'update_always_true');
    }
    affected.set(n.statement, (affected.get(n.statement) ?? 0) + n.touched + (n.inserted ?? 0));
  }
  // maxAffectedRows bounds what a statement changes in all tables together (cascades and triggers counted).
  for (const [i, n] of affected) {
    if (maxAffectedRows !== undefined && n > maxAffectedRows) add(i, 'affected_rows');
  }
  if (extra.size === 0) return c;
  const statements = c.statements.map((s) =>
    extra.has(s.index)
      ? { ...s, guardrails: orderGuardrails([...s.guardrails, ...(extra.get(s.index) ?? [])]) }
      : s,
  );
  return { ...c, statements, guardrails: orderGuardrails(statements.flatMap((s) => s.guardrails)) };
}
