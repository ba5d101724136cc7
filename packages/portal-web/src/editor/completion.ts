// What completion offers at a point of the text, decided without Monaco so it can be tested alone: after
// `schema.` the objects of that schema, after `table.` (or an alias of it) that table's columns, otherwise
// keywords, schemas, tables and the columns of tables the statement already names.
import type { ColumnSchema, DbObject } from '../lib/types';

export type SuggestionKind = 'keyword' | 'schema' | 'table' | 'view' | 'column' | 'other';

export interface Suggestion {
  label: string;
  kind: SuggestionKind;
  detail: string;
}

export interface CompletionSource {
  objects: DbObject[];
  keywords: string[];
  /** Columns of a table by its lower-case name, when described already. */
  columns: (table: string) => ColumnSchema[] | undefined;
}

function objectKind(o: DbObject): SuggestionKind {
  const k = o.kind.toLowerCase();
  if (k.includes('view')) return 'view';
  if (k.includes('table') || k.includes('collection')) return 'table';
  return 'other';
}

/** Tables the statement names after FROM/JOIN/UPDATE/INTO, with their aliases (`orders o` → o → orders). */
export function tablesInStatement(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const re =
    /\b(?:from|join|update|into)\s+((?:[`"[]?[\w$]+[`"\]]?\.)*[`"[]?([\w$]+)[`"\]]?)(?:\s+(?:as\s+)?([a-z_][\w$]*))?/gi;
  const stop = new Set([
    'where',
    'on',
    'join',
    'left',
    'right',
    'inner',
    'full',
    'group',
    'order',
    'limit',
    'set',
    'values',
  ]);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const table = m[2].toLowerCase();
    out.set(table, table);
    const alias = m[3]?.toLowerCase();
    if (alias && !stop.has(alias)) out.set(alias, table);
  }
  return out;
}

/**
 * Suggestions for the word being typed. `before` is the statement text up to the cursor; the qualifier is
 * what precedes a dot right before the word (`sales.cu|` → `sales`).
 */
export function suggest(before: string, fullStatement: string, source: CompletionSource): Suggestion[] {
  const qual = /([\w$]+)\.([\w$]*)$/.exec(before);
  if (qual) {
    const q = qual[1].toLowerCase();
    const inSchema = source.objects.filter(
      (o) => o.path.length > 1 && o.path[o.path.length - 2].toLowerCase() === q,
    );
    if (inSchema.length > 0)
      return inSchema.map((o) => ({ label: o.name, kind: objectKind(o), detail: o.kind }));
    const table = tablesInStatement(fullStatement).get(q) ?? q;
    const cols = source.columns(table) ?? [];
    return cols.map((c) => ({ label: c.name, kind: 'column', detail: `${table}.${c.name} ${c.type}` }));
  }
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (s: Suggestion) => {
    const key = `${s.kind}:${s.label}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(s);
    }
  };
  for (const t of tablesInStatement(fullStatement).values()) {
    for (const c of source.columns(t) ?? [])
      add({ label: c.name, kind: 'column', detail: `${t}.${c.name} ${c.type}` });
  }
  for (const o of source.objects) {
    add({ label: o.name, kind: objectKind(o), detail: `${o.kind} ${o.path.join('.')}` });
    if (o.path.length > 1) add({ label: o.path[o.path.length - 2], kind: 'schema', detail: 'schema' });
  }
  for (const k of source.keywords) add({ label: k, kind: 'keyword', detail: 'keyword' });
  return out;
}
