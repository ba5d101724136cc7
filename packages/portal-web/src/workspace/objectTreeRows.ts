// The object tree as a flat list of rows, decided without React so it can be tested alone: the virtual list
// of ObjectTree renders only the rows in view, so the tree is one array however many objects there are.
// Containers come from the per-kind counts (one cheap catalog read); a container's objects are listed only
// once it is opened; a search filters every object of the connection (loaded on the first keystroke).
import type { Answer } from '../lib/api';
import type { DbObject } from '../lib/types';

/** One container's count of one kind (`POST /api/db/objects/counts`). */
export type KindCount = Answer<'/api/db/objects/counts', 'post'>['counts'][number];

export type TreeRow =
  | {
      type: 'container';
      key: string;
      path: string[];
      label: string;
      count: number;
      open: boolean;
      hasTables: boolean;
    }
  | { type: 'kind'; key: string; label: string; count: number; open: boolean }
  /** `open` is set on a table, whose columns, indexes and keys can be shown under it. */
  | { type: 'object'; key: string; object: DbObject; open?: boolean }
  | { type: 'part'; key: string; part: 'column' | 'index' | 'key'; label: string; detail: string }
  | { type: 'note'; key: string; text: string; tone: 'muted' | 'error' };

/** A table's parts as the tree shows them: its description (`/api/db/objects/describe`) reduced. */
export type TableParts =
  | { state: 'pending' }
  | { state: 'error'; message: string }
  | {
      state: 'done';
      columns: Array<{ name: string; type: string; isPrimary: boolean; nullable: boolean }>;
      indexes: Array<{ name: string; columns: string[]; unique: boolean }>;
      foreignKeys: Array<{
        columnName: string;
        constraintName?: string;
        referencedPath?: string[];
        referencedColumn?: string;
      }>;
    };

/** What one container's listing looks like right now (react-query's state reduced to what the tree shows). */
export type Listing =
  | { state: 'pending' }
  | { state: 'error'; message: string }
  | {
      state: 'done';
      objects: DbObject[] /** A search answer that held back further matches. */;
      truncated?: boolean;
    };

export interface TreeInput {
  counts: KindCount[];
  /** Listings of the containers opened so far, by container key. */
  listings: Map<string, Listing>;
  /** Open containers (by container key); kinds are open unless closed (by kind key). */
  openContainers: ReadonlySet<string>;
  closedKinds: ReadonlySet<string>;
  /** The search text (already trimmed); empty for the browsing tree. */
  needle: string;
  /** The objects whose name holds the search text (the server's `search`), undefined while it loads. */
  all: Listing | undefined;
  /** Tables opened to show their parts (by object key), and their descriptions as read so far. */
  openTables?: ReadonlySet<string>;
  parts?: Map<string, TableParts>;
}

export const containerKey = (path: readonly string[]) => path.join('\u0000');
const kindKey = (container: string, kind: string) => `${container}\u0001${kind}`;
export const objectKey = (o: DbObject) => o.path.join('\u0000');

/** A label for an object kind, plural as a folder reads: table → Tables, index → Indexes, key → Keys. */
export function kindLabel(kind: string): string {
  const words = kind.replace(/[_-]+/g, ' ').trim() || 'object';
  const plural = /(x|s|sh|ch)$/i.test(words)
    ? `${words}es`
    : /[^aeiou]y$/i.test(words)
      ? `${words.slice(0, -1)}ies`
      : `${words}s`;
  return plural.charAt(0).toUpperCase() + plural.slice(1);
}

function byKindThenName(a: DbObject, b: DbObject): number {
  return a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name);
}

