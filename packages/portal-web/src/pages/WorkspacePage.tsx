// The workspace: connections and the object tree on the left; the open object's description, the SQL
// editor and the result on the right. The chosen connection and each connection's editor text are kept for
// the tab's lifetime (sessionStorage), so a reload lands where the person was.
import { useEffect, useMemo, useState } from 'react';
import { AiTools } from '../ai/AiTools';
import {
  requestDescriptor,
  useManagedConnections,
  useOwnConnections,
  useStorageConfig,
} from '../lib/connections';
import type { Connection, DbObject, SessionUser } from '../lib/types';
import { ConnectionsPanel, EnvBadge } from '../workspace/ConnectionsPanel';
import { ObjectDetailPanel } from '../workspace/ObjectDetailPanel';
import { ObjectTree } from '../workspace/ObjectTree';
import { QueryPanel } from '../workspace/QueryPanel';

const SELECTED_KEY = 'portal.workspace.selected';
const SQL_KEY = 'portal.workspace.sql';

function loadSqlMap(): Record<string, string> {
  try {
    return JSON.parse(window.sessionStorage.getItem(SQL_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/** A quoted identifier path for a generated SELECT (double quotes; MySQL-family engines use backticks). */
function selectOf(c: Connection, o: DbObject): string {
  const q = c.type === 'mysql' || c.type === 'clickhouse' ? '`' : '"';
  const quote = (s: string) => `${q}${s.split(q).join(q + q)}${q}`;
  // SQLite's only container is "main"; leaving it out keeps the statement short and portable.
  const parts = c.type === 'sqlite' || c.type === 'libsql' ? [o.name] : o.path;
  return `SELECT * FROM ${parts.map(quote).join('.')}`;
}

export function WorkspacePage({ user }: { user: SessionUser }) {
  const storage = useStorageConfig();
  const managed = useManagedConnections();
  const own = useOwnConnections(user.username, storage.data?.serverMode);
  const [selectedId, setSelectedId] = useState<string | undefined>(
    () => window.sessionStorage.getItem(SELECTED_KEY) ?? undefined,
  );
  const [openObject, setOpenObject] = useState<DbObject | null>(null);
  const [sqlMap, setSqlMap] = useState<Record<string, string>>(loadSqlMap);

  const all = useMemo(() => [...(managed.data ?? []), ...(own.data ?? [])], [managed.data, own.data]);
  const connection = all.find((c) => c.id === selectedId);

  useEffect(() => {
    if (selectedId) window.sessionStorage.setItem(SELECTED_KEY, selectedId);
    else window.sessionStorage.removeItem(SELECTED_KEY);
  }, [selectedId]);
  useEffect(() => {
    window.sessionStorage.setItem(SQL_KEY, JSON.stringify(sqlMap));
  }, [sqlMap]);

  const select = (c: Connection) => {
    if (c.id !== selectedId) setOpenObject(null);
    setSelectedId(c.id);
  };
  const descriptor = connection ? requestDescriptor(connection, user.username) : undefined;
  // Cache keys change when an own connection is edited, so its tree is read again.
  const connectionKey = connection
    ? JSON.stringify([connection.id, connection.managed ? '' : connection])
    : '';
  const sql = connection ? (sqlMap[connection.id] ?? '') : '';
  const setSql = (text: string) => connection && setSqlMap((m) => ({ ...m, [connection.id]: text }));

  return (
    <div className="workspace">
      <aside className="sidebar" aria-label="Workspace navigation">
        <ConnectionsPanel
          username={user.username}
          selectedId={selectedId}
          onSelect={select}
          onRemoved={(id) => {
            if (id === selectedId) setSelectedId(undefined);
          }}
        />
        {connection && descriptor && (
          <ObjectTree
            key={connectionKey}
            connectionKey={connectionKey}
            descriptor={descriptor}
            selectedPath={openObject?.path}
            onOpen={setOpenObject}
          />
        )}
      </aside>
      <div className="main-area">
        {!connection ? (
          <div className="empty-state">
            <h2>Pick a connection</h2>
            <p className="muted">
              Choose a managed datasource or one of your own connections on the left, or add a new one.
            </p>
          </div>
        ) : (
          <>
            <div className="conn-title">
              <h1>{connection.name}</h1>
              <span className="badge engine">{connection.type}</span>
              <EnvBadge env={connection.environment} />
              {connection.managed && <span className="badge managed">managed</span>}
              {connection.readOnly && <span className="badge ro">read-only</span>}
              {connection.policy?.writeApproval && (
                <span className="badge approval">
                  writes need {connection.approvalsRequired === 2 ? 'two approvals' : 'approval'}
                </span>
              )}
              {connection.requireTicket && <span className="badge">ticket required</span>}
            </div>
            {openObject && descriptor && (
              <ObjectDetailPanel
                connectionKey={connectionKey}
                descriptor={descriptor}
                object={openObject}
                onClose={() => setOpenObject(null)}
                onQuery={(o) => setSql(selectOf(connection, o))}
              />
            )}
            <QueryPanel
              key={connectionKey}
              connection={connection}
              descriptor={descriptor!}
              sql={sql}
              onSqlChange={setSql}
            />
            <AiTools connection={connection} sql={sql} onUseSql={setSql} />
          </>
        )}
      </div>
    </div>
  );
}
