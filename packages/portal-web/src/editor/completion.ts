// What completion offers at a point of the text, decided without Monaco so it can be tested alone: after
// `schema.` the objects of that schema, after `table.` (or an alias of it) that table's columns, otherwise
// keywords, schemas, the tables whose name holds the word being typed and the columns of tables the
// statement already names. Objects and columns are asked of the source for this one word, so a catalog of
// 10,000 tables is never read whole (see objectLookup.ts for the requests and their cache).
import type { ColumnSchema, DbObject } from '../lib/types';

export type SuggestionKind = 'keyword' | 'schema' | 'table' | 'view' | 'column' | 'other';

export interface Suggestion {
  label: string;
  kind: SuggestionKind;
  detail: string;
}

/** Objects found for a word: `complete` is false when the server had more matches than it sent. */
export interface ObjectMatches {
  objects: DbObject[];
  complete: boolean;
}

export interface CompletionSource {
  keywords: string[];
  /** The connection's containers (schemas, databases), known from the per-kind counts. */
  schemas: string[];
  /** Objects whose name holds `word` (case-insensitive; '' = the current schema's first objects), bounded. */
  objects: (word: string, schema?: string) => Promise<ObjectMatches>;
  /** Columns of a table (described on demand and cached); undefined when there is no such table. */
  columns: (table: string, schema?: string) => Promise<ColumnSchema[] | undefined>;
}

export interface TableRef {
  table: string;
  schema?: string;
}

function objectKind(o: DbObject): SuggestionKind {
  const k = o.kind.toLowerCase();
  if (k.includes('view')) return 'view';
  if (k.includes('table') || k.includes('collection')) return 'table';
  return 'other';
}

const unquote = (s: string) => s.replace(/^[`"[]|[`"\]]$/g, '');

/** Tables the statement names after FROM/JOIN/UPDATE/INTO, by name and alias (`main.orders o` → o). */
export function tableRefsInStatement(text: string): Map<string, TableRef> {
  const out = new Map<string, TableRef>();
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
    const parts = m[1].split('.').map(unquote);
    const ref: TableRef = { table: m[2].toLowerCase() };
    if (parts.length > 1) ref.schema = parts[parts.length - 2].toLowerCase();
    out.set(ref.table, ref);
    const alias = m[3]?.toLowerCase();
    if (alias && !stop.has(alias)) out.set(alias, ref);
  }
  return out;
}

export interface Suggestions {
  items: Suggestion[];
  /** False when more objects match than were fetched: typing further asks again. */
  complete: boolean;
}

const columnItems = (ref: TableRef, cols: ColumnSchema[] | undefined): Suggestion[] =>
  (cols ?? []).map((c) => ({ label: c.name, kind: 'column', detail: `${ref.table}.${c.name} ${c.type}` }));

/**
 * Suggestions for the word being typed. `before` is the statement text up to the cursor; the qualifier is
 * what precedes a dot right before the word (`sales.cu|` → `sales`).
 */
export async function suggest(
  before: string,
  fullStatement: string,
  source: CompletionSource,
): Promise<Suggestions> {
  const refs = tableRefsInStatement(fullStatement);
  const qual = /([\w$]+)\.([\w$]*)$/.exec(before);
  if (qual) {
    const q = qual[1].toLowerCase();
    const schema = source.schemas.find((s) => s.toLowerCase() === q);
    if (schema !== undefined) {
      const found = await source.objects(qual[2], schema);
      return {
        items: found.objects.map((o) => ({ label: o.name, kind: objectKind(o), detail: o.kind })),
        complete: found.complete,
      };
    }
    const ref = refs.get(q) ?? { table: q };
    return { items: columnItems(ref, await source.columns(ref.table, ref.schema)), complete: true };
  }
  const word = /([\w$]*)$/.exec(before)?.[1] ?? '';
  const [found, ...described] = await Promise.all([
    source.objects(word),
    ...[...new Set(refs.values())].map(async (ref) =>
      columnItems(ref, await source.columns(ref.table, ref.schema)),
    ),
  ]);
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  const add = (s: Suggestion) => {
    const key = `${s.kind}:${s.label}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(s);
    }
  };
  for (const cols of described) for (const c of cols) add(c);
  for (const o of found.objects)
    add({ label: o.name, kind: objectKind(o), detail: `${o.kind} ${o.path.join('.')}` });
  for (const s of source.schemas) add({ label: s, kind: 'schema', detail: 'schema' });
  for (const k of source.keywords) add({ label: k, kind: 'keyword', detail: 'keyword' });
  return { items: out, complete: found.complete };
}
