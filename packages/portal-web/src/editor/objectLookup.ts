// Completion's reads of the object surface for one connection: the objects whose name holds the word being
// typed (`objects/list` with `search` and `limit`), the current schema's first objects when nothing is typed
// yet, and a table's columns (`objects/describe`). Each answer is kept (a bounded, least-recently-used map),
// and a complete answer for a shorter word serves every longer one locally, so typing `cust` after `cu`
// sends nothing. A 10,000-table catalog is never listed whole.
import type { ColumnSchema, DbObject } from '../lib/types';
import type { ObjectMatches } from './completion';

/** Objects asked for per word: enough to choose from, small enough to send on each new word. */
export const LOOKUP_LIMIT = 100;
/** Answers kept per connection (words and described tables each). */
export const LOOKUP_ENTRIES = 200;

export interface LookupDeps {
  list(body: { path?: string[]; search?: string; limit: number }): Promise<{
    objects: DbObject[];
    truncated?: boolean;
  }>;
  describe(path: string[]): Promise<{ columns: ColumnSchema[] }>;
  /** Container paths (schemas, databases) from the per-kind counts; empty until they arrive. */
  containers(): string[][];
}

export interface ObjectLookup {
  objects(word: string, schema?: string): Promise<ObjectMatches>;
  columns(table: string, schema?: string): Promise<ColumnSchema[] | undefined>;
  /** The schema completion lists when nothing is typed: the usual default's name, else the first one. */
  currentSchema(): string[] | undefined;
}

const DEFAULT_SCHEMAS = ['public', 'main', 'dbo'];

function remember<V>(map: Map<string, Promise<V>>, key: string, make: () => Promise<V>): Promise<V> {
  const hit = map.get(key);
  if (hit) {
    map.delete(key);
    map.set(key, hit);
    return hit;
  }
  const made = make();
  map.set(key, made);
  // A failed read is forgotten so the next keystroke asks again.
  made.catch(() => {
    if (map.get(key) === made) map.delete(key);
  });
  while (map.size > LOOKUP_ENTRIES) map.delete(map.keys().next().value as string);
  return made;
}

export function objectLookup(deps: LookupDeps): ObjectLookup {
  const lists = new Map<string, Promise<ObjectMatches>>();
  const described = new Map<string, Promise<ColumnSchema[] | undefined>>();
  /** Answers already settled, by key, to find a complete shorter word without awaiting. */
  const settled = new Map<string, ObjectMatches>();

  const containerOf = (schema: string): string[] | undefined =>
    deps.containers().find((p) => p[p.length - 1]?.toLowerCase() === schema.toLowerCase());
  const currentSchema = (): string[] | undefined => {
    const all = deps.containers();
    return all.find((p) => DEFAULT_SCHEMAS.includes(p[p.length - 1]?.toLowerCase() ?? '')) ?? all[0];
  };

  const objects = (word: string, schema?: string): Promise<ObjectMatches> => {
    const w = word.toLowerCase();
    const path = schema !== undefined ? containerOf(schema) : w === '' ? currentSchema() : undefined;
    if (schema !== undefined && !path) return Promise.resolve({ objects: [], complete: true });
    const scope = path ? path.join('\u0000') : '*';
    for (let i = w.length - 1; i >= 0; i--) {
      const shorter = settled.get(`${scope}\u0001${w.slice(0, i)}`);
      if (shorter?.complete)
        return Promise.resolve({
          objects: shorter.objects.filter((o) => o.name.toLowerCase().includes(w)),
          complete: true,
        });
    }
    const key = `${scope}\u0001${w}`;
    return remember(lists, key, async () => {
      const r = await deps.list({
        ...(path ? { path } : {}),
        ...(w ? { search: w } : {}),
        limit: LOOKUP_LIMIT,
      });
      const found = { objects: r.objects, complete: r.truncated !== true };
      settled.set(key, found);
      while (settled.size > LOOKUP_ENTRIES) settled.delete(settled.keys().next().value as string);
      return found;
    });
  };

  const columns = (table: string, schema?: string): Promise<ColumnSchema[] | undefined> =>
    remember(described, `${schema ?? ''}\u0001${table.toLowerCase()}`, async () => {
      const found = await objects(table, schema);
      const named = found.objects.filter((o) => o.name.toLowerCase() === table.toLowerCase());
      const current = currentSchema()?.join('\u0000');
      const o = named.find((x) => x.path.slice(0, -1).join('\u0000') === current) ?? named[0];
      return o ? (await deps.describe(o.path)).columns : undefined;
    });

  return { objects, columns, currentSchema };
}
