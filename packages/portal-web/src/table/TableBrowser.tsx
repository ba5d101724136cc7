// The table browser (`POST /api/db/table/rows`): one page of a table at a time, read on the server with a
// filter per column (text contains; `=x`, `>x`, `<x`, `null`, `!null` for the other operators), sorting by a
// header click (ascending first, then descending, then none) and the matching row count. Where the server
// says the table is editable, cells change on a double click, rows are added and deleted, pending changes
// are highlighted, and "Review changes" shows the statements the server builds (`/api/db/table/edits` with
// `preview`) before "Apply" runs them as one governed transaction. A held batch waits on its approval here
// and is applied the moment a reviewer approves; a concurrent change is reported and nothing is applied.
// Where the server says rows may be imported (`importable`), "Import" opens the import dialog.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ApprovalNotice } from '../governance/ApprovalNotice';
import { ApiError, api, errorText } from '../lib/api';
import type { Approval, DbObject, TableEditAnswer, TablePage } from '../lib/types';
import { cellView } from '../results/cells';
import { ImportDialog } from './ImportDialog';
import {
  addRow,
  type Cell,
  changesOf,
  NO_EDITS,
  type PendingEdits,
  pendingCount,
  removeNewRow,
  rowKey,
  setCell,
  setNewCell,
  toggleDelete,
} from './tableEdits';

const PAGE = 100;

type Sort = { column: string; direction: 'asc' | 'desc' };

