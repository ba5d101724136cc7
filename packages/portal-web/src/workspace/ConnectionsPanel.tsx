// Left panel, top half: the managed datasources (`GET /api/connections/managed`, read-only here) and the
// person's own connections (browser or server storage, see lib/connections.ts), with add, edit and delete.
import { Button, Dialog, Spinner } from '@app/web-kit';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../lib/api';
import {
  deleteOwnConnection,
  ownConnectionsKey,
  requestDescriptor,
  saveOwnConnection,
  useManagedConnections,
  useOwnConnections,
  useStorageConfig,
} from '../lib/connections';
import type { Connection } from '../lib/types';
import { ConnectionForm } from './ConnectionForm';

export function EnvBadge({ env }: { env?: string }) {
  if (!env) return null;
  return <span className={`badge env-${env}`}>{env}</span>;
}

function ConnectionItem(props: {
  c: Connection;
  selected: boolean;
  onSelect: () => void;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const { c } = props;
  const unavailable = c.available === false;
  const [confirm, setConfirm] = useState(false);
  return (
    <li className={`conn-item${props.selected ? ' selected' : ''}`}>
      <button
        type="button"
        className="conn-select"
        aria-pressed={props.selected}
        disabled={unavailable}
        title={unavailable ? (c.unavailableReason ?? 'Unavailable') : `${c.type} · ${c.id}`}
        onClick={props.onSelect}
      >
        <span className="conn-name">{c.name}</span>
        <span className="conn-meta">
          <span className="badge engine">{c.type}</span>
          <EnvBadge env={c.environment} />
          {c.readOnly && <span className="badge ro">read-only</span>}
          {c.policy?.writeApproval && <span className="badge approval">approval</span>}
          {unavailable && <span className="badge bad">unavailable</span>}
        </span>
      </button>
      {props.onEdit && (
        <span className="conn-tools">
          <button type="button" className="icon-btn" aria-label={`Edit ${c.name}`} onClick={props.onEdit}>
            ✎
          </button>
          {confirm ? (
            <button
              type="button"
              className="icon-btn danger"
              aria-label={`Confirm delete ${c.name}`}
              onClick={props.onDelete}
            >
              Delete?
            </button>
          ) : (
            <button
              type="button"
              className="icon-btn"
              aria-label={`Delete ${c.name}`}
              onClick={() => setConfirm(true)}
            >
              ✕
            </button>
          )}
        </span>
      )}
    </li>
  );
}

export function ConnectionsPanel(props: {
  username: string;
  selectedId: string | undefined;
  onSelect: (c: Connection) => void;
  /** Called when the selected connection was deleted. */
  onRemoved: (id: string) => void;
}) {
  const qc = useQueryClient();
  const storage = useStorageConfig();
  const serverMode = storage.data?.serverMode;
  const managed = useManagedConnections();
  const own = useOwnConnections(props.username, serverMode);
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const refreshOwn = () =>
    qc.invalidateQueries({ queryKey: ownConnectionsKey(props.username, serverMode ?? false) });

  const save = async (c: Connection) => {
    await saveOwnConnection(props.username, serverMode ?? false, c);
    await refreshOwn();
    setEditing(null);
    props.onSelect(c);
  };

  const remove = async (c: Connection) => {
    try {
      await deleteOwnConnection(props.username, serverMode ?? false, c.id);
      await refreshOwn();
      props.onRemoved(c.id);
    } catch (err) {
      setProblem(errorText(err));
    }
  };

  return (
    <section className="panel-section" aria-label="Connections">
      <div className="section-head">
        <h2>Connections</h2>
        <Button size="sm" onClick={() => setEditing('new')} disabled={storage.isPending}>
          + New
        </Button>
      </div>
      <Dialog
        open={editing !== null}
        title={editing === 'new' ? 'New connection' : `Edit ${editing?.name ?? ''}`}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <ConnectionForm
            key={editing === 'new' ? 'new' : editing.id}
            initial={editing === 'new' ? undefined : editing}
            onSave={save}
            onCancel={() => setEditing(null)}
            buildDescriptor={(c) => requestDescriptor(c, props.username)}
          />
        )}
      </Dialog>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <h3 className="group-title">Managed</h3>
      {managed.isPending && <Spinner size="sm" />}
      {managed.isError && <p className="error-text small">{errorText(managed.error)}</p>}
      {managed.data?.length === 0 && <p className="muted small">No managed datasources.</p>}
      <ul className="conn-list">
        {managed.data?.map((c) => (
          <ConnectionItem
            key={c.id}
            c={c}
            selected={props.selectedId === c.id}
            onSelect={() => props.onSelect(c)}
          />
        ))}
      </ul>
      <h3 className="group-title">
        My connections{' '}
        <span className="muted small">
          {serverMode ? '(saved on the server)' : '(saved in this browser)'}
        </span>
      </h3>
      {own.isError && <p className="error-text small">{errorText(own.error)}</p>}
      {own.data?.length === 0 && <p className="muted small">None yet.</p>}
      <ul className="conn-list">
        {own.data?.map((c) => (
          <ConnectionItem
            key={c.id}
            c={c}
            selected={props.selectedId === c.id}
            onSelect={() => props.onSelect(c)}
            onEdit={() => setEditing(c)}
            onDelete={() => remove(c)}
          />
        ))}
      </ul>
    </section>
  );
}