/** Objects of one container under their kind folders (the order of `kinds`, then any kind not counted). */
function kindRows(
  out: TreeRow[],
  container: string,
  kinds: Array<{ kind: string; count: number }>,
  objects: DbObject[],
  closedKinds: ReadonlySet<string>,
  forceOpen: boolean,
  tables: Pick<TreeInput, 'openTables' | 'parts'> = {},
): void {
  const byKind = new Map<string, DbObject[]>();
  for (const o of objects) {
    const list = byKind.get(o.kind) ?? [];
    list.push(o);
    byKind.set(o.kind, list);
  }
  const order = [...kinds];
  for (const kind of byKind.keys())
    if (!order.some((k) => k.kind === kind)) order.push({ kind, count: byKind.get(kind)?.length ?? 0 });
  for (const { kind, count } of order) {
    const list = (byKind.get(kind) ?? []).sort(byKindThenName);
    if (forceOpen && list.length === 0) continue;
    const key = kindKey(container, kind);
    const open = forceOpen || !closedKinds.has(key);
    out.push({ type: 'kind', key, label: kindLabel(kind), count: forceOpen ? list.length : count, open });
    if (!open) continue;
    for (const o of list) {
      const key = objectKey(o);
      if (!isTableKind(o.kind)) {
        out.push({ type: 'object', key, object: o });
        continue;
      }
      const open = tables.openTables?.has(key) === true;
      out.push({ type: 'object', key, object: o, open });
      if (open) partRows(out, key, tables.parts?.get(key) ?? { state: 'pending' });
    }
    // The server bounds a listing (10,000 objects); the count says when more exist than were listed.
    if (!forceOpen && list.length < count)
      out.push({
        type: 'note',
        key: `${key}\u0002more`,
        text: `Showing ${list.length} of ${count}; search to find the others`,
        tone: 'muted',
      });
  }
}

/** A table's columns (key and foreign-key marks), then its indexes and foreign keys. */
function partRows(out: TreeRow[], table: string, parts: TableParts): void {
  const at = (what: string, name: string) => `${table}\u0003${what}\u0003${name}`;
  if (parts.state === 'pending') {
    out.push({ type: 'note', key: at('note', 'loading'), text: 'Loading…', tone: 'muted' });
    return;
  }
  if (parts.state === 'error') {
    out.push({ type: 'note', key: at('note', 'error'), text: parts.message, tone: 'error' });
    return;
  }
  const fkColumns = new Set(parts.foreignKeys.map((f) => f.columnName));
  for (const c of parts.columns) {
    const marks = [c.isPrimary ? 'PK' : '', fkColumns.has(c.name) ? 'FK' : '', c.nullable ? '' : 'not null'];
    out.push({
      type: 'part',
      key: at('column', c.name),
      part: 'column',
      label: c.name,
      detail: [c.type, ...marks].filter(Boolean).join(' · '),
    });
  }
  for (const i of parts.indexes)
    out.push({
      type: 'part',
      key: at('index', i.name),
      part: 'index',
      label: i.name,
      detail: `${i.unique ? 'unique ' : ''}(${i.columns.join(', ')})`,
    });
  parts.foreignKeys.forEach((f, n) => {
    out.push({
      type: 'part',
      key: at('key', `${f.constraintName ?? ''}\u0004${f.columnName}\u0004${n}`),
      part: 'key',
      label: f.constraintName || f.columnName,
      detail: `${f.columnName} → ${(f.referencedPath ?? []).join('.')}(${f.referencedColumn ?? ''})`,
    });
  });
}

/** Containers of the counts, in name order, with their kinds (in name order) and total. */
export function containersOf(counts: KindCount[]) {
  const byKey = new Map<
    string,
    { path: string[]; label: string; kinds: Array<{ kind: string; count: number }>; count: number }
  >();
  for (const c of counts) {
    const key = containerKey(c.path);
    const e = byKey.get(key) ?? {
      path: c.path,
      label: c.path.length ? c.path.join('.') : '(top level)',
      kinds: [],
      count: 0,
    };
    e.kinds.push({ kind: c.kind, count: c.count });
    e.count += c.count;
    byKey.set(key, e);
  }
  for (const e of byKey.values()) e.kinds.sort((a, b) => a.kind.localeCompare(b.kind));
  return [...byKey.entries()].sort((a, b) => a[1].label.localeCompare(b[1].label));
}

const isTableKind = (kind: string) => /table/i.test(kind) && !/view/i.test(kind);

/** The rows the tree shows for its input. */
export function treeRows(input: TreeInput): TreeRow[] {
  const out: TreeRow[] = [];
  const containers = containersOf(input.counts);
  if (input.needle) return searchRows(input, containers);
  for (const [key, c] of containers) {
    const open = input.openContainers.has(key);
    out.push({
      type: 'container',
      key,
      path: c.path,
      label: c.label,
      count: c.count,
      open,
      hasTables: c.kinds.some((k) => isTableKind(k.kind)),
    });
    if (!open) continue;
    const listing = input.listings.get(key) ?? { state: 'pending' };
    if (listing.state === 'pending')
      out.push({ type: 'note', key: `${key}\u0002loading`, text: 'Loading…', tone: 'muted' });
    else if (listing.state === 'error')
      out.push({ type: 'note', key: `${key}\u0002error`, text: listing.message, tone: 'error' });
    else if (listing.objects.length === 0)
      out.push({ type: 'note', key: `${key}\u0002empty`, text: 'No objects.', tone: 'muted' });
    else kindRows(out, key, c.kinds, listing.objects, input.closedKinds, false, input);
  }
  return out;
}

