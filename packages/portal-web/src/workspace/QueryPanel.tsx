// The SQL editor and what runs from it: Run (Ctrl/Cmd+Enter; the selection when there is one), Explain
// (estimate or analyze, offered only when the engine has plans), Cancel, an optional ticket, paging with
// `options.offset`, and exports (csv, json, sql-insert) through `POST /api/db/export`.
import { type KeyboardEvent, useRef, useState } from 'react';
import { ApiError, api, errorText } from '../lib/api';
import { downloadExport } from '../lib/download';
import type { Approval, Connection, QueryResult } from '../lib/types';
import { useEngines } from './ConnectionForm';
import { type Outcome, ResultsView } from './ResultsView';

/** Rows asked for per page; sent explicitly so the answer tells whether the server paged the statement. */
const PAGE = 500;

function toOutcome(err: unknown): Outcome {
  if (err instanceof ApiError) {
    if (err.code === 'APPROVAL_REQUIRED' && err.body.approval && typeof err.body.approval === 'object') {
      return {
        kind: 'approval',
        message: err.message,
        approval: err.body.approval as Approval,
        guardrail: typeof err.body.guardrail === 'string' ? err.body.guardrail : undefined,
      };
    }
    return { kind: 'error', status: err.status, code: err.code, message: err.message };
  }
  return { kind: 'error', status: 0, message: errorText(err) };
}

