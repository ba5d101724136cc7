// The table browser (`POST /api/db/table/rows`): one page of a table at a time, read on the server with a
// filter per column (text contains; `=x`, `>x`, `<x`, `null`, `!null` for the other operators), sorting by a
// header click (ascending first, then descending, then none) and the matching row count. Where the server
// says the table is editable, cells change on a double click, rows are added and deleted, pending changes
// are highlighted, and "Review changes" shows the statements the server builds (`/api/db/table/edits` with
// `preview`) before "Apply" runs them as one governed transaction. A held batch waits on its approval here
// and is applied the moment a reviewer approves; a concurrent change is reported and nothing is applied.
// Where the server says rows may be imported (`importable`), "Import" opens the import dialog.
import { Button } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { ApprovalNotice } from '../governance/ApprovalNotice';
import { ApiError, apiPost, errorText } from '../lib/api';
import type { Approval, DbObject } from '../lib/types';
import { ImportDialog } from './ImportDialog';
import { type Sort, TableRowsGrid } from './TableRowsGrid';
import { addRow, changesOf, NO_EDITS, type PendingEdits, pendingCount } from './tableEdits';
import { filterOf, useDebounced } from './tableFilters';

const PAGE = 100;

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
    queryFn: () => apiPost('/api/db/table/rows', body),
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

  // A new action (an edit, an added row, an import, paging) starts without the last one's notice: "Applied n
  // statement(s)" must not stay up over an import dialog or the next edits.
  const act = () => setOutcome(null);
  const edit = (next: PendingEdits) => {
    act();
    setPending(next);
  };
  const startEditing = (cell: { row: string; column: string } | null) => {
    if (cell) act();
    setEditing(cell);
  };

  const changes = () => changesOf(pending, rows, key, rowId);
  const send = (preview: boolean) =>
    apiPost('/api/db/table/edits', {
      connection: props.descriptor,
      path: object.path,
      changes: changes(),
      preview,
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

  return (
    <section className="card table-browser" aria-label={`Table ${object.name}`}>
      <div className="section-head">
        <h2>
          <span className="badge kind-badge">{object.kind}</span> {object.path.join('.')}
        </h2>
        <span className="muted small" data-testid="table-range">
          {from}–{to} of {total} rows
        </span>
        <Button
          size="sm"
          disabled={offset === 0}
          onClick={() => {
            act();
            setOffset(Math.max(0, offset - PAGE));
          }}
        >
          Previous
        </Button>
        <Button
          size="sm"
          disabled={offset + PAGE >= total}
          onClick={() => {
            act();
            setOffset(offset + PAGE);
          }}
        >
          Next
        </Button>
        <Button
          size="sm"
          onClick={() => {
            act();
            void page.refetch();
          }}
        >
          Reload
        </Button>
        <span className="spacer" />
        {d?.importable && (
          <Button
            size="sm"
            onClick={() => {
              act();
              setImporting(true);
            }}
          >
            Import
          </Button>
        )}
        {editable && (
          <>
            <Button size="sm" onClick={() => edit(addRow(pending))}>
              Add row
            </Button>
            <span className="badge" data-testid="pending-count">
              {count} pending
            </span>
            <Button size="sm" disabled={count === 0} onClick={discard}>
              Discard
            </Button>
            <Button
              size="sm"
              variant="primary"
              disabled={count === 0 || busy}
              onClick={() => void showReview()}
            >
              Review changes
            </Button>
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
            <Button variant="primary" disabled={busy} onClick={() => void apply()}>
              Apply
            </Button>
            <Button onClick={() => setReview(null)}>Back to editing</Button>
          </div>
        </div>
      )}
      {/* The import dialog takes the grid's place while it is open (the card keeps its height). */}
      <div className="table-scroll" hidden={importing}>
        <TableRowsGrid
          columns={columns}
          rows={rows}
          editable={editable}
          keyColumns={key}
          rowId={rowId}
          references={references}
          sort={sort}
          onSort={clickSort}
          filterText={filterText}
          onFilterText={setFilterText}
          pending={pending}
          setPending={edit}
          editing={editing}
          setEditing={startEditing}
          onFollow={props.onFollow}
        />
        {d && rows.length === 0 && <p className="muted small grid-empty">No row matches the filters.</p>}
      </div>
    </section>
  );
}
