// Masking on the server (decisions.md `masking: [{column: "table.column" | "*.column", rule}]`; DESIGN §5):
// every path that returns rows — query, multi-query, transaction, export, bot results — passes its rows
// through a masker built here before they leave the process. Which output columns carry masked values is
// decided by column lineage (masking-lineage.ts), so aliases, expressions and subqueries do not leak them.
// Rules: `full` → "****"; `partial` → a hint (first character and e-mail domain, or the last 4 of a long
// value); `hash` → a keyed HMAC (so equal values stay equal for joins by eye, yet low-entropy values such as
// phone numbers cannot be found by hashing guesses).
import { createHmac } from 'node:crypto';
import type { MaskingRule } from '../datasources/types.js';
import { CLASSIFIER_DIALECT_INFO, type Dialect } from './classify/dialects.js';
import type { StatementClassification } from './classify/index.js';
import { lex } from './classify/lexer.js';
import { type FieldPlan, type MaskKind, planFields, stronger } from './masking-lineage.js';

export type { MaskKind } from './masking-lineage.js';

export const MASK_FULL = '****';

/** Masks one value under a rule. null and undefined stay as they are (absence is not the secret). */
export function maskValue(value: unknown, rule: MaskKind, key: Buffer): unknown {
  if (value === null || value === undefined) return value;
  const text =
    typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (rule === 'full') return MASK_FULL;
  if (rule === 'hash') return `hash:${createHmac('sha256', key).update(text).digest('hex').slice(0, 16)}`;
  // partial
  const at = text.indexOf('@');
  if (at > 0 && at < text.length - 1 && !text.includes(' ')) return `${text[0]}***${text.slice(at)}`;
  const chars = [...text];
  if (chars.length >= 8) return `****${chars.slice(-4).join('')}`;
  return chars.length > 1 ? `${chars[0]}***` : MASK_FULL;
}

/** `schema.table.column`, `table.column` or `*.column`, split at the last two dots. */
function ruleParts(column: string): { schema?: string; table: string; column: string } {
  const parts = column.split('.');
  const col = parts.pop() ?? '';
  const table = parts.pop() ?? '*';
  const schema = parts.length > 0 ? parts.join('.') : undefined;
  return { schema, table, column: col };
}

/**
 * The rules that apply to one statement, as lower-case column name → rule. A `*.column` rule always applies;
 * a `table.column` rule when the statement reaches that table — or when the classifier could not tell what
 * it reaches (doubtful or unplaceable), in which case every rule applies.
 */
export function applicableRules(
  rules: readonly MaskingRule[],
  statement: StatementClassification | undefined,
): Map<string, MaskKind> {
  const out = new Map<string, MaskKind>();
  const unknownReach = !statement || statement.doubtful || statement.unplaceable.length > 0;
  for (const r of rules) {
    const p = ruleParts(r.column);
    if (!p.column) continue;
    const reached =
      p.table === '*' ||
      unknownReach ||
      statement.objects.some(
        (o) =>
          (o.name === '*' || o.name.toLowerCase() === p.table.toLowerCase()) &&
          (!p.schema || !o.schema || o.schema.toLowerCase() === p.schema.toLowerCase()),
      );
    if (!reached) continue;
    const key = p.column.toLowerCase();
    out.set(key, stronger(out.get(key), r.rule)!);
  }
  return out;
}

/**
 * A masker for one statement's result: field names in, per-field rules out. Documents (JSON objects in a
 * cell, as document engines return them) are masked by field path too: a field named by a rule is masked
 * wherever it sits inside a value, and a flattened column (`address.email`) takes the rule of its last part.
 */
export class StatementMasker {
  constructor(
    private readonly plan: FieldPlan | undefined,
    private readonly key: Buffer,
    private readonly nested: ReadonlyMap<string, MaskKind> = new Map(),
  ) {}

  /** True when nothing is masked (the caller may skip the per-row work). */
  get empty(): boolean {
    return (!this.plan || (this.plan.byName.size === 0 && !this.plan.all)) && this.nested.size === 0;
  }

  /** The rule of each field, in order (undefined: shown as is). */
  rulesFor(fields: readonly string[]): (MaskKind | undefined)[] {
    const plan = this.plan;
    if (!plan) return fields.map(() => undefined);
    const positional =
      plan.byPosition && plan.byPosition.length === fields.length ? plan.byPosition : undefined;
    return fields.map((f, i) => {
      // Providers name a repeated column `id (2)`; the engine's name is the part before.
      const name = f.replace(/ \(\d+\)$/, '').toLowerCase();
      let kind = stronger(plan.all, plan.byName.get(name));
      // Without column lineage (engines without SQL grammar) a dotted name is a document path, as exports
      // flatten documents (`profile.email`): a rule on any segment (`email`, or the whole `profile`) holds.
      if (!plan.byPosition && name.includes('.'))
        for (const part of name.split('.')) kind = stronger(kind, plan.byName.get(part));
      if (positional) kind = stronger(kind, positional[i]);
      // A result the select list does not explain (a star after all, a function returning rows) is masked
      // by name only; a positional plan that does not fit the result cannot be trusted for any column.
      if (plan.byPosition && !positional) kind = stronger(kind, anyKind(plan.byPosition));
      const dot = name.lastIndexOf('.');
      if (dot >= 0) kind = stronger(kind, this.nested.get(name.slice(dot + 1)));
      return kind;
    });
  }

