// The query area of a connection: editor tabs (kept per connection across reloads), the Monaco editor, the
// toolbar (Run, Run script, Explain, Cancel, Format, Save, History, Ticket, Export), the params panel, and
// the results. One statement runs through /api/db/query; a text with several statements runs as a script
// through /api/db/multi-query with per-statement results. Every run is recorded in the history.
import { Button } from '@app/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { AiTools } from '../ai/AiTools';
import { type RunRequest, SqlEditor, type SqlEditorHandle } from '../editor/SqlEditor';
import { splitStatements } from '../editor/statements';
import { addTab, closeTab, loadTabs, saveTabs, type TabsState, updateTab } from '../editor/tabs';
import { HistoryPanel } from '../history/HistoryPanel';
import { addHistory, saveQuery } from '../history/store';
import { api, errorText } from '../lib/api';
import { downloadExport } from '../lib/download';
import { isSql, useEngines } from '../lib/engines';
import type { Connection } from '../lib/types';
import { maskedColumnNames } from '../results/cells';
import { type Outcome, toOutcome } from '../results/outcome';
import { ResultsView } from '../results/ResultsView';
import { refreshAfterDdl } from './ddlRefresh';
import { EditorTabs } from './EditorTabs';
import { ParamsPanel } from './ParamsPanel';
import { type ExportFormat, QueryToolbar } from './QueryToolbar';
import { useQueryCompletion } from './queryCompletion';
import { PAGE, randomId, runExplain, runQuery, runScript } from './queryRunner';

