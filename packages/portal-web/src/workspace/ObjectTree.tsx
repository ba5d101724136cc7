// Left panel, bottom half: the selected connection's objects, lazily. The containers (schemas, databases)
// and how many objects of each kind they hold come from `POST /api/db/objects/counts`; opening a container
// lists its objects (`/api/db/objects/list` with the container's `path`) under one folder per kind the engine
// reports (tables, views, indexes, collections, keys…), with row counts and sizes where it gives them. The
// filter box asks the server for the objects whose name holds the text (`search`, at most SEARCH_LIMIT), so
// a 10,000-table catalog is never fetched whole. Rows are one flat array drawn by a virtual list, so 10,000
// tables stay smooth.
// Object rules (governance) are applied by the server. Clicking an object describes it; the ER button of a
// container draws its diagram, its + button opens the table designer (where the engine has one). A table's
// caret shows its columns, indexes and foreign keys under it (its description, read when opened). Row counts
// in the tree are the engine's statistics (PostgreSQL reltuples, MySQL TABLE_ROWS…), so they are marked ≈.
// Arrow keys, Home and End move through the rows as in a tree widget.
import { Spinner, useVirtualRows } from '@app/web-kit';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { apiPost, errorText } from '../lib/api';
import type { DbObject } from '../lib/types';
import {
  containerKey,
  type Listing,
  objectKey,
  type TableParts,
  type TreeRow,
  treeKey,
  treeRows,
} from './objectTreeRows';

const ROW_HEIGHT = 26;
/** Matches a search fetches; more say "type more of the name". */
const SEARCH_LIMIT = 1000;