/** A search: every matching object under its container and kind, all open; the count is of matches. */
function searchRows(input: TreeInput, containers: ReturnType<typeof containersOf>): TreeRow[] {
  const out: TreeRow[] = [];
  const needle = input.needle.toLowerCase();
  if (!input.all || input.all.state === 'pending')
    return [{ type: 'note', key: 'search-loading', text: 'Searching every object…', tone: 'muted' }];
  if (input.all.state === 'error')
    return [{ type: 'note', key: 'search-error', text: input.all.message, tone: 'error' }];
  const matches = new Map<string, DbObject[]>();
  for (const o of input.all.objects) {
    if (!o.name.toLowerCase().includes(needle)) continue;
    const key = containerKey(o.path.slice(0, -1));
    const list = matches.get(key) ?? [];
    list.push(o);
    matches.set(key, list);
  }
  // The search answer is bounded (SEARCH_LIMIT): say so, and how to see the rest.
  const bounded: TreeRow | undefined = input.all.truncated
    ? {
        type: 'note',
        key: 'search-bounded',
        text: `Showing the first ${input.all.objects.length} matches: type more of the name`,
        tone: 'muted',
      }
    : undefined;
  if (matches.size === 0) {
    const none: TreeRow = {
      type: 'note',
      key: 'search-none',
      text: `Nothing named like “${input.needle}”.`,
      tone: 'muted',
    };
    return bounded ? [none, bounded] : [none];
  }
  const known = new Map(containers);
  const keys = [...matches.keys()].sort((a, b) => a.localeCompare(b));
  if (bounded) out.push(bounded);
  for (const key of keys) {
    const list = matches.get(key) ?? [];
    const path = list[0].path.slice(0, -1);
    const kinds = known.get(key)?.kinds ?? [];
    out.push({
      type: 'container',
      key,
      path,
      label: path.length ? path.join('.') : '(top level)',
      count: list.length,
      open: true,
      hasTables: kinds.some((k) => isTableKind(k.kind)) || list.some((o) => isTableKind(o.kind)),
    });
    kindRows(out, key, kinds, list, input.closedKinds, true, input);
  }
  return out;
}

/** What a key does on the row at `index`, as a tree widget answers it (WAI-ARIA tree pattern). */
export type TreeKeyAction = { focus: number } | { toggle: number } | undefined;

const level = (r: TreeRow) =>
  r.type === 'container' ? 0 : r.type === 'kind' ? 1 : r.type === 'object' ? 2 : r.type === 'part' ? 3 : 2;

export function treeKey(rows: TreeRow[], index: number, key: string): TreeKeyAction {
  const row = rows[index];
  if (!row) return undefined;
  const step = (from: number, dir: 1 | -1) => {
    for (let i = from + dir; i >= 0 && i < rows.length; i += dir) if (rows[i].type !== 'note') return i;
    return undefined;
  };
  const to = (i: number | undefined): TreeKeyAction => (i === undefined ? undefined : { focus: i });
  const folder =
    row.type === 'container' || row.type === 'kind' || (row.type === 'object' && row.open !== undefined);
  switch (key) {
    case 'ArrowDown':
      return to(step(index, 1));
    case 'ArrowUp':
      return to(step(index, -1));
    case 'Home':
      return to(step(-1, 1));
    case 'End':
      return to(step(rows.length, -1));
    // Right opens a closed folder, then steps into it; Left closes an open folder, else goes to the parent.
    case 'ArrowRight':
      if (!folder) return undefined;
      return 'open' in row && row.open ? to(step(index, 1)) : { toggle: index };
    case 'ArrowLeft': {
      if (folder && 'open' in row && row.open) return { toggle: index };
      for (let i = index - 1; i >= 0; i--)
        if (rows[i].type !== 'note' && level(rows[i]) < level(row)) return { focus: i };
      return undefined;
    }
    default:
      return undefined;
  }
}