/** The table a statement reads from, for the export's file and INSERT target name. */
export function exportName(sql: string): string {
  const m = /\bfrom\s+((?:[`"[]?[\w$]+[`"\]]?\.)*[`"[]?([\w$]+)[`"\]]?)/i.exec(sql);
  return m ? m[2] : 'export';
}

export function QueryPanel(props: {
  connection: Connection;
  connectionKey: string;
  descriptor: Record<string, unknown>;
  username: string;
  serverMode: boolean;
  theme: 'light' | 'dark';
  /** Text another panel asks to open (Query this, ER diagram); `nonce` makes each request distinct. */
  request?: { sql: string; nonce: number };
}) {
  const { connection } = props;
  const qc = useQueryClient();
  const engines = useEngines();
  const caps = engines.data?.find((e) => e.engine === connection.type)?.capabilities;
  const facts = engines.data?.find((e) => e.engine === connection.type)?.editor;
  const [tabs, setTabs] = useState<TabsState>(() => loadTabs(props.username, connection.id));
  const tab = tabs.tabs.find((t) => t.id === tabs.activeId) ?? tabs.tabs[0];
  const [ticket, setTicket] = useState('');
  const [explainMode, setExplainMode] = useState<'estimate' | 'analyze'>('estimate');
  const [running, setRunning] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [outcomes, setOutcomes] = useState<Record<string, Outcome | null>>({});
  const [exporting, setExporting] = useState<string | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const [showParams, setShowParams] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [saveName, setSaveName] = useState<string | null>(null);
  const editor = useRef<SqlEditorHandle>(null);
  const outcome = outcomes[tab.id] ?? null;
  const setOutcome = (o: Outcome | null, id = tab.id) => setOutcomes((m) => ({ ...m, [id]: o }));

  useEffect(() => saveTabs(props.username, connection.id, tabs), [tabs, props.username, connection.id]);
  useEffect(() => {
    if (props.request) setTabs((s) => addTab(s, props.request!.sql));
  }, [props.request]);

  const completion = useQueryCompletion({
    qc,
    connectionKey: props.connectionKey,
    descriptor: props.descriptor,
  });

  const base = () => ({ connection: props.descriptor, params: tab.params, ticket });
  const record = (
    sql: string,
    status: 'success' | 'failure',
    rowCount: number | null,
    durationMs: number | null,
    error: string | null,
  ) =>
    addHistory(props.username, props.serverMode, {
      connectionId: connection.id,
      connectionName: connection.name,
      sql,
      status,
      rowCount,
      durationMs,
      error,
    })
      .then(() => qc.invalidateQueries({ queryKey: ['history'] }))
      .catch(() => undefined);

  const run = async (req: RunRequest | undefined) => {
    if (!req?.text.trim() || running) return;
    const tabId = tab.id;
    const queryId = randomId();
    setRunning(queryId);
    setNote(null);
    const spans = facts && isSql(facts) ? splitStatements(req.text, facts) : [];
    try {
      if (spans.length > 1) {
        const r = await runScript(base(), req.text);
        setOutcome({ kind: 'script', sql: req.text, texts: spans.map((s) => s.text), ...r }, tabId);
        const failed = r.statements.find((s) => s.status === 'failed');
        void record(
          req.text,
          failed ? 'failure' : 'success',
          null,
          r.statements.reduce((a, s) => a + s.durationMs, 0),
          failed?.error ?? null,
        );
      } else {
        const sql = spans[0]?.text ?? req.text;
        const result = await runQuery(base(), sql, queryId);
        setOutcome({ kind: 'result', sql, result, rows: result.rows }, tabId);
        void record(
          sql,
          'success',
          result.fields.length ? result.rows.length : result.rowCount,
          result.executionTime,
          null,
        );
      }
    } catch (err) {
      const o = toOutcome(err, spans.length === 1 ? spans[0].text : req.text);
      setOutcome(o, tabId);
      void record(req.text, 'failure', null, null, o.kind === 'error' ? o.message : 'held for approval');
    } finally {
      setRunning(null);
      // A script may have changed the schema before a later statement failed: refresh either way.
      refreshAfterDdl(qc, props.connectionKey, req.text);
    }
  };

  const explain = async () => {
    const req = editor.current?.current();
    if (!req || running) return;
    const modes = caps?.explainModes ?? [];
    const mode = modes.includes(explainMode) ? explainMode : modes[0];
    const tabId = tab.id;
    setRunning(randomId());
    try {
      const result = await runExplain(base(), req.text, mode);
      setOutcome({ kind: 'plan', sql: req.text, mode, result }, tabId);
    } catch (err) {
      setOutcome(toOutcome(err, req.text), tabId);
    } finally {
      setRunning(null);
    }
  };

  const loadMore = async (all: boolean) => {
    if (outcome?.kind !== 'result') return;
    const prev = outcome;
    const tabId = tab.id;
    setLoadingMore(true);
    try {
      const p = prev.result.pagination;
      const result = await runQuery(base(), prev.sql, randomId(), {
        offset: p.offset + p.totalReturned,
        all,
      });
      setOutcome({ ...prev, result, rows: [...prev.rows, ...result.rows] }, tabId);
    } catch (err) {
      setOutcome(toOutcome(err, prev.sql), tabId);
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

  const exportAs = async (format: ExportFormat) => {
    const sql = editor.current?.current()?.text ?? tab.sql;
    if (!sql.trim()) return;
    setExporting(format);
    setNote(null);
    try {
      const target = connection.managed ? { connectionId: connection.id } : { connection: props.descriptor };
      const ticketField = ticket.trim() ? { ticket: ticket.trim() } : {};
      const r = await downloadExport({ ...target, sql, format, tabName: exportName(sql), ...ticketField });
      setNote({
        ok: true,
        text: `Downloaded ${r.fileName}${r.rows !== undefined ? ` (${r.rows} rows)` : ''}`,
      });
    } catch (err) {
      setNote({ ok: false, text: `Export failed: ${errorText(err)}` });
    } finally {
      setExporting(null);
    }
  };

  const doSave = async () => {
    if (!saveName?.trim()) return;
    try {
      await saveQuery(props.username, props.serverMode, {
        name: saveName.trim(),
        sql: tab.sql,
        connectionId: connection.id,
      });
      setNote({ ok: true, text: `Saved “${saveName.trim()}”` });
      setSaveName(null);
      await qc.invalidateQueries({ queryKey: ['saved-queries'] });
    } catch (err) {
      setNote({ ok: false, text: `Could not save: ${errorText(err)}` });
    }
  };

  const pageable = outcome?.kind === 'result' && outcome.result.pagination.limit === PAGE;
  const canExport = connection.canExport !== false;
  const explainModes = caps?.supportsExplain ? caps.explainModes : [];
  const masked = useMemo(() => maskedColumnNames(connection.policy), [connection.policy]);
  const empty = !tab.sql.trim();
  const ticketRequired = !!(connection.requireTicket || connection.policy?.requireTicket);

  return (
    <section className="query-panel" aria-label="Query">
      <EditorTabs
        state={tabs}
        onSelect={(id) => setTabs((s) => ({ ...s, activeId: id }))}
        onAdd={() => setTabs((s) => addTab(s))}
        onClose={(id) => setTabs((s) => closeTab(s, id))}
      />
      <div className="editor-wrap">
        <SqlEditor
          key={tab.id}
          ref={editor}
          value={tab.sql}
          onChange={(sql) => setTabs((s) => updateTab(s, tab.id, { sql }))}
          engine={connection.type}
          completion={completion}
          onRun={(req) => void run(req)}
          placeholder={`Write ${isSql(facts) ? 'SQL' : 'a request'} for ${connection.name} — Ctrl/⌘-Enter runs the statement under the cursor`}
        />
      </div>
      <QueryToolbar
        running={!!running}
        empty={empty}
        sqlEngine={isSql(facts)}
        caps={caps}
        explainModes={explainModes}
        explainMode={explainMode}
        onExplainMode={setExplainMode}
        paramCount={tab.params.length}
        showParams={showParams}
        showHistory={showHistory}
        ticket={ticket}
        onTicket={setTicket}
        ticketRequired={ticketRequired}
        canExport={canExport}
        exporting={exporting}
        onRun={() => run(editor.current?.current())}
        onRunScript={() => run(editor.current?.script())}
        onCancel={cancel}
        onExplain={explain}
        onFormat={() => editor.current?.format()}
        onToggleParams={() => setShowParams((v) => !v)}
        onSave={() => setSaveName(saveName === null ? tab.title : null)}
        onToggleHistory={() => setShowHistory((v) => !v)}
        onExport={exportAs}
      />
      {saveName !== null && (
        <form
          className="inline-form"
          aria-label="Save query"
          onSubmit={(e) => {
            e.preventDefault();
            void doSave();
          }}
        >
          <input
            aria-label="Query name"
            value={saveName}
            maxLength={200}
            onChange={(e) => setSaveName(e.target.value)}
          />
          <Button type="submit" size="sm" variant="primary" disabled={!saveName.trim()}>
            Save query
          </Button>
          <Button size="sm" onClick={() => setSaveName(null)}>
            Cancel
          </Button>
        </form>
      )}
      {showParams && (
        <ParamsPanel
          params={tab.params}
          style={String(caps?.parameterStyle ?? '?')}
          onChange={(params) => setTabs((s) => updateTab(s, tab.id, { params }))}
        />
      )}
      {note && (
        <p className={note.ok ? 'ok-text small' : 'error-text small'} role="status">
          {note.text}
        </p>
      )}
      {showHistory && (
        <HistoryPanel
          username={props.username}
          serverMode={props.serverMode}
          connectionId={connection.id}
          onOpen={(sql) => setTabs((s) => addTab(s, sql))}
          onClose={() => setShowHistory(false)}
        />
      )}
      <ResultsView
        outcome={outcome}
        masked={masked}
        approvalsRequired={connection.approvalsRequired}
        pageable={pageable}
        loadingMore={loadingMore}
        onLoadMore={loadMore}
        onRerun={(sql) => void run({ kind: 'statement', text: sql })}
      />
      {/* The AI tools (explain/safety of the tab's text, the agent panel) work on the active tab. */}
      <AiTools
        connection={connection}
        sql={tab.sql}
        onUseSql={(sql) => setTabs((s) => updateTab(s, tab.id, { sql }))}
      />
    </section>
  );
}
