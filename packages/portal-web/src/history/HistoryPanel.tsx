// The history and saved-queries drawer of the workspace: searchable lists; a click puts the text into a new
// editor tab. History is recorded by the query panel after every run.
import { Button, Tabs } from '@app/web-kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../lib/api';
import { clearHistory, deleteSaved, listHistory, listSaved, matches } from './store';

export function HistoryPanel(props: {
  username: string;
  serverMode: boolean;
  connectionId: string;
  onOpen: (sql: string) => void;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const [tab, setTab] = useState<'history' | 'saved'>('history');
  const [search, setSearch] = useState('');
  const [onlyHere, setOnlyHere] = useState(true);
  const history = useQuery({
    queryKey: ['history', props.username, props.serverMode],
    queryFn: () => listHistory(props.username, props.serverMode),
    staleTime: 0,
  });
  const saved = useQuery({
    queryKey: ['saved-queries', props.username, props.serverMode],
    queryFn: () => listSaved(props.username, props.serverMode),
    staleTime: 0,
  });
  const h = (history.data ?? []).filter(
    (e) => (!onlyHere || e.connectionId === props.connectionId) && matches(search, e.sql, e.connectionName),
  );
  const s = (saved.data ?? []).filter(
    (q) =>
      (!onlyHere || !q.connectionId || q.connectionId === props.connectionId) &&
      matches(search, q.sql, q.name),
  );
  const problem = history.error ?? saved.error;
  return (
    <aside className="drawer card" aria-label="History and saved queries">
      <div className="section-head">
        <Tabs
          items={[
            { id: 'history', label: 'History' },
            { id: 'saved', label: 'Saved' },
          ]}
          value={tab}
          onChange={(id) => setTab(id as typeof tab)}
          label="History or saved"
        />
        <span className="spacer" />
        <span className="muted small">
          {props.serverMode ? 'kept on the server' : 'kept in this browser'}
        </span>
        <button type="button" className="icon-btn" aria-label="Close history" onClick={props.onClose}>
          ✕
        </button>
      </div>
      <div className="grid-toolbar">
        <input
          aria-label="Search history"
          placeholder="Search…"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <label className="check">
          <input type="checkbox" checked={onlyHere} onChange={(e) => setOnlyHere(e.target.checked)} /> this
          connection
        </label>
        {tab === 'history' && (
          <Button
            size="sm"
            onClick={async () => {
              await clearHistory(props.username, props.serverMode);
              await qc.invalidateQueries({ queryKey: ['history'] });
            }}
          >
            Clear
          </Button>
        )}
      </div>
      {problem && (
        <p className="error-text small" role="alert">
          {errorText(problem)}
        </p>
      )}
      <ul className="history-list">
        {tab === 'history' &&
          h.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                className="history-item"
                onClick={() => props.onOpen(e.sql)}
                title="Open in a new tab"
              >
                <span className={`dot ${e.status}`} role="img" aria-label={e.status} />
                <code>{e.sql.length > 160 ? `${e.sql.slice(0, 160)}…` : e.sql}</code>
                <span className="muted small">
                  {new Date(e.executedAt).toLocaleString()} · {e.connectionName ?? e.connectionId}
                  {e.rowCount !== null ? ` · ${e.rowCount} rows` : ''}
                  {e.durationMs !== null ? ` · ${e.durationMs} ms` : ''}
                </span>
              </button>
            </li>
          ))}
        {tab === 'saved' &&
          s.map((q) => (
            <li key={q.id}>
              <button
                type="button"
                className="history-item"
                onClick={() => props.onOpen(q.sql)}
                title="Open in a new tab"
              >
                <strong>{q.name}</strong>
                <code>{q.sql.length > 160 ? `${q.sql.slice(0, 160)}…` : q.sql}</code>
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label={`Delete saved query ${q.name}`}
                onClick={async () => {
                  await deleteSaved(props.username, props.serverMode, q.id);
                  await qc.invalidateQueries({ queryKey: ['saved-queries'] });
                }}
              >
                ✕
              </button>
            </li>
          ))}
      </ul>
      {tab === 'history' && history.data && h.length === 0 && (
        <p className="muted small">Nothing run yet{search ? ' matches' : ''}.</p>
      )}
      {tab === 'saved' && saved.data && s.length === 0 && (
        <p className="muted small">
          No saved query{search ? ' matches' : ''}. Use “Save” above the editor to keep one.
        </p>
      )}
    </aside>
  );
}
