// The results grid: TanStack Table for columns (types, resize, sort, filter on the loaded rows) and the web
// kit's useVirtualRows for rows — the DOM holds only the rows in view plus a small overscan, and rows of one
// fixed height are memoized (GridRow.tsx), so a scrolled frame draws only the rows coming in. Click selects a row (Shift extends, Ctrl/Cmd toggles), Ctrl/Cmd-C copies, a double click
// opens the value viewer (pretty JSON). NULL is a marker distinct from an empty string; masked values carry
// the masked style.
import { Button, Dialog, useVirtualRows } from '@app/web-kit';
import {
  type ColumnDef,
  type ColumnSizingState,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { type CSSProperties, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type CopyFormat, columnType, copyText, jsonOf } from './cells';
import { writeClipboard } from './clipboard';
import { type GridColumn, GridRow } from './GridRow';

type Row = Record<string, unknown>;

const ROW_HEIGHT = 26;

export interface ResultGridProps {
  fields: string[];
  rows: Row[];
  columnTypes?: Record<string, string>;
  masked: Set<string>;
  label?: string;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(typeof a === 'object' ? JSON.stringify(a) : a).localeCompare(
    String(typeof b === 'object' ? JSON.stringify(b) : b),
    undefined,
    { numeric: true },
  );
}

/** A starting width from the header and the first loaded values (capped), so short columns stay narrow. */
function initialWidth(field: string, rows: Row[]): number {
  let chars = field.length + 6;
  for (let i = 0; i < Math.min(rows.length, 100); i++) {
    const v = rows[i][field];
    const n = v === null || v === undefined ? 4 : typeof v === 'object' ? 40 : String(v).length;
    chars = Math.max(chars, Math.min(n, 48));
  }
  return Math.min(380, Math.max(70, chars * 7.6 + 20));
}

export function ResultGrid(props: ResultGridProps) {
  const { fields, rows } = props;
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filter, setFilter] = useState('');
  const [sizing, setSizing] = useState<ColumnSizingState>({});
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const [viewer, setViewer] = useState<{ field: string; value: unknown } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const columns = useMemo<ColumnDef<Row>[]>(
    () =>
      fields.map((f) => ({
        id: f,
        header: f,
        accessorFn: (r: Row) => r[f],
        sortingFn: (a, b) => compare(a.original[f], b.original[f]),
        size: initialWidth(f, rows),
        meta: { type: columnType(f, rows, props.columnTypes) },
      })),
    [fields, rows, props.columnTypes],
  );

  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, globalFilter: filter, columnSizing: sizing },
    onSortingChange: setSorting,
    onGlobalFilterChange: setFilter,
    onColumnSizingChange: setSizing,
    columnResizeMode: 'onChange',
    // TanStack's defaults judge a column by its first row: a first value of NULL left the column out of the
    // filter ("Berlin" found nothing), and a first value that is not text sorted descending on the first click.
    getColumnCanGlobalFilter: () => true,
    sortDescFirst: false,
    globalFilterFn: (row, columnId, value: string) => {
      const v = row.original[columnId];
      if (v === null || v === undefined) return 'null'.includes(value.toLowerCase());
      return (typeof v === 'object' ? JSON.stringify(v) : String(v))
        .toLowerCase()
        .includes(value.toLowerCase());
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const shown = table.getRowModel().rows;

  const virtual = useVirtualRows({
    count: shown.length,
    rowHeight: ROW_HEIGHT,
    scrollRef: scroller,
    overscan: 4,
  });

  const numWidth = Math.max(48, String(rows.length).length * 9 + 20);
  // One column list per layout (widths, masking), the same array while only the scroll position changes, so
  // the memoized rows on screen are left alone.
  const layout = table
    .getVisibleLeafColumns()
    .map((c) => ({ id: c.id, width: c.getSize(), masked: props.masked.has(c.id.toLowerCase()) }));
  const layoutKey = JSON.stringify(layout);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the layout's content
  const gridColumns = useMemo<GridColumn[]>(() => layout, [layoutKey]);
  const totalWidth = numWidth + gridColumns.reduce((s, c) => s + c.width, 0);
  // Every row (header and body) lays its cells out on this one template: widths live here, not on each cell.
  const template = {
    '--vgrid-cols': `${numWidth}px ${gridColumns.map((c) => `${c.width}px`).join(' ')}`,
    '--vgrid-width': `${totalWidth}px`,
  } as CSSProperties;

  const copy = async (format: CopyFormat) => {
    const picked = selected.size > 0 ? shown.filter((r) => selected.has(r.index)) : shown;
    try {
      await writeClipboard(
        copyText(
          fields,
          picked.map((r) => r.original),
          format,
        ),
      );
      setNote(`Copied ${picked.length} row${picked.length === 1 ? '' : 's'} as ${format.toUpperCase()}`);
    } catch (err) {
      setNote((err as Error).message);
    }
  };

  const pick = (
    index: number,
    visualPos: number,
    e: { shiftKey: boolean; ctrlKey: boolean; metaKey: boolean },
  ) => {
    if (e.shiftKey && anchor !== null) {
      const from = Math.min(anchor, visualPos);
      const to = Math.max(anchor, visualPos);
      setSelected(new Set(shown.slice(from, to + 1).map((r) => r.index)));
      return;
    }
    setAnchor(visualPos);
    if (e.ctrlKey || e.metaKey) {
      setSelected((s) => {
        const n = new Set(s);
        if (n.has(index)) n.delete(index);
        else n.add(index);
        return n;
      });
    } else setSelected(new Set([index]));
  };

  const onKey = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c' && selected.size > 0) {
      e.preventDefault();
      void copy('tsv');
    }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      setSelected(new Set(shown.map((r) => r.index)));
    }
  };

  // The rows get callbacks that never change (they call the latest `pick`), so a click handler is no reason
  // to draw a row again.
  const pickRef = useRef(pick);
  pickRef.current = pick;
  const onPick = useCallback<typeof pick>((index, position, e) => pickRef.current(index, position, e), []);
  const onView = useCallback((field: string, value: unknown) => setViewer({ field, value }), []);

  // Keys reach the focused grid through a listener (the scroller is not an input element).
  const keyHandler = useRef(onKey);
  keyHandler.current = onKey;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const listener = (e: KeyboardEvent) => keyHandler.current(e);
    el.addEventListener('keydown', listener);
    return () => el.removeEventListener('keydown', listener);
  }, []);

  return (
    <div className="rgrid">
      <div className="grid-toolbar">
        <input
          className="grid-filter"
          aria-label="Filter rows"
          placeholder="Filter loaded rows…"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        {filter && (
          <span className="muted small" data-testid="filtered-count">
            {shown.length} of {rows.length}
          </span>
        )}
        <span className="spacer" />
        {selected.size > 0 && <span className="muted small">{selected.size} selected</span>}
        <fieldset className="btn-group" aria-label="Copy rows">
          {(['tsv', 'csv', 'json'] as const).map((f) => (
            <Button key={f} size="sm" onClick={() => copy(f)}>
              Copy {f.toUpperCase()}
            </Button>
          ))}
        </fieldset>
        {note && (
          <span className="muted small" role="status">
            {note}
          </span>
        )}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the grid takes focus for Ctrl/Cmd-C and Ctrl/Cmd-A */}
      <div className="vgrid-scroll" ref={scroller} tabIndex={0} data-testid="grid-scroll">
        <table
          className="vgrid"
          aria-label={props.label ?? 'Results'}
          aria-rowcount={shown.length + 1}
          style={template}
        >
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                <th className="rownum">#</th>
                {hg.headers.map((h) => {
                  const type = (h.column.columnDef.meta as { type?: string } | undefined)?.type ?? '';
                  const dir = h.column.getIsSorted();
                  const masked = props.masked.has(h.column.id.toLowerCase());
                  return (
                    <th
                      key={h.id}
                      scope="col"
                      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
                      title={`${h.column.id}${type ? ` · ${type}` : ''}${masked ? ' · masked by policy' : ''} — click to sort`}
                    >
                      <button type="button" className="th-btn" onClick={h.column.getToggleSortingHandler()}>
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        <span
                          className="th-meta"
                          data-type={type}
                          data-sort={dir || ''}
                          data-masked={masked ? 'masked' : ''}
                        />
                      </button>
                      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drag handle; keyboard users widen with the filter's text instead */}
                      <span
                        className={`resizer${h.column.getIsResizing() ? ' resizing' : ''}`}
                        onMouseDown={h.getResizeHandler()}
                        onDoubleClick={() => h.column.resetSize()}
                      />
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody style={{ height: virtual.totalSize }}>
            {virtual.rows.map((v) => {
              const row = shown[v.index];
              return (
                <GridRow
                  key={row.id}
                  values={row.original}
                  index={row.index}
                  position={v.index}
                  start={v.start}
                  selected={selected.has(row.index)}
                  columns={gridColumns}
                  onPick={onPick}
                  onView={onView}
                />
              );
            })}
          </tbody>
        </table>
        {shown.length === 0 && rows.length > 0 && (
          <p className="muted small grid-empty">No loaded row matches the filter.</p>
        )}
        {rows.length === 0 && <p className="muted small grid-empty">The statement returned no rows.</p>}
      </div>
      {viewer && <ValueViewer field={viewer.field} value={viewer.value} onClose={() => setViewer(null)} />}
    </div>
  );
}

function ValueViewer(props: { field: string; value: unknown; onClose: () => void }) {
  const json = jsonOf(props.value);
  // Escape closes it wherever the focus is (it stays on the grid cell that was double-clicked).
  const { onClose } = props;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const text =
    json !== undefined
      ? JSON.stringify(json, null, 2)
      : props.value === null || props.value === undefined
        ? 'NULL'
        : String(props.value);
  return (
    <Dialog open title={`Value of ${props.field}`} onClose={props.onClose} closeLabel="Close viewer" wide>
      <div className="section-head">
        <span className="badge">{json !== undefined ? 'JSON' : 'text'}</span>
        <span className="spacer" />
        <Button size="sm" onClick={() => void writeClipboard(text)}>
          Copy
        </Button>
      </div>
      <pre className="value-viewer" data-testid="value-viewer">
        {text}
      </pre>
    </Dialog>
  );
}