/** A filter box's text as the server's filter: `=x` equals, `>x`/`<x` compare, `null`/`!null`, else contains. */
export function filterOf(column: string, text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (t.toLowerCase() === 'null') return { column, op: 'is_null' };
  if (t.toLowerCase() === '!null') return { column, op: 'not_null' };
  const m = /^(>=|<=|!=|=|>|<)(.*)$/.exec(t);
  if (m) {
    const op = { '=': 'equals', '!=': 'not_equals', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte' }[m[1]];
    return { column, op, value: m[2].trim() };
  }
  return { column, op: 'contains', value: t };
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function TableBrowser(props: {
  connectionKey: string;
  descriptor: Record<string, unknown>;
  object: DbObject;
  approvalsRequired?: number;
  /** Filter boxes filled when the table opens (a foreign key followed here: `=value` on the key column). */
  initialFilters?: Record<string, string>;
  /** Opens the row a foreign-key cell names (the referenced table, filtered to that value). */
  onFollow?: (path: string[], column: string, value: unknown) => void;
  onClose: () => void;
}) {
  const { object } = props;
  const qc = useQueryClient();
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<Sort | null>(null);
  const [filterText, setFilterText] = useState<Record<string, string>>(props.initialFilters ?? {});
  const filters = useDebounced(filterText, 300);
  const [pending, setPending] = useState<PendingEdits>(NO_EDITS);
  const [editing, setEditing] = useState<{ row: string; column: string } | null>(null);
  const [review, setReview] = useState<string[] | null>(null);
  const [held, setHeld] = useState<{ approval: Approval; message: string; guardrail?: string } | null>(null);
  const [outcome, setOutcome] = useState<{ kind: 'ok' | 'error'; text: string; statement?: string } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const [importing, setImporting] = useState(false);

  const body = useMemo(
    () => ({
      connection: props.descriptor,
      path: object.path,
      offset,
      limit: PAGE,
      filters: Object.entries(filters)
        .map(([c, t]) => filterOf(c, t))
        .filter((f) => f !== undefined),
      sorts: sort ? [sort] : [],
    }),
    [props.descriptor, object.path, offset, filters, sort],
  );
  const page = useQuery({
    queryKey: ['table-rows', props.connectionKey, object.path, body],
    queryFn: () => api<TablePage>('/api/db/table/rows', { body }),
    placeholderData: (prev) => prev,
    staleTime: 0,
  });
  // A changed filter starts at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a filter change only
  useEffect(() => setOffset(0), [filters]);

  const d = page.data;
  const rows = (d?.rows ?? []) as Record<string, unknown>[];
  const editable = d?.editable === true;
  const key = d?.key ?? [];
  const rowId = d?.rowId;
  const columns = d?.columns ?? [];
  const references = new Map((d?.foreignKeys ?? []).map((f) => [f.columnName, f]));
  const count = pendingCount(pending);

  const changes = () => changesOf(pending, rows, key, rowId);
  const send = (preview: boolean) =>
    api<TableEditAnswer>('/api/db/table/edits', {
      body: { connection: props.descriptor, path: object.path, changes: changes(), preview },
    });

  const showReview = async () => {
    setOutcome(null);
    setBusy(true);
    try {
      setReview((await send(true)).statements);
    } catch (err) {
      setOutcome({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const apply = async () => {
    setBusy(true);
    try {
      const r = await send(false);
      setOutcome({ kind: 'ok', text: `Applied ${r.statements.length} statement(s).` });
      setPending(NO_EDITS);
      setReview(null);
      setHeld(null);
      await qc.invalidateQueries({ queryKey: ['table-rows', props.connectionKey, object.path] });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'APPROVAL_REQUIRED') {
        const b = err.body as { approval?: Approval; guardrail?: string } | undefined;
        if (b?.approval) setHeld({ approval: b.approval, message: err.message, guardrail: b.guardrail });
        setReview(null);
      } else {
        const conflict = (err as ApiError).body as { conflict?: { statement?: string } } | undefined;
        setOutcome({ kind: 'error', text: errorText(err), statement: conflict?.conflict?.statement });
      }
    } finally {
      setBusy(false);
    }
  };

  const discard = () => {
    setPending(NO_EDITS);
    setReview(null);
    setHeld(null);
    setOutcome(null);
    void page.refetch();
  };

  const clickSort = (column: string) => {
    setSort((s) =>
      !s || s.column !== column
        ? { column, direction: 'asc' }
        : s.direction === 'asc'
          ? { column, direction: 'desc' }
          : null,
    );
    setOffset(0);
  };

  const total = d?.total ?? 0;
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + rows.length, total);

  const editor = (current: unknown, commit: (v: Cell) => void) => (
    <CellEditor initial={current} onCommit={commit} onCancel={() => setEditing(null)} />
  );

  return (
    <section className="card table-browser" aria-label={`Table ${object.name}`}>
      <div className="section-head">
        <h2>
          <span className="badge kind-badge">{object.kind}</span> {object.path.join('.')}
        </h2>
        <span className="muted small" data-testid="table-range">
          {from}–{to} of {total} rows
        </span>
        <button
          type="button"
          className="btn btn-small"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE))}
        >
          Previous
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={offset + PAGE >= total}
          onClick={() => setOffset(offset + PAGE)}
        >
          Next
        </button>
        <button type="button" className="btn btn-small" onClick={() => void page.refetch()}>
          Reload
        </button>
        <span className="spacer" />
        {d?.importable && (
          <button type="button" className="btn btn-small" onClick={() => setImporting(true)}>
            Import
          </button>
        )}
        {editable && (
          <>
            <button type="button" className="btn btn-small" onClick={() => setPending(addRow(pending))}>
              Add row
            </button>
            <span className="badge" data-testid="pending-count">
              {count} pending
            </span>
            <button type="button" className="btn btn-small" disabled={count === 0} onClick={discard}>
              Discard
            </button>
            <button
              type="button"
              className="btn btn-small btn-primary"
              disabled={count === 0 || busy}
              onClick={() => void showReview()}
            >
              Review changes
            </button>
          </>
        )}
        <button type="button" className="icon-btn" aria-label="Close table" onClick={props.onClose}>
          ✕
        </button>
      </div>
      {d && !editable && d.readOnlyReason && <p className="muted small">Read only: {d.readOnlyReason}.</p>}
      {page.isError && (
        <p className="error-text" role="alert">
          {errorText(page.error)}
        </p>
      )}
      {outcome && (
        <div
          className={`alert ${outcome.kind === 'ok' ? 'alert-success' : 'alert-error'}`}
          role={outcome.kind === 'ok' ? 'status' : 'alert'}
        >
          {outcome.text}
          {outcome.statement && <pre className="mono small">{outcome.statement}</pre>}
        </div>
      )}
      {held && (
        <ApprovalNotice
          approval={held.approval}
          message={held.message}
          guardrail={held.guardrail}
          approvalsRequired={props.approvalsRequired}
          onApproved={() => void apply()}
        />
      )}
      {importing && (
        <ImportDialog
          descriptor={props.descriptor}
          path={object.path}
          approvalsRequired={props.approvalsRequired}
          onImported={() =>
            void qc.invalidateQueries({ queryKey: ['table-rows', props.connectionKey, object.path] })
          }
          onClose={() => setImporting(false)}
        />
      )}
      {review && (
        <div className="review" role="dialog" aria-label="Review changes">
          <h3>The statements to run, as one transaction</h3>
          <pre className="definition" data-testid="review-statements">
            {review.map((s) => `${s};`).join('\n')}
          </pre>
          <div className="toolbar">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void apply()}>
              Apply
            </button>
            <button type="button" className="btn" onClick={() => setReview(null)}>
              Back to editing
            </button>
          </div>
        </div>
      )}
      {/* The import dialog takes the grid's place while it is open (the card keeps its height). */}
      <div className="table-scroll" hidden={importing}>
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
                      onClick={() => clickSort(c.name)}
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
                    onChange={(e) => setFilterText({ ...filterText, [c.name]: e.target.value })}
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
        {d && rows.length === 0 && <p className="muted small grid-empty">No row matches the filters.</p>}
      </div>
    </section>
  );
}

function CellText(props: { value: unknown; masked?: boolean }) {
  const v = cellView(props.value, props.masked);
  return <span className={`cell-${v.cls}`}>{v.text}</span>;
}

/** An inline editor: Enter keeps the text, Escape cancels, "NULL" sets NULL. */
function CellEditor(props: { initial: unknown; onCommit: (v: Cell) => void; onCancel: () => void }) {
  const [text, setText] = useState(
    props.initial === null || props.initial === undefined
      ? ''
      : typeof props.initial === 'object'
        ? JSON.stringify(props.initial)
        : String(props.initial),
  );
  return (
    <span className="cell-editor">
      <input
        // biome-ignore lint/a11y/noAutofocus: the editor opens where the person double-clicked
        autoFocus
        aria-label="Cell value"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') props.onCommit(text);
          if (e.key === 'Escape') props.onCancel();
        }}
      />
      <button type="button" className="btn btn-small" onClick={() => props.onCommit(text)}>
        OK
      </button>
      <button type="button" className="btn btn-small" title="Set NULL" onClick={() => props.onCommit(null)}>
        NULL
      </button>
    </span>
  );
}