export function ObjectTree(props: {
  connectionKey: string;
  descriptor: Record<string, unknown>;
  selectedPath: string[] | undefined;
  onOpen: (o: DbObject) => void;
  onDiagram: (schema: string, objects: DbObject[]) => void;
  /** Opens the table designer for a new table in a container (absent where the engine has no designer). */
  onNewTable?: (container: string[]) => void;
}) {
  const qc = useQueryClient();
  const [openContainers, setOpenContainers] = useState<ReadonlySet<string>>(new Set());
  const [closedKinds, setClosedKinds] = useState<ReadonlySet<string>>(new Set());
  const [openTables, setOpenTables] = useState<ReadonlyMap<string, string[]>>(new Map());
  const [filter, setFilter] = useState('');
  const needle = filter.trim();
  // The request follows the text once typing pauses, not on every key.
  const [asked, setAsked] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAsked(needle), 200);
    return () => clearTimeout(timer);
  }, [needle]);

  const counts = useQuery({
    queryKey: ['objects', props.connectionKey, 'counts'],
    queryFn: () => apiPost('/api/db/objects/counts', { connection: props.descriptor }),
    staleTime: 60_000,
  });
  const listOf = (path: string[]) => ({
    queryKey: ['objects', props.connectionKey, 'list', path],
    queryFn: () => apiPost('/api/db/objects/list', { connection: props.descriptor, path }),
    staleTime: 60_000,
  });
  const opened = useMemo(
    () => (counts.data?.counts ?? []).filter((c) => openContainers.has(containerKey(c.path))),
    [counts.data, openContainers],
  );
  const openPaths = useMemo(
    () => [...new Map(opened.map((c) => [containerKey(c.path), c.path])).values()],
    [opened],
  );
  const lists = useQueries({ queries: openPaths.map(listOf) });
  // The same key as the description panel, so an opened table is read once for both.
  const tablePaths = [...openTables.values()];
  const described = useQueries({
    queries: tablePaths.map((path) => ({
      queryKey: ['describe', props.connectionKey, path],
      queryFn: () => apiPost('/api/db/objects/describe', { connection: props.descriptor, path }),
      staleTime: 60_000,
    })),
  });
  const parts = new Map<string, TableParts>();
  tablePaths.forEach((path, i) => {
    const q = described[i];
    parts.set(
      path.join('\u0000'),
      q.isError
        ? { state: 'error', message: errorText(q.error) }
        : q.data
          ? { state: 'done', ...q.data }
          : { state: 'pending' },
    );
  });
  // A search asks the server for the names that hold the text (bounded), never for the whole catalog.
  const all = useQuery({
    queryKey: ['objects', props.connectionKey, 'search', asked.toLowerCase()],
    queryFn: () =>
      apiPost('/api/db/objects/list', { connection: props.descriptor, search: asked, limit: SEARCH_LIMIT }),
    staleTime: 60_000,
    enabled: asked !== '',
    placeholderData: (previous) => previous,
  });

  const listings = new Map<string, Listing>();
  openPaths.forEach((path, i) => {
    const q = lists[i];
    listings.set(
      containerKey(path),
      q.isError
        ? { state: 'error', message: errorText(q.error) }
        : q.data
          ? { state: 'done', objects: q.data.objects }
          : { state: 'pending' },
    );
  });
  const allListing: Listing | undefined = all.isError
    ? { state: 'error', message: errorText(all.error) }
    : all.data
      ? { state: 'done', objects: all.data.objects, truncated: all.data.truncated }
      : all.isFetching
        ? { state: 'pending' }
        : undefined;
  const rows = treeRows({
    counts: counts.data?.counts ?? [],
    listings,
    openContainers,
    closedKinds,
    needle,
    all: allListing,
    openTables: new Set(openTables.keys()),
    parts,
  });

  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualRows({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    scrollRef: scroller,
    overscan: 10,
  });

  const toggle = (set: ReadonlySet<string>, key: string) => {
    const next = new Set(set);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    return next;
  };
  const diagram = async (row: Extract<TreeRow, { type: 'container' }>) => {
    const listed = await qc.fetchQuery(listOf(row.path));
    props.onDiagram(row.label, listed.objects);
  };
  const selected = props.selectedPath ? props.selectedPath.join('\u0000') : undefined;

  // Arrow keys, Home and End move between rows as in a tree widget; a row scrolled out of the virtual list
  // is brought in first and focused once it is drawn.
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => {
    if (focusIndex === null) return;
    const button = scroller.current?.querySelector<HTMLButtonElement>(
      `li[data-index="${focusIndex}"] > button.tree-node`,
    );
    if (button) {
      button.focus();
      setFocusIndex(null);
    }
  });
  const toggleRow = (row: TreeRow) => {
    if (needle) return;
    if (row.type === 'container') setOpenContainers((s) => toggle(s, row.key));
    if (row.type === 'kind') setClosedKinds((s) => toggle(s, row.key));
    if (row.type === 'object' && row.open !== undefined)
      setOpenTables((m) => {
        const next = new Map(m);
        if (next.has(row.key)) next.delete(row.key);
        else next.set(row.key, row.object.path);
        return next;
      });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const li = (e.target as HTMLElement).closest('li');
    const index = Number(li?.dataset.index);
    if (!li || !Number.isInteger(index)) return;
    const action = treeKey(rows, index, e.key);
    if (!action) return;
    e.preventDefault();
    if ('toggle' in action) toggleRow(rows[action.toggle]);
    else {
      virtual.virtualizer.scrollToIndex(action.focus);
      setFocusIndex(action.focus);
    }
  };

  return (
    <section className="panel-section tree" aria-label="Objects">
      <div className="section-head">
        <h2>Objects</h2>
        <button
          type="button"
          className="icon-btn"
          aria-label="Refresh objects"
          title="Refresh"
          onClick={() => qc.invalidateQueries({ queryKey: ['objects', props.connectionKey] })}
        >
          ↻
        </button>
      </div>
      <input
        className="tree-filter"
        aria-label="Filter objects"
        placeholder="Search objects…"
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {counts.isPending && <Spinner size="sm" label="Loading objects…" />}
      {counts.isError && (
        <p className="error-text small" role="alert">
          {errorText(counts.error)}
        </p>
      )}
      {counts.data && rows.length === 0 && <p className="muted small">No objects.</p>}
      <div className="tree-scroll" ref={scroller} data-testid="tree-scroll">
        <ul className="tree-root" style={{ height: virtual.totalSize }} onKeyDown={onKeyDown}>
          {virtual.rows.map((item) => {
            const row = rows[item.index];
            return (
              <li
                key={row.key}
                data-index={item.index}
                className={`tree-row tree-row-${row.type}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                {row.type === 'container' && (
                  <>
                    <Folder row={row} className="container" onToggle={() => toggleRow(row)} />
                    {row.hasTables && (
                      <button
                        type="button"
                        className="icon-btn er-btn"
                        aria-label={`ER diagram of ${row.label}`}
                        title="ER diagram from the foreign keys"
                        onClick={() => void diagram(row)}
                      >
                        ER
                      </button>
                    )}
                    {props.onNewTable && !needle && (
                      <button
                        type="button"
                        className="icon-btn er-btn"
                        aria-label={`Create a table in ${row.label}`}
                        title="Create a table (table designer)"
                        onClick={() => props.onNewTable?.(row.path)}
                      >
                        +
                      </button>
                    )}
                  </>
                )}
                {row.type === 'kind' && (
                  <Folder row={row} className="kind-folder" onToggle={() => toggleRow(row)} />
                )}
                {row.type === 'object' && row.open !== undefined && (
                  <button
                    type="button"
                    className="icon-btn tree-caret"
                    aria-expanded={row.open}
                    aria-label={`Parts of ${row.object.name}`}
                    title="Columns, indexes and keys"
                    onClick={() => toggleRow(row)}
                  >
                    {row.open ? '▾' : '▸'}
                  </button>
                )}
                {row.type === 'part' && (
                  <p
                    className={`tree-part tree-part-${row.part}`}
                    title={`${row.part} ${row.label}: ${row.detail}`}
                  >
                    <span className="kind" aria-hidden="true">
                      {row.part === 'column' ? 'c' : row.part === 'index' ? 'i' : 'k'}
                    </span>
                    <span className="tree-label">{row.label}</span>
                    <span className="obj-stats muted">{row.detail}</span>
                  </p>
                )}
                {row.type === 'object' && (
                  <button
                    type="button"
                    className={`tree-node leaf${selected === objectKey(row.object) ? ' selected' : ''}`}
                    title={`${row.object.kind} ${row.object.path.join('.')}${row.object.status ? ` (${row.object.status})` : ''}`}
                    onClick={() => props.onOpen(row.object)}
                  >
                    <span className={`kind kind-${row.object.kind.replace(/\W+/g, '-')}`} aria-hidden="true">
                      {kindMark(row.object.kind)}
                    </span>
                    <span className="tree-label">{row.object.name}</span>
                    <Stats object={row.object} />
                  </button>
                )}
                {row.type === 'note' && (
                  <p
                    className={`tree-note small ${row.tone === 'error' ? 'error-text' : 'muted'}`}
                    role={row.tone === 'error' ? 'alert' : undefined}
                  >
                    {row.text}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

/** A container or kind row: caret, name and count; a search keeps every folder open. */
function Folder(props: {
  row: { label: string; count: number; open: boolean };
  className: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className={`tree-node ${props.className}`}
      aria-expanded={props.row.open}
      onClick={props.onToggle}
    >
      <span className="caret" aria-hidden="true">
        {props.row.open ? '▾' : '▸'}
      </span>
      <span className="tree-label">{props.row.label}</span>
      <span className="count" aria-hidden="true">
        {props.row.count}
      </span>
    </button>
  );
}

function Stats({ object: o }: { object: DbObject }) {
  if (o.rowCount === undefined && o.sizeBytes === undefined) return null;
  return (
    <span className="obj-stats muted" title="Row count from the engine's statistics (an estimate)">
      {o.rowCount !== undefined ? `≈${compact(o.rowCount)} rows` : ''}
      {o.rowCount !== undefined && o.sizeBytes !== undefined ? ' · ' : ''}
      {o.sizeBytes !== undefined ? bytes(o.sizeBytes) : ''}
    </span>
  );
}

function compact(n: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(n);
}

function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

function kindMark(kind: string): string {
  const k = kind.toLowerCase();
  if (k.includes('view')) return 'V';
  if (k.includes('table')) return 'T';
  if (k.includes('index')) return 'I';
  if (k.includes('function') || k.includes('procedure')) return 'ƒ';
  if (k.includes('collection')) return 'C';
  if (k.includes('key')) return 'K';
  if (k.includes('sequence')) return 'S';
  if (k.includes('trigger')) return '⚡';
  return k.charAt(0).toUpperCase() || '·';
}