/** The table a statement reads from, for the export's file and INSERT target name. */
export function exportName(sql: string): string {
  const m = /\bfrom\s+((?:[`"[]?[\w$]+[`"\]]?\.)*[`"[]?([\w$]+)[`"\]]?)/i.exec(sql);
  return m ? m[2] : 'export';
}

function randomId(): string {
  const b = new Uint8Array(8);
  window.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function QueryPanel(props: {
  connection: Connection;
  descriptor: Record<string, unknown>;
  sql: string;
  onSqlChange: (sql: string) => void;
}) {
  const { connection } = props;
  const engines = useEngines();
  const caps = engines.data?.find((e) => e.engine === connection.type)?.capabilities;
  const [ticket, setTicket] = useState('');
  const [explainMode, setExplainMode] = useState<'estimate' | 'analyze'>('estimate');
  const [running, setRunning] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportNote, setExportNote] = useState<{ ok: boolean; text: string } | null>(null);
  const editor = useRef<HTMLTextAreaElement>(null);

  const textToRun = (): string => {
    const el = editor.current;
    if (el && el.selectionEnd > el.selectionStart) {
      const selected = props.sql.slice(el.selectionStart, el.selectionEnd);
      if (selected.trim()) return selected;
    }
    return props.sql;
  };

  const ticketField = () => (ticket.trim() ? { ticket: ticket.trim() } : {});

  const run = async (explain?: 'estimate' | 'analyze') => {
    const sql = textToRun();
    if (!sql.trim() || running) return;
    const queryId = randomId();
    setRunning(queryId);
    setExportNote(null);
    try {
      const result = await api<QueryResult>('/api/db/query', {
        body: {
          connection: props.descriptor,
          sql,
          queryId,
          ...ticketField(),
          ...(explain ? { explain: { mode: explain } } : { options: { limit: PAGE } }),
        },
      });
      setOutcome({ kind: 'result', sql, explain, result, rows: result.rows });
    } catch (err) {
      setOutcome(toOutcome(err));
    } finally {
      setRunning(null);
    }
  };

  const loadMore = async () => {
    if (outcome?.kind !== 'result') return;
    const prev = outcome;
    setLoadingMore(true);
    try {
      const result = await api<QueryResult>('/api/db/query', {
        body: {
          connection: props.descriptor,
          sql: prev.sql,
          ...ticketField(),
          options: {
            limit: PAGE,
            offset: prev.result.pagination.offset + prev.result.pagination.totalReturned,
          },
        },
      });
      setOutcome({ ...prev, result, rows: [...prev.rows, ...result.rows] });
    } catch (err) {
      setOutcome(toOutcome(err));
    } finally {
      setLoadingMore(false);
    }
  };

  const cancel = async () => {
    if (!running) return;
    try {
      await api('/api/db/cancel', { body: { queryId: running } });
    } catch {
      // The statement may have finished meanwhile; its own answer arrives anyway.
    }
  };

  const exportAs = async (format: 'csv' | 'json' | 'sql-insert') => {
    const sql = textToRun();
    if (!sql.trim()) return;
    setExporting(format);
    setExportNote(null);
    try {
      const target = connection.managed ? { connectionId: connection.id } : { connection: props.descriptor };
      const r = await downloadExport({ ...target, sql, format, tabName: exportName(sql), ...ticketField() });
      setExportNote({
        ok: true,
        text: `Downloaded ${r.fileName}${r.rows !== undefined ? ` (${r.rows} rows)` : ''}`,
      });
    } catch (err) {
      setExportNote({ ok: false, text: `Export failed: ${errorText(err)}` });
    } finally {
      setExporting(null);
    }
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void run();
    }
  };

  // Paging is offered when the server paged the statement (it appended a limit of the size asked for).
  const pageable = outcome?.kind === 'result' && !outcome.explain && outcome.result.pagination.limit === PAGE;
  const canExport = connection.canExport !== false;
  const explainModes = caps?.supportsExplain ? caps.explainModes : [];

  return (
    <section className="query-panel" aria-label="Query">
      <div className="editor-wrap">
        <textarea
          ref={editor}
          className="sql-editor"
          aria-label="SQL editor"
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          placeholder={`Write SQL for ${connection.name} — Ctrl+Enter (⌘+Enter) runs it`}
          value={props.sql}
          onChange={(e) => props.onSqlChange(e.target.value)}
          onKeyDown={onKey}
        />
      </div>
      <div className="toolbar">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => run()}
          disabled={!!running || !props.sql.trim()}
        >
          {running ? 'Running…' : 'Run'}
        </button>
        {running && (
          <button type="button" className="btn" onClick={cancel}>
            Cancel
          </button>
        )}
        {explainModes.length > 0 && (
          <span className="btn-group">
            <select
              aria-label="Explain mode"
              value={explainMode}
              onChange={(e) => setExplainMode(e.target.value as 'estimate' | 'analyze')}
            >
              {explainModes.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn"
              onClick={() => run(explainModes.includes(explainMode) ? explainMode : explainModes[0])}
              disabled={!!running || !props.sql.trim()}
            >
              Explain
            </button>
          </span>
        )}
        <label className="ticket">
          <span>Ticket</span>
          <input
            aria-label="Ticket"
            placeholder={connection.requireTicket ? 'required for writes' : 'optional'}
            maxLength={120}
            value={ticket}
            onChange={(e) => setTicket(e.target.value)}
          />
        </label>
        <span className="spacer" />
        <fieldset className="btn-group" aria-label="Export">
          {(
            [
              ['csv', 'Export CSV'],
              ['json', 'Export JSON'],
              ['sql-insert', 'Export SQL'],
            ] as const
          ).map(([f, label]) => (
            <button
              key={f}
              type="button"
              className="btn btn-small"
              disabled={!canExport || exporting !== null || !props.sql.trim()}
              title={
                canExport ? `Download the statement's rows as ${f}` : 'Export is not allowed for you here'
              }
              onClick={() => exportAs(f)}
            >
              {exporting === f ? 'Exporting…' : label}
            </button>
          ))}
        </fieldset>
      </div>
      {exportNote && (
        <p className={exportNote.ok ? 'ok-text small' : 'error-text small'} role="status">
          {exportNote.text}
        </p>
      )}
      <ResultsView
        outcome={
          outcome?.kind === 'result' && !pageable
            ? {
                ...outcome,
                result: { ...outcome.result, pagination: { ...outcome.result.pagination, hasMore: false } },
              }
            : outcome
        }
        loadingMore={loadingMore}
        onLoadMore={loadMore}
      />
      {outcome?.kind === 'result' && !pageable && outcome.result.pagination.hasMore && (
        <p className="muted small">
          More rows exist; the result stops at {outcome.result.pagination.limit} rows.
        </p>
      )}
    </section>
  );
}
