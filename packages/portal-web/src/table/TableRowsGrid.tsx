// The table browser's grid: the header row that sorts (ascending first, then descending, then none), the row of
// filter boxes, new rows first, then the loaded page with its pending changes highlighted, cells that edit on
// a double click (not masked or deleted ones) and the link of a foreign-key cell to the row it names.
import type { DbObject, TablePage } from '../lib/types';
import { CellEditor, CellText } from './CellEditor';
import {
  type Cell,
  type PendingEdits,
  removeNewRow,
  rowKey,
  setCell,
  setNewCell,
  toggleDelete,
} from './tableEdits';

export type Sort = { column: string; direction: 'asc' | 'desc' };
type ForeignKey = NonNullable<TablePage['foreignKeys']>[number];

export function TableRowsGrid(props: {
  columns: TablePage['columns'];
  rows: Record<string, unknown>[];
  editable: boolean;
  keyColumns: readonly string[];
  rowId?: string;
  references: Map<string, ForeignKey>;
  sort: Sort | null;
  onSort: (column: string) => void;
  filterText: Record<string, string>;
  onFilterText: (f: Record<string, string>) => void;
  pending: PendingEdits;
  setPending: (p: PendingEdits) => void;
  editing: { row: string; column: string } | null;
  setEditing: (e: { row: string; column: string } | null) => void;
  onFollow?: (path: DbObject['path'], column: string, value: unknown) => void;
}) {
  const {
    columns,
    rows,
    editable,
    rowId,
    references,
    sort,
    filterText,
    pending,
    setPending,
    editing,
    setEditing,
  } = props;
  const key = props.keyColumns;
  const editor = (current: unknown, commit: (v: Cell) => void) => (
    <CellEditor initial={current} onCommit={commit} onCancel={() => setEditing(null)} />
  );
  return (
    <table className="grid compact table-grid" aria-label="Table rows">
      <thead>
        <tr>
          {editable && <th className="row-actions" aria-label="Row actions" />}
          {columns.map((c) => {
            const dir = sort?.column === c.name ? sort.direction : undefined;
            return (
              <th
                key={c.name}
                aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
              >
                <button
                  type="button"
                  className="th-sort"
                  title={`${c.type} — click to sort`}
                  onClick={() => props.onSort(c.name)}
                >
                  {c.name}
                  {c.isPrimary && <span className="badge pk">PK</span>}
                  {c.masked && (
                    <span className="badge" title="masked by policy">
                      masked
                    </span>
                  )}
                  {dir && <span className="sort-mark">{dir === 'asc' ? ' ▲' : ' ▼'}</span>}
                </button>
              </th>
            );
          })}
        </tr>
        <tr className="filter-row">
          {editable && <th />}
          {columns.map((c) => (
            <th key={c.name}>
              <input
                aria-label={`Filter ${c.name}`}
                placeholder={c.masked ? 'masked' : 'filter'}
                disabled={c.masked}
                value={filterText[c.name] ?? ''}
                onChange={(e) => props.onFilterText({ ...filterText, [c.name]: e.target.value })}
              />
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {pending.inserts.map((r) => (
          <tr key={`new-${r.id}`} className="row-new" data-testid="new-row">
            <td className="row-actions">
              <button
                type="button"
                className="icon-btn"
                aria-label="Remove new row"
                onClick={() => setPending(removeNewRow(pending, r.id))}
              >
                ✕
              </button>
            </td>
            {columns.map((c) => {
              const here = editing?.row === `new-${r.id}` && editing.column === c.name;
              const has = c.name in r.values;
              return (
                <td
                  key={c.name}
                  className={has ? 'cell-changed' : 'muted'}
                  onDoubleClick={() => !c.masked && setEditing({ row: `new-${r.id}`, column: c.name })}
                >
                  {here ? (
                    editor(r.values[c.name] ?? '', (v) => {
                      setPending(setNewCell(pending, r.id, c.name, v));
                      setEditing(null);
                    })
                  ) : has ? (
                    <CellText value={r.values[c.name]} />
                  ) : (
                    <span className="small">default</span>
                  )}
                </td>
              );
            })}
          </tr>
        ))}
        {rows.map((row) => {
          const k = rowKey(row, key, rowId);
          const deleted = pending.deletes[k] !== undefined;
          const cells = pending.updates[k] ?? {};
          return (
            <tr key={k} className={deleted ? 'row-deleted' : undefined}>
              {editable && (
                <td className="row-actions">
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={deleted ? 'Keep row' : 'Delete row'}
                    title={deleted ? 'Keep this row' : 'Delete this row'}
                    onClick={() => setPending(toggleDelete(pending, k, row))}
                  >
                    {deleted ? 'Keep' : 'Delete'}
                  </button>
                </td>
              )}
              {columns.map((c) => {
                const changed = c.name in cells;
                const here = editing?.row === k && editing.column === c.name;
                const value = changed ? cells[c.name] : row[c.name];
                return (
                  <td
                    key={c.name}
                    className={changed ? 'cell-changed' : undefined}
                    onDoubleClick={() =>
                      editable && !deleted && !c.masked && setEditing({ row: k, column: c.name })
                    }
                  >
                    {here ? (
                      editor(value, (v) => {
                        setPending(setCell(pending, k, row, c.name, v));
                        setEditing(null);
                      })
                    ) : (
                      <CellText value={value} masked={c.masked} />
                    )}
                    {!here &&
                      value !== null &&
                      value !== undefined &&
                      props.onFollow &&
                      references.has(c.name) && (
                        <button
                          type="button"
                          className="fk-link"
                          title={`Open the ${references.get(c.name)?.referencedPath.join('.')} row`}
                          aria-label={`Open referenced row ${String(value)}`}
                          onClick={() => {
                            const f = references.get(c.name);
                            if (f) props.onFollow?.(f.referencedPath, f.referencedColumn, value);
                          }}
                        >
                          ↗
                        </button>
                      )}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
