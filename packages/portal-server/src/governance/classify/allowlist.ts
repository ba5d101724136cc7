// The engine allowlist applied to one statement's tree (issue 27, "fail closed by allowlist"): a function
// call or a relation the engine's allowlist (providers/<engine>/allowlist.ts) does not know to be a read makes
// the statement an unverifiable write — guardrail `unverifiable`, its reach unplaceable — and a read of the
// catalogs that name every object is reach the object rules cannot place. Engines without an allowlist keep
// the classifier's older judgement (functions.ts).
import type { EngineAllowlist } from '../../providers/classifier-rules.js';
import { functionEffect } from './functions.js';
import { unplaceableEntry } from './objects.js';
import type { Analysis } from './types.js';

export type { EngineAllowlist } from '../../providers/classifier-rules.js';

/** Marks the statement as a write the classifier cannot verify. */
export function markUnverifiable(a: Analysis, subject: string, reason: string): void {
  a.kind = 'write';
  a.guardrails.add('unverifiable');
  const entry = unplaceableEntry(subject, reason);
  if (!a.unplaceable.includes(entry)) a.unplaceable.push(entry);
}

/** SQL constructs a parser reports as function calls (node-sql-parser's NOT, EXISTS). */
const SQL_FORMS = new Set(['not', 'exists', 'any', 'all', 'some', 'row', 'array', 'interval']);

/** Known writing functions that reach the server itself: unverifiable whatever else they do. */
const SERVER_REACH = new Set(['load_extension', 'writefile', 'lo_import', 'lo_export', 'pg_file_write']);

/**
 * A call of `parts` (schema-qualified or not; any case): unverifiable unless the allowlist knows it. A known
 * writing function (nextval, pg_advisory_lock…: functions.ts) is a known write, not an unknown one.
 */
export function checkFunction(a: Analysis, allow: EngineAllowlist | undefined, parts: string[]): void {
  if (!allow || parts.length === 0) return;
  const name = parts[parts.length - 1].toLowerCase();
  const schema = parts.length > 1 ? parts[parts.length - 2].toLowerCase() : undefined;
  // Known writes keep functions.ts's judgement, except those that load code or touch server files.
  if (!schema && (SQL_FORMS.has(name) || (functionEffect(name) && !SERVER_REACH.has(name)))) return;
  // Table functions over the catalog (`pragma_table_info('t')`, `duckdb_tables()`) name objects of every schema.
  if (allow.catalogPrefixes.some((p) => name.startsWith(p))) {
    const entry = unplaceableEntry(`${parts.join('.')}()`, 'a catalog names the objects of every schema');
    if (!a.unplaceable.includes(entry)) a.unplaceable.push(entry);
  }
  const known = allow.functions.has(name) && (!schema || allow.functionSchemas.includes(schema));
  if (!known) markUnverifiable(a, `${parts.join('.')}()`, 'not a function known to only read');
}

/** An operator of `parts` (`+`, or `public.+` from `OPERATOR(public.+)`): unverifiable unless built in. */
export function checkOperator(a: Analysis, allow: EngineAllowlist | undefined, parts: string[]): void {
  if (!allow?.operators || parts.length === 0) return;
  const op = parts[parts.length - 1];
  const schema = parts.length > 1 ? parts[parts.length - 2].toLowerCase() : undefined;
  if (allow.operators.has(op) && (!schema || allow.functionSchemas.includes(schema))) return;
  markUnverifiable(a, `OPERATOR(${parts.join('.')})`, 'not an operator known to only read');
}

/** A relation read or written: statistics catalogs are unverifiable, catalogs unplaceable under object rules. */
export function checkRelation(
  a: Analysis,
  allow: EngineAllowlist | undefined,
  schema: string | undefined,
  relname: string,
  executing: boolean,
): void {
  if (!allow) return;
  const name = relname.toLowerCase();
  const s = schema?.toLowerCase();
  const catalog = s
    ? allow.catalogSchemas.includes(s)
    : allow.catalogPrefixes.some((p) => name.startsWith(p)) || name === 'information_schema';
  if (executing && allow.unverifiableRelations.has(name) && (!s || allow.catalogSchemas.includes(s))) {
    markUnverifiable(a, relname, 'a statistics or server catalog holding column values or server state');
  }
  if (catalog) {
    const entry = unplaceableEntry(
      s ? `${schema}.${relname}` : relname,
      'a catalog names the objects of every schema',
    );
    if (!a.unplaceable.includes(entry)) a.unplaceable.push(entry);
  }
}