  /** Masks rows given as objects keyed by field name (query results). */
  maskObjects(fields: readonly string[], rows: Record<string, unknown>[]): Record<string, unknown>[] {
    const rules = this.rulesFor(fields);
    const nested = this.nestedRules();
    if (rules.every((r) => !r) && !nested) return rows;
    return rows.map((row) => {
      const out: Record<string, unknown> = { ...row };
      fields.forEach((f, i) => {
        const r = rules[i];
        if (r && f in out) out[f] = maskValue(out[f], r, this.key);
        else if (nested && f in out) out[f] = this.maskNested(out[f], nested);
      });
      return out;
    });
  }

  /** A per-row masker for rows given as arrays in field order (streamed exports), or undefined for none. */
  arrayMasker(fields: readonly string[]): ((row: unknown[]) => unknown[]) | undefined {
    const rules = this.rulesFor(fields);
    const nested = this.nestedRules();
    if (rules.every((r) => !r) && !nested) return undefined;
    return (row) =>
      row.map((v, i) =>
        rules[i] ? maskValue(v, rules[i]!, this.key) : nested ? this.maskNested(v, nested) : v,
      );
  }

  /**
   * Rules by name for values nested in documents and arrays (a document engine's `profile.email`), when the
   * plan masks by name only (no column lineage): the field is masked wherever it sits in the value.
   */
  private nestedRules(): ReadonlyMap<string, MaskKind> | undefined {
    // The rules that apply to the statement, when known: a document field is masked inside any value, also
    // where column lineage exists (SQL++ `SELECT *` nests the whole document under the keyspace name).
    if (this.nested.size > 0) return this.nested;
    const plan = this.plan;
    if (!plan || plan.byPosition || plan.byName.size === 0) return undefined;
    return plan.byName;
  }

  private maskNested(value: unknown, rules: ReadonlyMap<string, MaskKind>): unknown {
    if (Array.isArray(value)) return value.map((v) => this.maskNested(v, rules));
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
      return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const rule = rules.get(k.toLowerCase());
      out[k] = rule ? maskValue(v, rule, this.key) : this.maskNested(v, rules);
    }
    return out;
  }
}

function anyKind(list: (MaskKind | undefined)[]): MaskKind | undefined {
  return list.reduce<MaskKind | undefined>((k, v) => stronger(k, v), undefined);
}

/**
 * Builds the masker for one classified statement under a datasource's masking rules. The bot API calls this
 * for each statement of a script (`statement` = `classification.statements[i]`), then `maskObjects`.
 * `dialect` undefined (an engine without SQL grammar): columns are masked by name only.
 */
export async function statementMasker(
  rules: readonly MaskingRule[],
  dialect: Dialect | undefined,
  statement: StatementClassification | undefined,
  key: Buffer,
  text = statement?.text ?? '',
): Promise<StatementMasker> {
  const masked = applicableRules(rules, statement);
  if (masked.size === 0) return new StatementMasker(undefined, key);
  // No lineage (an engine without SQL grammar), or output no lineage can trace (whole-row serialisers,
  // statistics catalogs, keys a script picks — the engine allowlist says so): fields keep their stored names
  // unless the engine computed them, then every field is masked.
  if (!dialect || statement?.opaqueOutput) {
    const all = statement?.opaqueOutput ? anyKind([...masked.values()]) : undefined;
    return new StatementMasker({ byName: masked, ...(all ? { all } : {}) }, key, masked);
  }
  return new StatementMasker(await planFields(text, dialect, masked), key, masked);
}

/**
 * Whether a statement names a masked column that applies to it, or reads every column (`*`): its engine
 * errors may then echo masked values, so the routes withhold them.
 */
export function mentionsMasked(
  rules: readonly MaskingRule[],
  dialect: Dialect | undefined,
  statement: StatementClassification | undefined,
  text = statement?.text ?? '',
): boolean {
  const masked = applicableRules(rules, statement);
  if (masked.size === 0) return false;
  if (!dialect) return true;
  const lx = lex(text, CLASSIFIER_DIALECT_INFO[dialect].lex);
  return lx.tokens.some(
    (t) =>
      ((t.kind === 'word' || t.kind === 'qident') && masked.has(t.value.toLowerCase())) || t.value === '*',
  );
}
